import type { Database } from 'better-sqlite3';
import type { Account, AccountRepository, ApiKeyRecord } from '../port.js';
import { translateUnique } from './unique.js';

type AccountRow = {
  id: string;
  name: string;
  messages_per_month: number;
  max_chatbots: number;
  created_at: number;
};

type ApiKeyRow = {
  hash: string;
  id: string;
  account_id: string;
  label: string;
  prefix: string | null;
  created_at: number;
};

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  hash: row.hash,
  id: row.id,
  accountId: row.account_id,
  label: row.label,
  prefix: row.prefix,
  createdAt: new Date(row.created_at),
});

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  quota: { messagesPerMonth: row.messages_per_month, maxChatbots: row.max_chatbots },
  createdAt: new Date(row.created_at),
});

export function sqliteAccounts(db: Database): AccountRepository {
  const insert = db.prepare(
    'INSERT INTO accounts (id, name, messages_per_month, max_chatbots, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byId = db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?');
  const byName = db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE name = ?');
  const all = db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY created_at, name');
  const total = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM accounts');
  const setQuota = db.prepare(
    `UPDATE accounts SET messages_per_month = COALESCE(?, messages_per_month),
       max_chatbots = COALESCE(?, max_chatbots) WHERE id = ?`,
  );
  const insertKey = db.prepare(
    'INSERT INTO api_keys (hash, id, account_id, label, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const keysOf = db.prepare<[string], ApiKeyRow>(
    'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
  );
  // One statement, so of two racing revocations of an account's last two keys one deletes nothing.
  const deleteKey = db.prepare<[string, string, number, string], ApiKeyRow>(
    `DELETE FROM api_keys WHERE id = ? AND account_id = ?
       AND (? = 0 OR (SELECT COUNT(*) FROM api_keys WHERE account_id = ?) > 1)
     RETURNING *`,
  );
  const keyById = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM api_keys WHERE id = ? AND account_id = ?',
  );
  const byKeyHash = db.prepare<[string], AccountRow>(
    'SELECT accounts.* FROM api_keys JOIN accounts ON accounts.id = api_keys.account_id WHERE api_keys.hash = ?',
  );
  const recordProvisioned = db.prepare<[string, number]>(
    'INSERT INTO provisioned_keys (hash, provisioned_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const provisioned = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM provisioned_keys WHERE hash = ?');
  // Every table of the account's references it with ON DELETE CASCADE, its chatbots' through them.
  const remove = db.prepare<[string]>('DELETE FROM accounts WHERE id = ?');
  const find = (row: AccountRow | undefined) => (row ? toAccount(row) : undefined);

  return {
    async create(account) {
      const { id, name, quota, createdAt } = account;
      translateUnique(() =>
        insert.run(id, name, quota.messagesPerMonth, quota.maxChatbots, createdAt.getTime()),
      );
    },
    async findById(id) {
      return find(byId.get(id));
    },
    async findByName(name) {
      return find(byName.get(name));
    },
    async list() {
      return all.all().map(toAccount);
    },
    async count() {
      return total.get()?.n ?? 0;
    },
    async setQuota(id, quota) {
      setQuota.run(quota.messagesPerMonth ?? null, quota.maxChatbots ?? null, id);
      return find(byId.get(id));
    },
    async addKey(key) {
      const { hash, id, accountId, label, prefix, createdAt } = key;
      translateUnique(() => insertKey.run(hash, id, accountId, label, prefix, createdAt.getTime()));
    },
    async findByKeyHash(hash) {
      return find(byKeyHash.get(hash));
    },
    async listKeys(accountId) {
      return keysOf.all(accountId).map(toApiKey);
    },
    async revokeKey(accountId, id, keepLast) {
      const deleted = deleteKey.get(id, accountId, keepLast ? 1 : 0, accountId);
      if (deleted) return toApiKey(deleted);
      return keyById.get(id, accountId) ? 'last' : undefined;
    },
    async recordProvisioned(hash) {
      recordProvisioned.run(hash, Date.now());
    },
    async wasProvisioned(hash) {
      return provisioned.get(hash) !== undefined;
    },
    async delete(id) {
      return remove.run(id).changes > 0;
    },
  };
}
