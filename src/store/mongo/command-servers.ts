import type { CommandServerRepository } from '../port.js';
import type { CommandServersDoc, MongoModels } from './models.js';

export function mongoCommandServers(models: MongoModels): CommandServerRepository {
  const { commandServers } = models;
  const id = (accountId: string, applicationId: string) => `${accountId}\u0000${applicationId}`;

  return {
    async find(accountId, applicationId) {
      const doc = await commandServers.findById(id(accountId, applicationId)).lean<CommandServersDoc>();
      return doc?.serverIds;
    },
    async save(accountId, applicationId, serverIds, at) {
      await commandServers.updateOne({ _id: id(accountId, applicationId) }, { $set: { serverIds, updatedAt: at } }, { upsert: true });
    },
  };
}
