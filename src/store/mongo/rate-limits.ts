import type { RateLimitRepository } from '../port.js';
import type { MongoModels, RateLimitDoc } from './models.js';
import { isDuplicateKey } from './unique.js';

export function mongoRateLimits(models: MongoModels): RateLimitRepository {
  const { rateLimits } = models;
  const increment = (id: string, expiresAt: Date) =>
    rateLimits
      .findOneAndUpdate(
        { _id: id },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt } },
        { upsert: true, returnDocument: 'after' },
      )
      .lean<RateLimitDoc>();

  return {
    async hit(key, windowStart, windowMs) {
      const id = `${key}@${windowStart.getTime()}`;
      const expiresAt = new Date(windowStart.getTime() + windowMs);
      try {
        return (await increment(id, expiresAt))?.count ?? 1;
      } catch (error) {
        // Two first hits of a window can both try to insert; the loser increments the winner's.
        if (!isDuplicateKey(error)) throw error;
        return (await increment(id, expiresAt))?.count ?? 1;
      }
    },
  };
}
