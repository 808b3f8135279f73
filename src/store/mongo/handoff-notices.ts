import { Types } from 'mongoose';
import type { HandoffFollowUp, HandoffNotice, HandoffNoticeRepository, HandoffReplyNotice, HandoffRequestNotice } from '../port.js';
import { toHandoff } from './handoff-docs.js';
import { conversationDocumentId, type ConversationDoc, type HandoffNoticeDoc, type MongoModels, type StashedNoticeDoc } from './models.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

// The handoff notices feed. A notice is written into its conversation's document by the same
// one-document (so atomic) write as the change it tells of, then moved into the feed's
// collection. A crash in between leaves it in the document, where the next claim of the account
// finds it and finishes the move; moving twice inserts once. So no notice is lost, on a
// standalone mongod too. Order: createdAt, then `seq` (an ObjectId, increasing in each process).

/** The update that writes notices into their conversation's document, with the change they tell of. */
export function stashNotices(notices: (HandoffRequestNotice | HandoffFollowUp | HandoffReplyNotice)[]) {
  if (notices.length === 0) return {};
  const stashed: StashedNoticeDoc[] = notices.map((notice) => ({ _id: notice.id, seq: new Types.ObjectId(), notice }));
  return { $push: { handoffOutbox: { $each: stashed } } };
}

type NoticeFields = Omit<HandoffNoticeDoc, '_id'>;

/** A request, or a reply to the person: each its own request, naming where it goes. */
function ownFields(notice: HandoffRequestNotice | HandoffReplyNotice, seq: Types.ObjectId): NoticeFields {
  const { kind, id, thread, ...fields } = { thread: null, ...notice };
  return { ...fields, ...(thread && { thread }), kind, seq, requestId: id, undone: true, leaseUntil: null, doneAt: null };
}

export type HandoffOutbox = {
  /** Moves what the conversation's document holds into the feed, in order. Idempotent. */
  flush(chatbotId: string, conversationId: string): Promise<void>;
};

export function mongoHandoffOutbox(models: MongoModels): HandoffOutbox & { flushAccount(accountId: string): Promise<void> } {
  const { conversations, handoffNotices } = models;

  /** A follow-up as its handoff's request placed it; undefined when that handoff has none. */
  async function followUpFields({ kind, handoff, text, createdAt, chatbotId, conversationId }: HandoffFollowUp, seq: Types.ObjectId) {
    const request = await handoffNotices
      .findOne({ chatbotId, conversationId, kind: 'requested', 'handoff.requestedAt': handoff.requestedAt })
      .sort({ createdAt: -1, seq: -1 })
      .lean<HandoffNoticeDoc>();
    if (!request) return undefined;
    const { accountId, chatbotName, source, platform, workspaceId, channelId } = request;
    const fields: NoticeFields = {
      kind,
      seq,
      requestId: request._id,
      accountId,
      chatbotId,
      chatbotName,
      conversationId,
      source,
      platform,
      workspaceId,
      channelId,
      handoff,
      ...(text !== undefined && { text }),
      undone: true,
      leaseUntil: null,
      doneAt: null,
      createdAt,
    };
    return fields;
  }

  async function flush(chatbotId: string, conversationId: string): Promise<void> {
    const conversation = { _id: conversationDocumentId(chatbotId, conversationId), chatbotId };
    const doc = await conversations.findOne(conversation, { handoffOutbox: 1 }).lean<Pick<ConversationDoc, 'handoffOutbox'>>();
    for (const { _id: noticeId, seq, notice } of doc?.handoffOutbox ?? []) {
      const fields = notice.kind === 'requested' || notice.kind === 'reply' ? ownFields(notice, seq) : await followUpFields(notice, seq);
      if (fields) {
        await retryOnceOnDuplicateKey(() => handoffNotices.updateOne({ _id: noticeId }, { $setOnInsert: fields }, { upsert: true }));
      }
      await conversations.updateOne(conversation, { $pull: { handoffOutbox: { _id: noticeId } } });
    }
  }

  return {
    flush,
    async flushAccount(accountId) {
      const left = await conversations
        .find({ accountId, 'handoffOutbox._id': { $exists: true } }, { chatbotId: 1, conversationId: 1 })
        .lean<Pick<ConversationDoc, 'chatbotId' | 'conversationId'>[]>();
      for (const doc of left) await flush(doc.chatbotId, doc.conversationId);
    },
  };
}

type Offered = HandoffNoticeDoc & { thread?: HandoffNotice['thread'] };

const toNotice = (doc: Offered, request: HandoffNoticeDoc | null): HandoffNotice => ({
  id: doc._id,
  kind: doc.kind,
  accountId: doc.accountId,
  chatbotId: doc.chatbotId,
  chatbotName: doc.chatbotName,
  conversationId: doc.conversationId,
  source: doc.source,
  platform: doc.platform,
  workspaceId: doc.workspaceId,
  channelId: doc.channelId,
  handoff: { status: doc.handoff.status, requestedAt: doc.handoff.requestedAt, takenBy: doc.handoff.takenBy },
  ...(doc.transcript && { transcript: doc.transcript }),
  ...(doc.kind === 'requested' && { person: doc.person ?? null }),
  ...(doc.text !== undefined && { text: doc.text }),
  ...(doc.author && { author: { type: doc.author.type, name: doc.author.name } }),
  thread: request?.thread ? { channelId: request.thread.channelId, threadId: request.thread.threadId } : null,
  leaseUntil: doc.leaseUntil,
  doneAt: doc.doneAt,
  createdAt: doc.createdAt,
});

/** Requests a prune reads at a time. */
const PRUNE_BATCH = 500;

type RequestRef = Pick<HandoffNoticeDoc, '_id' | 'chatbotId' | 'conversationId' | 'handoff'>;

/**
 * Of done requests, those nothing needs any more: not their conversation's current handoff's
 * (findByThread and the follow-ups look it up), followed by no undone notice, and with no notice
 * still to be moved from the conversation's document (it may follow them).
 */
async function unneededRequests(models: MongoModels, requests: RequestRef[]): Promise<string[]> {
  const conversations = await models.conversations
    .find(
      {
        _id: { $in: requests.map((request) => conversationDocumentId(request.chatbotId, request.conversationId)) },
        chatbotId: { $in: [...new Set(requests.map((request) => request.chatbotId))] },
      },
      { handoff: 1, handoffOutbox: 1 },
    )
    .lean<Pick<ConversationDoc, '_id' | 'handoff' | 'handoffOutbox'>[]>();
  const byId = new Map(conversations.map((conversation) => [conversation._id, conversation]));
  const followed = new Set(
    await models.handoffNotices.distinct<string>('requestId', { requestId: { $in: requests.map((request) => request._id) }, undone: true }),
  );
  return requests
    .filter((request) => {
      const conversation = byId.get(conversationDocumentId(request.chatbotId, request.conversationId));
      const current = conversation?.handoff?.requestedAt.getTime() === request.handoff.requestedAt.getTime();
      return !current && !conversation?.handoffOutbox?.length && !followed.has(request._id);
    })
    .map((request) => request._id);
}

export function mongoHandoffNotices(models: MongoModels): HandoffNoticeRepository {
  const { conversations, handoffNotices } = models;
  const outbox = mongoHandoffOutbox(models);

  const requestOf = (doc: HandoffNoticeDoc) =>
    doc.requestId === doc._id ? Promise.resolve(doc) : handoffNotices.findOne({ _id: doc.requestId }).lean<HandoffNoticeDoc>();

  return {
    async claim({ accountId, platform, workspaceIds, replies, now, leaseUntil, limit }) {
      await outbox.flushAccount(accountId);
      // Each conversation's oldest undone notice (of those for the workspaces asked, or naming
      // none; the team's and the person's replies apart), free of a live lease, oldest first.
      // Read as needed: heads other claimers lease meanwhile are passed over for the next.
      const inWorkspaces = workspaceIds && { workspaceId: { $in: [...workspaceIds, ''] } };
      const teamsOnly = !replies && { kind: { $ne: 'reply' } };
      const heads = handoffNotices.aggregate<HandoffNoticeDoc>([
        { $match: { accountId, platform, undone: true, ...inWorkspaces, ...teamsOnly } },
        { $sort: { createdAt: 1, seq: 1 } },
        {
          $group: {
            _id: { chatbotId: '$chatbotId', conversationId: '$conversationId', toPerson: { $eq: ['$kind', 'reply'] } },
            head: { $first: '$$ROOT' },
          },
        },
        { $replaceRoot: { newRoot: '$head' } },
        { $match: { $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] } },
        { $sort: { createdAt: 1, seq: 1 } },
      ]);
      const claimed: HandoffNotice[] = [];
      for await (const head of heads.cursor()) {
        const request = await requestOf(head);
        if (!request) continue;
        // A request comes before its follow-ups, which need its thread, even where another
        // process wrote one in the same millisecond with a lower seq.
        const next = request.doneAt === null ? request : head;
        // One conditional write: of racing claimers, one leases it.
        const leased = await handoffNotices
          .findOneAndUpdate(
            { _id: next._id, undone: true, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
            { $set: { leaseUntil } },
            { returnDocument: 'after' },
          )
          .lean<HandoffNoticeDoc>();
        if (leased) claimed.push(toNotice(leased, next === request ? leased : request));
        if (claimed.length === limit) break;
      }
      return claimed;
    },
    async complete(accountId, id, thread, at) {
      const found = await handoffNotices.findOne({ _id: id, accountId }).lean<HandoffNoticeDoc>();
      if (!found) return undefined;
      // Done already (an adapter telling it again): as it was.
      if (!found.undone) return toNotice(found, await requestOf(found));
      // Only the first done records a thread, so the handoff keeps the first one.
      const recorded = found.kind === 'requested' && thread ? { thread: { channelId: thread.channelId, threadId: thread.threadId } } : {};
      const done =
        (await handoffNotices
          .findOneAndUpdate({ _id: id, undone: true }, { $set: { doneAt: at, leaseUntil: null, ...recorded }, $unset: { undone: 1 } }, { returnDocument: 'after' })
          .lean<HandoffNoticeDoc>()) ?? (await handoffNotices.findOne({ _id: id }).lean<HandoffNoticeDoc>());
      if (!done) return undefined;
      return toNotice(done, await requestOf(done));
    },
    async findByThread(accountId, platform, thread) {
      const request = await handoffNotices
        .findOne({ platform, 'thread.channelId': thread.channelId, 'thread.threadId': thread.threadId, kind: 'requested', accountId })
        .sort({ createdAt: -1, seq: -1 })
        .lean<HandoffNoticeDoc>();
      if (!request) return undefined;
      const { chatbotId, conversationId } = request;
      // The thread's handoff, while it is the conversation's current one.
      const doc = await conversations
        .findOne({ _id: conversationDocumentId(chatbotId, conversationId), 'handoff.requestedAt': request.handoff.requestedAt }, { handoff: 1 })
        .lean<Pick<ConversationDoc, 'handoff'>>();
      return doc?.handoff && { chatbotId, conversationId, handoff: toHandoff(doc.handoff) };
    },
    async prune(doneBefore) {
      const done = { doneAt: { $lt: doneBefore } };
      const { deletedCount: followUps } = await handoffNotices.deleteMany({ ...done, kind: { $ne: 'requested' } });
      let requests = 0;
      let batch: RequestRef[] = [];
      do {
        const after = batch.at(-1)?._id;
        batch = await handoffNotices
          .find({ ...done, kind: 'requested', ...(after !== undefined && { _id: { $gt: after } }) }, { chatbotId: 1, conversationId: 1, handoff: 1 })
          .sort({ _id: 1 })
          .limit(PRUNE_BATCH)
          .lean<RequestRef[]>();
        const unneeded = await unneededRequests(models, batch);
        if (unneeded.length > 0) requests += (await handoffNotices.deleteMany({ _id: { $in: unneeded }, ...done })).deletedCount;
      } while (batch.length === PRUNE_BATCH);
      return followUps + requests;
    },
  };
}
