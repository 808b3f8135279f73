import { setImmediate } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type {
  ConversationSource,
  HandoffFollowUp,
  HandoffNotice,
  HandoffNoticeKind,
  HandoffNoticeRepository,
  HandoffPerson,
  HandoffReplyNotice,
  HandoffRequestNotice,
  HandoffStatus,
  Platform,
  TranscriptTurn,
} from '../port.js';
import { toHandoff, type HandoffRow } from './handoff-rows.js';

// The handoff notices feed. Notices are enqueued inside the transactions that change what they
// tell of (the handoff, the conversation's messages), by the writer below; `seq` orders them.

type NoticeRow = {
  seq: number;
  id: string;
  request_id: string;
  kind: HandoffNoticeKind;
  account_id: string;
  chatbot_id: string;
  chatbot_name: string;
  conversation_id: string;
  source: ConversationSource;
  platform: Platform;
  workspace_id: string;
  channel_id: string;
  status: HandoffStatus;
  requested_at: number;
  taken_by: string | null;
  transcript: string | null;
  person: string | null;
  text: string | null;
  author_name: string | null;
  lease_until: number | null;
  done_at: number | null;
  created_at: number;
};

/** A notice with its handoff's thread (the one its requested notice recorded). */
type OfferedRow = NoticeRow & { handoff_channel_id: string | null; handoff_thread_id: string | null };

const toNotice = (row: OfferedRow): HandoffNotice => ({
  id: row.id,
  kind: row.kind,
  accountId: row.account_id,
  chatbotId: row.chatbot_id,
  chatbotName: row.chatbot_name,
  conversationId: row.conversation_id,
  source: row.source,
  platform: row.platform,
  workspaceId: row.workspace_id,
  channelId: row.channel_id,
  handoff: { status: row.status, requestedAt: new Date(row.requested_at), takenBy: row.taken_by },
  ...(row.transcript !== null && { transcript: JSON.parse(row.transcript) as TranscriptTurn[] }),
  ...(row.kind === 'requested' && { person: row.person === null ? null : (JSON.parse(row.person) as HandoffPerson) }),
  ...(row.text !== null && { text: row.text }),
  ...(row.author_name !== null && { author: { type: 'human' as const, name: row.author_name } }),
  thread:
    row.handoff_channel_id === null || row.handoff_thread_id === null
      ? null
      : { channelId: row.handoff_channel_id, threadId: row.handoff_thread_id },
  leaseUntil: row.lease_until === null ? null : new Date(row.lease_until),
  doneAt: row.done_at === null ? null : new Date(row.done_at),
  createdAt: new Date(row.created_at),
});

const OFFERED = `SELECT n.*, r.thread_channel_id AS handoff_channel_id, r.thread_id AS handoff_thread_id
  FROM handoff_notices n JOIN handoff_notices r ON r.id = n.request_id`;

/** A notice for one of @workspaceIds (a JSON array; null for any) or naming no workspace. */
const inWorkspaces = (alias: string) =>
  `(@workspaceIds IS NULL OR ${alias}.workspace_id = '' OR ${alias}.workspace_id IN (SELECT value FROM json_each(@workspaceIds)))`;

/**
 * The account's next notices for the platform (and workspaces, if asked): each conversation's
 * oldest undone one among them (the team's and the person's replies apart), free of a live
 * lease, oldest first, through
 * handoff_notices_undone and handoff_notices_of_conversation. Exported for the query plan test.
 */
export const NEXT_NOTICES_SQL = `SELECT n.seq FROM handoff_notices n
  WHERE n.account_id = @accountId AND n.platform = @platform AND n.done_at IS NULL
    AND (n.lease_until IS NULL OR n.lease_until < @now) AND ${inWorkspaces('n')} AND (@replies = 1 OR n.kind <> 'reply')
    AND NOT EXISTS (
      SELECT 1 FROM handoff_notices e
      WHERE e.chatbot_id = n.chatbot_id AND e.conversation_id = n.conversation_id AND e.seq < n.seq AND e.done_at IS NULL
        AND (e.kind = 'reply') = (n.kind = 'reply') AND ${inWorkspaces('e')})
  ORDER BY n.seq LIMIT @limit`;

/**
 * The handoff whose request started the thread, while it is the conversation's current one,
 * through handoff_notices_by_thread. Exported for the query plan test.
 */
export const HANDOFF_BY_THREAD_SQL = `SELECT h.* FROM handoff_notices r
  JOIN conversation_handoffs h
    ON h.chatbot_id = r.chatbot_id AND h.conversation_id = r.conversation_id AND h.requested_at = r.requested_at
  WHERE r.platform = @platform AND r.thread_channel_id = @channelId AND r.thread_id = @threadId
    AND r.kind = 'requested' AND r.account_id = @accountId
  ORDER BY r.seq DESC LIMIT 1`;

/**
 * A notice done before @before that nothing needs any more: a `requested` one stays while its
 * handoff is the conversation's current one (the thread lookup and follow-ups join on it) or an
 * undone notice still follows it.
 */
const PRUNABLE = `n.done_at < @before AND (n.kind <> 'requested' OR (
    NOT EXISTS (SELECT 1 FROM conversation_handoffs h
      WHERE h.chatbot_id = n.chatbot_id AND h.conversation_id = n.conversation_id AND h.requested_at = n.requested_at)
    AND NOT EXISTS (SELECT 1 FROM handoff_notices f
      WHERE f.chatbot_id = n.chatbot_id AND f.conversation_id = n.conversation_id AND f.request_id = n.id AND f.done_at IS NULL)))`;

/** Rows a prune reads per batch: each batch's delete holds the write lock briefly. */
const PRUNE_BATCH = 500;

export type HandoffNoticeWriter = {
  request(notice: HandoffRequestNotice): void;
  /** Kept only when the handoff it belongs to has a requested notice. */
  followUp(notice: HandoffFollowUp): void;
  reply(notice: HandoffReplyNotice): void;
};

/** Enqueues notices; to be called inside the transaction of the change they tell of. */
export function sqliteHandoffNoticeWriter(db: Database): HandoffNoticeWriter {
  const request = db.prepare(
    `INSERT INTO handoff_notices (id, request_id, kind, account_id, chatbot_id, chatbot_name, conversation_id, source,
       platform, workspace_id, channel_id, status, requested_at, taken_by, transcript, person, created_at)
     VALUES (@id, @id, 'requested', @accountId, @chatbotId, @chatbotName, @conversationId, @source,
       @platform, @workspaceId, @channelId, @status, @requestedAt, @takenBy, @transcript, @person, @createdAt)`,
  );
  // Where the handoff's requested notice went, the follow-up goes too.
  const followUp = db.prepare(
    `INSERT INTO handoff_notices (id, request_id, kind, account_id, chatbot_id, chatbot_name, conversation_id, source,
       platform, workspace_id, channel_id, status, requested_at, taken_by, text, created_at)
     SELECT @id, r.id, @kind, r.account_id, r.chatbot_id, r.chatbot_name, r.conversation_id, r.source,
       r.platform, r.workspace_id, r.channel_id, @status, @requestedAt, @takenBy, @text, @createdAt
     FROM handoff_notices r
     WHERE r.chatbot_id = @chatbotId AND r.conversation_id = @conversationId AND r.kind = 'requested'
       AND r.requested_at = @requestedAt
     ORDER BY r.seq DESC LIMIT 1`,
  );
  // Its own request: where it goes is its own, and so is its thread.
  const reply = db.prepare(
    `INSERT INTO handoff_notices (id, request_id, kind, account_id, chatbot_id, chatbot_name, conversation_id, source,
       platform, workspace_id, channel_id, status, requested_at, taken_by, text, author_name, thread_channel_id, thread_id, created_at)
     VALUES (@id, @id, 'reply', @accountId, @chatbotId, @chatbotName, @conversationId, @source,
       @platform, @workspaceId, @channelId, @status, @requestedAt, @takenBy, @text, @authorName, @threadChannelId, @threadId, @createdAt)`,
  );
  const snapshot = ({ handoff }: HandoffRequestNotice | HandoffFollowUp | HandoffReplyNotice) => ({
    status: handoff.status,
    requestedAt: handoff.requestedAt.getTime(),
    takenBy: handoff.takenBy,
  });

  /** The columns of a notice that names where it goes. */
  const addressed = (notice: HandoffRequestNotice | HandoffReplyNotice) => ({
    id: notice.id,
    accountId: notice.accountId,
    chatbotId: notice.chatbotId,
    chatbotName: notice.chatbotName,
    conversationId: notice.conversationId,
    source: notice.source,
    platform: notice.platform,
    workspaceId: notice.workspaceId,
    channelId: notice.channelId,
    ...snapshot(notice),
    createdAt: notice.createdAt.getTime(),
  });

  return {
    request(notice) {
      request.run({
        ...addressed(notice),
        transcript: JSON.stringify(notice.transcript),
        person: notice.person && JSON.stringify(notice.person),
      });
    },
    followUp(notice) {
      followUp.run({
        id: notice.id,
        kind: notice.kind,
        chatbotId: notice.chatbotId,
        conversationId: notice.conversationId,
        ...snapshot(notice),
        text: notice.text ?? null,
        createdAt: notice.createdAt.getTime(),
      });
    },
    reply(notice) {
      reply.run({
        ...addressed(notice),
        text: notice.text,
        authorName: notice.author?.name ?? null,
        threadChannelId: notice.thread?.channelId ?? null,
        threadId: notice.thread?.threadId ?? null,
      });
    },
  };
}

export function sqliteHandoffNotices(db: Database): HandoffNoticeRepository {
  // One statement under SQLite's write lock, so racing claimers (other processes too) never
  // lease the same notice.
  const lease = db.prepare<
    { accountId: string; platform: Platform; workspaceIds: string | null; replies: 0 | 1; now: number; leaseUntil: number; limit: number },
    { seq: number }
  >(
    `UPDATE handoff_notices SET lease_until = @leaseUntil WHERE seq IN (${NEXT_NOTICES_SQL}) RETURNING seq`,
  );
  // Adapters poll every second, mostly finding nothing: a read first, so an idle poll never
  // takes the write lock that chats wait for.
  const anyNext = db.prepare<Parameters<typeof lease.all>[0], { seq: number }>(NEXT_NOTICES_SQL);
  const offered = db.prepare<[string], OfferedRow>(`${OFFERED} WHERE n.seq IN (SELECT value FROM json_each(?)) ORDER BY n.seq`);
  const claim = db.transaction((params: Parameters<typeof lease.all>[0]) => {
    const seqs = lease.all(params).map((row) => row.seq);
    return seqs.length === 0 ? [] : offered.all(JSON.stringify(seqs));
  });
  // Only the first done records a thread, so the handoff keeps the first one; a reply keeps its own.
  const markDone = db.prepare<{ accountId: string; id: string; at: number; channelId: string | null; threadId: string | null }>(
    `UPDATE handoff_notices SET done_at = @at,
       thread_channel_id = CASE kind WHEN 'requested' THEN @channelId WHEN 'reply' THEN thread_channel_id END,
       thread_id = CASE kind WHEN 'requested' THEN @threadId WHEN 'reply' THEN thread_id END
     WHERE id = @id AND account_id = @accountId AND done_at IS NULL`,
  );
  const one = db.prepare<[string, string], OfferedRow>(`${OFFERED} WHERE n.id = ? AND n.account_id = ?`);
  const complete = db.transaction((params: Parameters<typeof markDone.run>[0]) => {
    markDone.run(params);
    return one.get(params.id, params.accountId);
  });
  const byThread = db.prepare<{ accountId: string; platform: Platform; channelId: string; threadId: string }, HandoffRow>(
    HANDOFF_BY_THREAD_SQL,
  );
  // Read in seq order a batch at a time, without the write lock; each delete checks again.
  const prunable = db.prepare<{ after: number; before: number; limit: number }, { seq: number; prunable: 0 | 1 }>(
    `SELECT n.seq, ${PRUNABLE} AS prunable FROM handoff_notices n WHERE n.seq > @after ORDER BY n.seq LIMIT @limit`,
  );
  const prune = db.prepare<{ seqs: string; before: number }>(
    `DELETE FROM handoff_notices AS n WHERE n.seq IN (SELECT value FROM json_each(@seqs)) AND ${PRUNABLE}`,
  );

  return {
    async claim({ accountId, platform, workspaceIds, replies, now, leaseUntil, limit }) {
      const params = {
        accountId,
        platform,
        workspaceIds: workspaceIds ? JSON.stringify(workspaceIds) : null,
        replies: replies ? (1 as const) : (0 as const),
        now: now.getTime(),
        leaseUntil: leaseUntil.getTime(),
        limit,
      };
      if (!anyNext.get({ ...params, limit: 1 })) return [];
      return claim.immediate(params).map(toNotice);
    },
    async complete(accountId, id, thread, at) {
      const row = complete.immediate({
        accountId,
        id,
        at: at.getTime(),
        channelId: thread?.channelId ?? null,
        threadId: thread?.threadId ?? null,
      });
      return row && toNotice(row);
    },
    async findByThread(accountId, platform, thread) {
      const row = byThread.get({ accountId, platform, ...thread });
      return row && { chatbotId: row.chatbot_id, conversationId: row.conversation_id, handoff: toHandoff(row) };
    },
    async prune(doneBefore) {
      const before = doneBefore.getTime();
      let removed = 0;
      let batch: { seq: number; prunable: 0 | 1 }[] = [];
      do {
        batch = prunable.all({ after: batch.at(-1)?.seq ?? 0, before, limit: PRUNE_BATCH });
        const seqs = batch.filter((row) => row.prunable === 1).map((row) => row.seq);
        if (seqs.length > 0) removed += prune.run({ seqs: JSON.stringify(seqs), before }).changes;
        // The hub's requests go on between batches.
        await setImmediate();
      } while (batch.length === PRUNE_BATCH);
      return removed;
    },
  };
}
