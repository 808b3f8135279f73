import type { Database } from 'better-sqlite3';
import type { DueHandoff, HandoffChange, HandoffRepository, HandoffRequestNotice, HandoffStatus } from '../port.js';
import { CHANGED_HANDOFF, HANDOFF_OF_CONVERSATION, toChangedHandoff, toHandoff, type ChangedHandoffRow, type HandoffRow } from './handoff-rows.js';
import type { HandoffNoticeWriter } from './handoff-notices.js';
import type { ConversationAppendTransaction } from './conversation-append.js';

const toDue = (row: HandoffRow): DueHandoff => ({
  ...toHandoff(row),
  chatbotId: row.chatbot_id,
  conversationId: row.conversation_id,
  accountId: row.account_id,
});

/** `from` as a JSON array, so one statement serves any set of statuses. */
const statuses = (from: readonly HandoffStatus[]) => JSON.stringify(from);

export function sqliteHandoffs(db: Database, notices: HandoffNoticeWriter, append: ConversationAppendTransaction): HandoffRepository {
  // One statement: the first request, or a new one over a closed handoff; an open one changes no row.
  const request = db.prepare<{ chatbotId: string; id: string; at: number; due: number }, ChangedHandoffRow>(
    `INSERT INTO conversation_handoffs
       (chatbot_id, conversation_id, account_id, status, requested_at, taken_by, due_at, updated_at)
     SELECT chatbot_id, id, account_id, 'pending', @at, NULL, @due, @at FROM conversations
     WHERE chatbot_id = @chatbotId AND id = @id
     ON CONFLICT (chatbot_id, conversation_id) DO UPDATE SET
       status = 'pending', requested_at = excluded.requested_at, taken_by = NULL, due_at = excluded.due_at,
       claimed_by = NULL, lease_until = NULL, updated_at = excluded.updated_at
     WHERE status NOT IN ('pending', 'active')
     ${CHANGED_HANDOFF}`,
  );
  const find = db.prepare<[string, string], HandoffRow>(HANDOFF_OF_CONVERSATION);
  const transition = db.prepare<
    { chatbotId: string; id: string; from: string; status: HandoffStatus; takenBy: string | null; keepTaker: number; dueAt: number | null; at: number; ifDueAt: number | null },
    ChangedHandoffRow
  >(
    `UPDATE conversation_handoffs SET
       status = @status, taken_by = CASE WHEN @keepTaker THEN taken_by ELSE @takenBy END, due_at = @dueAt,
       claimed_by = NULL, lease_until = NULL, updated_at = @at
     WHERE chatbot_id = @chatbotId AND conversation_id = @id
       AND status IN (SELECT value FROM json_each(@from))
       AND (@ifDueAt IS NULL OR due_at = @ifDueAt)
     ${CHANGED_HANDOFF}`,
  );
  // One statement, so racing claimers (other processes too) never take the same handoff.
  const claimDue = db.prepare<{ claimedBy: string; leaseUntil: number; now: number; limit: number }, HandoffRow>(
    `UPDATE conversation_handoffs SET claimed_by = @claimedBy, lease_until = @leaseUntil
     WHERE (chatbot_id, conversation_id) IN (
       SELECT chatbot_id, conversation_id FROM conversation_handoffs
       WHERE due_at <= @now AND (lease_until IS NULL OR lease_until < @now)
       ORDER BY due_at LIMIT @limit)
     RETURNING *`,
  );

  // A notice is enqueued in the transaction of the change it tells of, and only when it applies.
  const requestNoticed = db.transaction((params: Parameters<typeof request.get>[0], notice?: HandoffRequestNotice) => {
    const row = request.get(params);
    if (row && notice) notices.request(notice);
    return row;
  });
  const transitionNoticed = db.transaction((params: Parameters<typeof transition.get>[0], { notice, said, at }: HandoffChange) => {
    const row = transition.get(params);
    if (row && notice) notices.followUp(notice);
    if (row && said) {
      const { chatbot_id: chatbotId, conversation_id: id, account_id: accountId } = row;
      // source and contactId serve only an append that creates the conversation; the handoff's exists.
      append({ chatbotId, accountId, id, source: 'API', contactId: null, lang: said.lang, at, messages: said.messages });
      for (const saidNotice of said.notices) {
        if (saidNotice.kind === 'reply') notices.reply(saidNotice);
        else notices.followUp(saidNotice);
      }
    }
    return row;
  });

  return {
    async request(chatbotId, conversationId, at, dueAt, notice) {
      const row = requestNoticed.immediate({ chatbotId, id: conversationId, at: at.getTime(), due: dueAt.getTime() }, notice);
      return row && toChangedHandoff(row);
    },
    async find(chatbotId, conversationId) {
      const row = find.get(chatbotId, conversationId);
      return row && toHandoff(row);
    },
    async transition(chatbotId, conversationId, from, change, dueAt) {
      const row = transitionNoticed.immediate({
        chatbotId,
        id: conversationId,
        from: statuses(from),
        status: change.status,
        takenBy: change.takenBy ?? null,
        keepTaker: change.takenBy === undefined ? 1 : 0,
        dueAt: change.dueAt?.getTime() ?? null,
        at: change.at.getTime(),
        ifDueAt: dueAt?.getTime() ?? null,
      }, change);
      return row && toChangedHandoff(row);
    },
    async claimDue({ now, claimedBy, leaseUntil, limit }) {
      const rows = claimDue.all({ claimedBy, leaseUntil: leaseUntil.getTime(), now: now.getTime(), limit });
      return rows.map(toDue).sort((a, b) => Number(a.dueAt) - Number(b.dueAt));
    },
  };
}
