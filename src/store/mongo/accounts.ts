import { nanoid } from 'nanoid';
import { patchEntries } from '../../settings/patch.js';
import type { Account, AccountRepository, ApiKeyRecord } from '../port.js';
import type { AccountDoc, ApiKeyDoc, MongoModels } from './models.js';
import { insertUnlessPresent, translateUnique } from './unique.js';

const toAccount = (doc: AccountDoc): Account => ({
  id: doc._id,
  name: doc.name,
  quota: { messagesPerMonth: doc.quota.messagesPerMonth, maxChatbots: doc.quota.maxChatbots },
  createdAt: doc.createdAt,
});

const toApiKey = (doc: ApiKeyDoc): ApiKeyRecord => ({
  hash: doc._id,
  id: doc.keyId,
  accountId: doc.accountId,
  label: doc.label,
  prefix: doc.prefix,
  createdAt: doc.createdAt,
});

const toApiKeyDoc = (key: ApiKeyRecord): ApiKeyDoc => ({
  _id: key.hash,
  keyId: key.id,
  accountId: key.accountId,
  label: key.label,
  prefix: key.prefix,
  createdAt: key.createdAt,
});

/**
 * Gives the keys stored before keys had ids an id, the label `Default` and an unknown prefix.
 * Each key is named once, whichever instance gets there first.
 */
export async function nameUnnamedKeys(models: MongoModels): Promise<void> {
  const unnamed = { keyId: { $exists: false } };
  for (const key of await models.apiKeys.find(unnamed, { _id: 1 }).lean<Pick<ApiKeyDoc, '_id'>[]>()) {
    await models.apiKeys.updateOne(
      { _id: key._id, ...unnamed },
      { $set: { keyId: nanoid(), label: 'Default', prefix: null } },
    );
  }
}

const find = (doc: AccountDoc | null) => (doc ? toAccount(doc) : undefined);

export function mongoAccounts(models: MongoModels): AccountRepository {
  const { accounts, apiKeys, provisionedKeys, consoleSessions, consoleLinks, usage, adapterClaims, commandServers, webhooks, webhookDeliveries, webhookAttempts } = models;
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
      await translateUnique('apiKeys', () => apiKeys.create(toApiKeyDoc(key)));
    },
    async listKeys(accountId) {
      const docs = await apiKeys.find({ accountId }).sort({ createdAt: 1, keyId: 1 }).lean<ApiKeyDoc[]>();
      return docs.map(toApiKey);
    },
    async revokeKey(accountId, id, keepLast) {
      const mine = { accountId, keyId: id };
      if (keepLast && (await apiKeys.countDocuments({ accountId })) <= 1) {
        return (await apiKeys.exists(mine)) ? 'last' : undefined;
      }
      const deleted = await apiKeys.findOneAndDelete(mine).lean<ApiKeyDoc>();
      if (!deleted) return undefined;
      // Without transactions: a racing revocation may have taken the other key meanwhile, so the
      // one to notice the account keyless puts its key back.
      if (keepLast && (await apiKeys.countDocuments({ accountId })) === 0) {
        await insertUnlessPresent(() => apiKeys.create(deleted));
        return 'last';
      }
      return toApiKey(deleted);
    },
    async recordProvisioned(hash) {
      await insertUnlessPresent(() => provisionedKeys.create({ _id: hash, provisionedAt: new Date() }));
    },
    async wasProvisioned(hash) {
      return (await provisionedKeys.exists({ _id: hash })) !== null;
    },
    async findByKeyHash(hash) {
      const key = await apiKeys.findById(hash).lean<ApiKeyDoc>();
      return key ? byId(key.accountId) : undefined;
    },
    // The account first: its keys and sessions find no account from then on, whatever remains.
    async delete(id) {
      const { deletedCount } = await accounts.deleteOne({ _id: id });
      const hooks = (await webhooks.find({ accountId: id }, { _id: 1 }).lean<{ _id: string }[]>()).map((doc) => doc._id);
      const owned = { accountId: id };
      // A claim's or command record's _id is the account's id, a NUL and its key: a range of _id (MongoDB refuses a NUL in a regex).
      const ownedIds = { _id: { $gte: `${id}\u0000`, $lt: `${id}\u0001` } };
      await Promise.all([
        apiKeys.deleteMany(owned),
        consoleSessions.deleteMany(owned),
        consoleLinks.deleteMany(owned),
        usage.deleteMany(owned),
        adapterClaims.deleteMany(ownedIds),
        commandServers.deleteMany(ownedIds),
        webhookAttempts.deleteMany({ webhookId: { $in: hooks } }),
        webhookDeliveries.deleteMany(owned),
        webhooks.deleteMany(owned),
      ]);
      return deletedCount > 0;
    },
  };
}
