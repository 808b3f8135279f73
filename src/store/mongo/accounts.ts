import { patchEntries } from '../../settings/patch.js';
import type { Account, AccountRepository } from '../port.js';
import type { AccountDoc, ApiKeyDoc, MongoModels } from './models.js';
import { translateUnique } from './unique.js';

const toAccount = (doc: AccountDoc): Account => ({
  id: doc._id,
  name: doc.name,
  quota: { messagesPerMonth: doc.quota.messagesPerMonth, maxChatbots: doc.quota.maxChatbots },
  createdAt: doc.createdAt,
});

const find = (doc: AccountDoc | null) => (doc ? toAccount(doc) : undefined);

export function mongoAccounts(models: MongoModels): AccountRepository {
  const { accounts, apiKeys } = models;
  const byId = async (id: string) => find(await accounts.findById(id).lean<AccountDoc>());

  return {
    async create(account) {
      const { id, name, quota, createdAt } = account;
      await translateUnique('accounts', () =>
        accounts.create({ _id: id, name, quota, chatbotCount: 0, createdAt }),
      );
    },
    findById: byId,
    async findByName(name) {
      return find(await accounts.findOne({ name }).lean<AccountDoc>());
    },
    async list() {
      const docs = await accounts.find().sort({ createdAt: 1, name: 1 }).lean<AccountDoc[]>();
      return docs.map(toAccount);
    },
    async count() {
      return accounts.countDocuments();
    },
    async setQuota(id, quota) {
      // Only the given fields, so a concurrent change to the other one survives.
      const fields = Object.fromEntries(
        patchEntries(quota, ['quota']).map(({ path, value }) => [path.join('.'), value]),
      );
      if (Object.keys(fields).length === 0) return byId(id);
      return find(
        await accounts
          .findOneAndUpdate({ _id: id }, { $set: fields }, { returnDocument: 'after' })
          .lean<AccountDoc>(),
      );
    },
    async addKey(key) {
      await translateUnique('apiKeys', () =>
        apiKeys.create({ _id: key.hash, accountId: key.accountId, createdAt: key.createdAt }),
      );
    },
    async findByKeyHash(hash) {
      const key = await apiKeys.findById(hash).lean<ApiKeyDoc>();
      return key ? byId(key.accountId) : undefined;
    },
  };
}
