import { conversationDocumentId, type ConversationDoc, type MongoModels } from './models.js';
import { OPEN_HANDOFF, type DueHandoff, type HandoffRepository } from '../port.js';
import { toChangedHandoff, toHandoff, type HandoffDoc } from './handoff-docs.js';
import { stashNotices, type HandoffOutbox } from './handoff-notices.js';
import type { AtomicWrites } from './atomic.js';
import type { ActivityCount } from './activity.js';
import { messageInserts, reserveSequence } from './message-inserts.js';

// A conversation's handoff is a field of its document, so each change is one conditional write,
// which also writes the notices that tell of it (moved into the feed right after) and reserves
// the numbers of the messages said with it.

export function mongoHandoffs(models: MongoModels, { atomic }: AtomicWrites, count: ActivityCount, outbox: HandoffOutbox): HandoffRepository {
  const { conversations } = models;
  const insertReserved = messageInserts(models, count);
  const handoffOf = (doc: Pick<ConversationDoc, 'handoff'> | null) => (doc?.handoff ? toHandoff(doc.handoff) : undefined);

  return {
    async request(chatbotId, conversationId, at, dueAt, notice) {
      const handoff: HandoffDoc = {
        status: 'pending',
        requestedAt: at,
        takenBy: null,
        dueAt,
        updatedAt: at,
        claimedBy: null,
        leaseUntil: null,
      };
      const doc = await conversations
        .findOneAndUpdate(
          { _id: conversationDocumentId(chatbotId, conversationId), chatbotId, 'handoff.status': { $nin: [...OPEN_HANDOFF] } },
          { $set: { handoff }, ...stashNotices(notice ? [notice] : []) },
          { returnDocument: 'after', projection: { handoff: 1, incarnation: 1 } },
        )
        .lean<Pick<ConversationDoc, 'handoff' | 'incarnation'>>();
      if (doc && notice) await outbox.flush(chatbotId, conversationId);
      return toChangedHandoff(doc);
    },
    async find(chatbotId, conversationId) {
      const doc = await conversations
        .findOne({ _id: conversationDocumentId(chatbotId, conversationId), chatbotId }, { handoff: 1 })
        .lean<Pick<ConversationDoc, 'handoff'>>();
      return handoffOf(doc);
    },
    // What is said with the change takes its numbers in the conversation in the change's write, so
    // it comes before anything said after the change, and after anything said before it.
    async transition(chatbotId, conversationId, from, change, dueAt) {
      const { said, at } = change;
      const notices = [change.notice, ...(said?.notices ?? [])].filter((notice) => notice !== undefined);
      const doc = await atomic(async () => {
        const changed = await conversations
          .findOneAndUpdate(
            {
              _id: conversationDocumentId(chatbotId, conversationId),
              chatbotId,
              'handoff.status': { $in: from },
              ...(dueAt && { 'handoff.dueAt': dueAt }),
            },
            {
              $set: {
                'handoff.status': change.status,
                'handoff.dueAt': change.dueAt,
                'handoff.updatedAt': at,
                'handoff.claimedBy': null,
                'handoff.leaseUntil': null,
                ...(change.takenBy !== undefined && { 'handoff.takenBy': change.takenBy }),
                ...(said?.lang && { lang: said.lang }),
              },
              ...(said && reserveSequence(said.messages.length, at)),
              ...stashNotices(notices),
            },
            { returnDocument: 'after', projection: { handoff: 1, messageCount: 1, incarnation: 1 } },
          )
          .lean<Pick<ConversationDoc, 'handoff' | 'messageCount' | 'incarnation'>>();
        if (changed && said) {
          await insertReserved({ chatbotId, id: conversationId, at, first: changed.messageCount - said.messages.length, messages: said.messages });
        }
        return changed;
      });
      if (doc && notices.length > 0) await outbox.flush(chatbotId, conversationId);
      return toChangedHandoff(doc);
    },
    async claimDue({ now, claimedBy, leaseUntil, limit }) {
      const claimed: DueHandoff[] = [];
      while (claimed.length < limit) {
        const doc = await conversations
          .findOneAndUpdate(
            {
              'handoff.dueAt': { $lte: now },
              $or: [{ 'handoff.leaseUntil': null }, { 'handoff.leaseUntil': { $lt: now } }],
            },
            { $set: { 'handoff.claimedBy': claimedBy, 'handoff.leaseUntil': leaseUntil } },
            { sort: { 'handoff.dueAt': 1 }, returnDocument: 'after' },
          )
          .lean<ConversationDoc>();
        if (!doc?.handoff) break;
        claimed.push({ ...toHandoff(doc.handoff), chatbotId: doc.chatbotId, conversationId: doc.conversationId, accountId: doc.accountId });
      }
      return claimed;
    },
  };
}
