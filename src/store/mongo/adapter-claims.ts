import type { AdapterClaimRepository } from '../port.js';
import { takeHold } from './holds.js';
import type { MongoModels } from './models.js';

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
