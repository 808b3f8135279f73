import type { AdapterClaimRepository } from '../port.js';
import type { MongoModels } from './models.js';
import { isDuplicateKey } from './unique.js';

export function mongoAdapterClaims(models: MongoModels): AdapterClaimRepository {
  const { adapterClaims } = models;
  const id = (accountId: string, key: string) => `${accountId}\u0000${key}`;

  return {
    async claim(accountId, key, now, expiresAt) {
      // Matches only an expired hold (taken over) or nothing (inserted); a live hold makes the
      // upsert collide with it on _id, and that collision is the answer "held by another".
      try {
        await adapterClaims.updateOne(
          { _id: id(accountId, key), expiresAt: { $lte: now } },
          { $set: { expiresAt } },
          { upsert: true },
        );
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    },
    async held(accountId, key, now) {
      return (await adapterClaims.exists({ _id: id(accountId, key), expiresAt: { $gt: now } })) !== null;
    },
  };
}
