import type { Database } from 'better-sqlite3';
import type { UsageRepository } from '../port.js';
import type { GroupCommit } from './group-commit.js';

export function sqliteUsage(db: Database, batched: GroupCommit): UsageRepository {
  // The limit is checked by the same statement that counts, so racing requests cannot overdraw.
  const reserve = db.prepare(
    `INSERT INTO usage (account_id, period, messages) SELECT ?, ?, 1 WHERE ? > 0
     ON CONFLICT (account_id, period) DO UPDATE SET messages = messages + 1 WHERE messages < ?`,
  );
  const release = db.prepare(
    'UPDATE usage SET messages = messages - 1 WHERE account_id = ? AND period = ? AND messages > 0',
  );
  const used = db.prepare<[string, string], { messages: number }>(
    'SELECT messages FROM usage WHERE account_id = ? AND period = ?',
  );

  return {
    reserveMessage(accountId, period, limit) {
      return batched.write(() => reserve.run(accountId, period, limit, limit).changes > 0);
    },
    async releaseMessage(accountId, period) {
      await batched.write(() => release.run(accountId, period));
    },
    async messagesUsed(accountId, period) {
      return used.get(accountId, period)?.messages ?? 0;
    },
  };
}
