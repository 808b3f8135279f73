import { pageOffset } from '../paging.js';
import { unansweredKey } from '../same-question.js';
import { newestAskedFirst } from '../unanswered-examples.js';
import { UNANSWERED_EXAMPLES, type UnansweredAsk, type UnansweredExample, type UnansweredFilter, type UnansweredGroup, type UnansweredRepository } from '../port.js';
import { forgetConversationAsks } from './conversation-asks.js';
import { conversationDocumentId, type MongoModels, type UnansweredGroupDoc } from './models.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

const toGroup = ({ _id, termsKey: _key, examples, opening: _opening, webhookPending: _pending, ...doc }: UnansweredGroupDoc): UnansweredGroup => ({
  id: _id,
  ...doc,
  examples: newestAskedFirst(examples),
});

const matching = (chatbotId: string, filter: UnansweredFilter) => ({
  chatbotId,
  ...((filter.from || filter.to) && {
    lastAskedAt: { ...(filter.from && { $gte: filter.from }), ...(filter.to && { $lte: filter.to }) },
  }),
  ...(filter.status && { status: filter.status }),
});

/** The update that counts one ask into a group (asks are recorded as their replies end, not always in the order they were asked). */
const countAsk = (example: UnansweredExample) => ({
  $inc: { count: 1 },
  $min: { firstAskedAt: example.askedAt },
  $max: { lastAskedAt: example.askedAt },
  $set: { status: 'open' },
  $push: { examples: { $each: [example], $slice: -UNANSWERED_EXAMPLES } },
});

export function mongoUnanswered(models: MongoModels): UnansweredRepository {
  const { conversations, unansweredGroups } = models;

  const stands = async (chatbotId: string, { conversationId }: UnansweredExample) =>
    conversationId === null || (await conversations.exists({ _id: conversationDocumentId(chatbotId, conversationId), chatbotId })) !== null;

  /**
   * Writes an ask only while its conversation stands. No write can check another collection, so
   * it checks again after: an erasure (erasure.ts) that came in between takes out what was written
   * before the conversation went, and this what was written after.
   */
  async function whileStanding<T>(chatbotId: string, example: UnansweredExample, write: () => Promise<T>): Promise<T | undefined> {
    if (!(await stands(chatbotId, example))) return undefined;
    const written = await write();
    if (await stands(chatbotId, example)) return written;
    if (example.conversationId !== null) await forgetConversationAsks(models, chatbotId, example.conversationId);
    return undefined;
  }

  // One write either way: the group found is counted into, or the unique {chatbotId, termsKey}
  // index decides which of racing asks opens the group.
  async function countIn({ chatbotId, accountId, groupId, opening, example }: UnansweredAsk): Promise<{ group: UnansweredGroup; created: boolean }> {
    const ask = countAsk(example);
    const found =
      groupId === undefined
        ? null
        : await unansweredGroups
            .findOneAndUpdate({ _id: groupId, chatbotId }, ask, { returnDocument: 'after' })
            .lean<UnansweredGroupDoc>();
    if (found) return { group: toGroup(found), created: false };
    const termsKey = unansweredKey(opening);
    const doc = await retryOnceOnDuplicateKey(() =>
      unansweredGroups
        .findOneAndUpdate(
          { chatbotId, termsKey },
          {
            ...ask,
            $setOnInsert: {
              _id: opening.id,
              accountId,
              question: opening.question,
              terms: opening.terms,
              opening: example,
              webhookPending: true,
            },
          },
          { upsert: true, returnDocument: 'after' },
        )
        .lean<UnansweredGroupDoc>(),
    );
    if (!doc) throw new Error('upsert returned no document');
    return { group: toGroup(doc), created: doc._id === opening.id };
  }

  return {
    async candidates(chatbotId, terms, limit) {
      const docs = await unansweredGroups
        .find({ chatbotId, terms: { $in: terms } }, { terms: 1 })
        .sort({ lastAskedAt: -1 })
        .limit(limit)
        .lean<Pick<UnansweredGroupDoc, '_id' | 'terms'>[]>();
      return docs.map((doc) => ({ id: doc._id, terms: doc.terms }));
    },
    async repeat({ chatbotId, terms, question, example }) {
      const counted = await whileStanding(chatbotId, example, async () => {
        const { matchedCount } = await unansweredGroups.updateOne({ chatbotId, termsKey: unansweredKey({ terms, question }) }, countAsk(example));
        return matchedCount === 1;
      });
      return counted ?? false;
    },
    record: (ask) => whileStanding(ask.chatbotId, ask.example, () => countIn(ask)),
    async list(chatbotId, filter, page) {
      const docs = await unansweredGroups
        .find(matching(chatbotId, filter))
        .sort({ count: -1, lastAskedAt: -1, _id: 1 })
        .skip(pageOffset(page))
        .limit(page.size)
        .lean<UnansweredGroupDoc[]>();
      return docs.map(toGroup);
    },
    count(chatbotId, filter) {
      return unansweredGroups.countDocuments(matching(chatbotId, filter));
    },
    async find(chatbotId, id) {
      const doc = await unansweredGroups.findOne({ _id: id, chatbotId }).lean<UnansweredGroupDoc>();
      return doc ? toGroup(doc) : undefined;
    },
    async setStatus(chatbotId, id, status) {
      const doc = await unansweredGroups
        .findOneAndUpdate({ _id: id, chatbotId }, { $set: { status } }, { returnDocument: 'after' })
        .lean<UnansweredGroupDoc>();
      return doc ? toGroup(doc) : undefined;
    },
    async unannounced(limit) {
      const docs = await unansweredGroups
        .find({ webhookPending: true })
        .sort({ firstAskedAt: 1, _id: 1 })
        .limit(limit)
        .lean<UnansweredGroupDoc[]>();
      return docs.map((doc) => ({ group: toGroup(doc), opening: doc.opening }));
    },
    async markAnnounced(id) {
      await unansweredGroups.updateOne({ _id: id }, { $set: { webhookPending: false } });
    },
  };
}
