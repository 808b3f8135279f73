import type { RateLimitRepository } from '../port.js';
import type { MongoModels, RateLimitDoc } from './models.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

export function mongoRateLimits(models: MongoModels): RateLimitRepository {
  const { rateLimits } = models;

  return {
    async hit(key, windowStart, windowMs) {
      const id = windowId(key, windowStart);
      const expiresAt = new Date(windowStart.getTime() + windowMs);
      // Two first hits of a window can both try to insert; the loser increments the winner's.
      const doc = await retryOnceOnDuplicateKey(() =>
        rateLimits
          .findOneAndUpdate(
            { _id: id },
            { $inc: { count: 1 }, $setOnInsert: { expiresAt } },
            { upsert: true, returnDocument: 'after' },
          )
          .lean<RateLimitDoc>(),
      );
      return doc?.count ?? 1;
    },
    async count(key, windowStart) {
      return (await rateLimits.findById(windowId(key, windowStart)).lean<RateLimitDoc>())?.count ?? 0;
    },
  };
}

const windowId = (key: string, windowStart: Date) => `${key}@${windowStart.getTime()}`;
