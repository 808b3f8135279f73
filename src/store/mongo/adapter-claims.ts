import type { AdapterClaimRepository } from '../port.js';
import type { MongoModels } from './models.js';
import { isDuplicateKey } from './unique.js';

/**
 * Takes the hold `id` until `expiresAt`, unless another still holds it; answers whether it did.
 * It matches only an expired hold (taken over) or nothing (inserted); a live hold makes the upsert
 * collide with it on _id, and that collision is the answer "held by another".
 */
export async function takeHold(models: MongoModels, id: string, now: Date, expiresAt: Date): Promise<boolean> {
  try {
    await models.adapterClaims.updateOne(
      { _id: id, expiresAt: { $lte: now } },
      { $set: { expiresAt } },
      { upsert: true },
    );
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

export function mongoAdapterClaims(models: MongoModels): AdapterClaimRepository {
  const { adapterClaims } = models;
  const id = (accountId: string, key: string) => `${accountId}\u0000${key}`;

  return {
    claim: (accountId, key, now, expiresAt) => takeHold(models, id(accountId, key), now, expiresAt),
    async held(accountId, key, now) {
      return (await adapterClaims.exists({ _id: id(accountId, key), expiresAt: { $gt: now } })) !== null;
    },
  };
}
