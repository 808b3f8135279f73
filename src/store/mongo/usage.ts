import type { UsageRepository } from '../port.js';
import type { MongoModels, UsageDoc } from './models.js';
import { isDuplicateKey } from './unique.js';

export function mongoUsage(models: MongoModels): UsageRepository {
  const { usage } = models;
  const idOf = (accountId: string, period: string) => `${accountId}:${period}`;

  return {
    // A conditional upsert: a period's first message inserts the document; later ones match only
    // below the limit. When the filter misses, the upsert collides with the existing document on
    // _id: either the limit is reached, or another first message inserted it a moment ago, which
    // the plain conditional increment that follows tells apart.
    async reserveMessage(accountId, period, limit) {
      if (limit <= 0) return false;
      const filter = { _id: idOf(accountId, period), accountId, messages: { $lt: limit } };
      try {
        await usage.updateOne(filter, { $inc: { messages: 1 }, $setOnInsert: { period } }, { upsert: true });
        return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const { matchedCount } = await usage.updateOne(filter, { $inc: { messages: 1 } });
        return matchedCount > 0;
      }
    },
    async releaseMessage(accountId, period) {
      await usage.updateOne({ _id: idOf(accountId, period), accountId, messages: { $gt: 0 } }, { $inc: { messages: -1 } });
    },
    async messagesUsed(accountId, period) {
      const doc = await usage.findOne({ _id: idOf(accountId, period), accountId }, { messages: 1 }).lean<UsageDoc>();
      return doc?.messages ?? 0;
    },
  };
}
