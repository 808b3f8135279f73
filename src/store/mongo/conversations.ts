import { randomBytes } from 'node:crypto';
import { pageOffset } from '../paging.js';
import type {
  AnsweredQuestion,
  Conversation,
  ConversationListFilter,
  ConversationRepository,
  Page,
  StoredMessage,
} from '../port.js';
import { Types } from 'mongoose';
import type { ActivityCount } from './activity.js';
import type { AtomicWrites } from './atomic.js';
import { mongoErasure } from './erasure.js';
import { conversationDocumentId, type ConversationDoc, type ConversationMessageDoc, type MongoModels } from './models.js';
import { createdWithin } from './time-range.js';
import { toHandoff } from './handoff-docs.js';
import { retryOnceOnDuplicateKey } from './upsert.js';
import { messageInserts, objectId, reserveSequence } from './message-inserts.js';

/** A name for a conversation being created (Incarnation), as SQLite's: 12 random bytes in hex. */
const newIncarnation = () => randomBytes(12).toString('hex');

/** A message as read: its document's own ObjectId is the message's id. */
type ReadMessage = ConversationMessageDoc & { _id: Types.ObjectId };

const toMessages = (docs: ReadMessage[]): StoredMessage[] =>
  docs.map(({ _id, role, content, createdAt, feedback, sources, revision, author, kind }) => ({
    id: _id.toHexString(),
    role,
    content,
    createdAt,
    ...(feedback && { feedback }),
    ...(sources?.length && { sources }),
    ...(author && { author: { type: author.type, name: author.name } }),
    ...(kind && { kind }),
    ...(revision && { revision: { answer: revision.answer, createdAt: revision.createdAt } }),
  }));

const toConversation = (doc: ConversationDoc, messages: ReadMessage[]): Conversation => ({
  id: doc.conversationId,
  chatbotId: doc.chatbotId,
  accountId: doc.accountId,
  source: doc.source,
  contactId: doc.contactId,
  ...(doc.lang && { lang: doc.lang }),
  messages: toMessages(messages),
  ...(doc.handoff && { handoff: toHandoff(doc.handoff) }),
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

/**
 * A page of a chatbot's conversations: equality and range on {chatbotId, createdAt}, sorted in the
 * order of the {chatbotId: 1, createdAt: -1, _id: -1} index (the source filter is checked on the
 * documents the range yields); with handoff statuses, through {chatbotId: 1, 'handoff.status': 1,
 * createdAt: -1, _id: -1}, each status's run already in order. Exported for the test that explains it.
 */
export function conversationPageQuery(models: MongoModels, chatbotId: string, filter: ConversationListFilter, page: Page) {
  return models.conversations
    .find({
      chatbotId,
      ...createdWithin(filter),
      ...(filter.sources?.length && { source: { $in: filter.sources } }),
      ...(filter.handoffStatuses?.length && { 'handoff.status': { $in: filter.handoffStatuses } }),
    })
    .sort({ createdAt: -1, _id: -1 })
    .skip(pageOffset(page))
    .limit(page.size);
}

export function mongoConversations(models: MongoModels, writes: AtomicWrites, count: ActivityCount): ConversationRepository {
  const { conversations, conversationMessages } = models;
  const insertReserved = messageInserts(models, count);
  const { atomic } = writes;
  const erasure = mongoErasure(models, writes);

  /** The messages of the given conversations of one chatbot, each conversation's in order. */
  async function messagesOf(chatbotId: string, ids: string[]): Promise<Map<string, ReadMessage[]>> {
    const docs = await conversationMessages
      .find({ chatbotId, conversationId: { $in: ids } })
      .sort({ conversationId: 1, seq: 1 })
      .lean<ReadMessage[]>();
    const byConversation = new Map(ids.map((id): [string, ReadMessage[]] => [id, []]));
    for (const doc of docs) byConversation.get(doc.conversationId)?.push(doc);
    return byConversation;
  }

  /** What is known of a conversation without reading its messages. */
  const headerOf = (chatbotId: string, id: string) =>
    conversations
      .findOne({ _id: conversationDocumentId(chatbotId, id), chatbotId }, { source: 1, lang: 1, incarnation: 1 })
      .lean<Pick<ConversationDoc, 'source' | 'lang' | 'incarnation'>>();

  return {
    // The conversation's counter reserves a block of sequence numbers in one atomic write, so
    // concurrent appends never interleave a batch or lose each other's messages; the messages
    // follow under those numbers. A crash in between leaves a gap in the numbers, never a
    // misordered or half-visible batch.
    async append(input) {
      const { chatbotId, accountId, id, source, contactId, lang, at } = input;
      await atomic(async () => {
        const doc = await retryOnceOnDuplicateKey(() =>
          conversations
            .findOneAndUpdate(
              { _id: conversationDocumentId(chatbotId, id), chatbotId },
              {
                $setOnInsert: { conversationId: id, accountId, source, contactId, createdAt: at, incarnation: newIncarnation() },
                // The latest language said replaces the one before.
                ...(lang && { $set: { lang } }),
                ...reserveSequence(input.messages.length, at),
              },
              { upsert: true, returnDocument: 'after', projection: { messageCount: 1 } },
            )
            .lean<Pick<ConversationDoc, 'messageCount'>>(),
        );
        if (!doc) throw new Error('upsert returned no document');
        const first = doc.messageCount - input.messages.length;
        await insertReserved({ chatbotId, id, at, first, messages: input.messages, source, tally: input.tally });
      });
    },
    async find(chatbotId, id) {
      const doc = await conversations.findOne({ _id: conversationDocumentId(chatbotId, id), chatbotId }).lean<ConversationDoc>();
      if (!doc) return undefined;
      return toConversation(doc, (await messagesOf(chatbotId, [id])).get(id) ?? []);
    },
    async header(chatbotId, id) {
      const doc = await headerOf(chatbotId, id);
      return doc ? { source: doc.source, ...(doc.lang && { lang: doc.lang }) } : undefined;
    },
    async incarnation(chatbotId, id) {
      const doc = await headerOf(chatbotId, id);
      return doc ? (doc.incarnation ?? null) : undefined;
    },
    async recentMessages(chatbotId, id, limit) {
      const docs = await conversationMessages
        .find({ chatbotId, conversationId: id })
        .sort({ seq: -1 })
        .limit(limit)
        .lean<ReadMessage[]>();
      return toMessages(docs.reverse());
    },
    async list(chatbotId, filter, page) {
      const docs = await conversationPageQuery(models, chatbotId, filter, page).lean<ConversationDoc[]>();
      const messages = await messagesOf(chatbotId, docs.map((doc) => doc.conversationId));
      return docs.map((doc) => toConversation(doc, messages.get(doc.conversationId) ?? []));
    },
    async reserveMessageIds(count) {
      // ObjectIds are unique wherever they are made: reserving needs no write.
      return Array.from({ length: count }, () => new Types.ObjectId().toHexString());
    },
    // The change of rating is counted at the answer's hour: a day's feedback is on that day's answers.
    async setFeedback(chatbotId, messageId, feedback) {
      const _id = objectId(messageId);
      if (!_id) return false;
      return atomic(async () => {
        const down = feedback === 'down';
        const before = await conversationMessages
          .findOneAndUpdate({ _id, chatbotId, role: 'assistant' }, { $set: { feedback, ...(down && { ratedDown: true }) } }, { returnDocument: 'before' })
          .lean<ReadMessage>();
        if (!before) return false;
        const change = (rating: string) => Number(feedback === rating) - Number(before.feedback === rating);
        await count(chatbotId, before.createdAt, { feedbackUp: change('up'), feedbackDown: change('down') });
        // `feedback` tells of a 👎 given before ratedDown was kept.
        return { firstDown: down && !before.ratedDown && before.feedback !== 'down' };
      });
    },
    async answeredQuestion(chatbotId, messageId): Promise<AnsweredQuestion | undefined> {
      const _id = objectId(messageId);
      const answer = _id && (await conversationMessages.findOne({ _id, chatbotId, role: 'assistant' }).lean<ReadMessage>());
      if (!answer) return undefined;
      const { conversationId, seq } = answer;
      const previous = await conversationMessages
        .findOne({ chatbotId, conversationId, role: 'assistant', seq: { $lt: seq } }, { seq: 1 })
        .sort({ seq: -1 })
        .lean<Pick<ReadMessage, 'seq'>>();
      const [asked, conversation] = await Promise.all([
        conversationMessages
          .find({ chatbotId, conversationId, role: 'user', seq: { $lt: seq, $gt: previous?.seq ?? -1 } })
          .sort({ seq: 1 })
          .lean<ReadMessage[]>(),
        conversations.findOne({ _id: conversationDocumentId(chatbotId, conversationId) }, { source: 1 }).lean<ConversationDoc>(),
      ]);
      return {
        conversationId,
        source: conversation?.source ?? 'API',
        answer: toMessages([answer])[0] as StoredMessage,
        question: asked.map((message) => message.content).join('\n'),
      };
    },
    async setRevision(chatbotId, messageId, revision) {
      const _id = objectId(messageId);
      if (!_id) return false;
      const result = await conversationMessages.updateOne({ _id, chatbotId, role: 'assistant' }, { $set: { revision } });
      return result.matchedCount === 1;
    },
    async messageSources(chatbotId, messageId) {
      const _id = objectId(messageId);
      if (!_id) return undefined;
      const doc = await conversationMessages
        .findOne({ _id, chatbotId, role: 'assistant' }, { sources: 1 })
        .lean<Pick<ConversationMessageDoc, 'sources'>>();
      return doc ? (doc.sources ?? []) : undefined;
    },
    delete: (chatbotId, id) => erasure.conversation(chatbotId, id),
  };
}
