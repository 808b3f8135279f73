import type { Database } from 'better-sqlite3';
import type { AdapterClaimRepository } from '../port.js';

const PRUNE_EVERY_MS = 60_000;

export function sqliteAdapterClaims(db: Database): AdapterClaimRepository {
  // One statement: an insert, or the takeover of an expired hold; a live hold changes no row.
  const claim = db.prepare<[string, string, number, number]>(
    `INSERT INTO adapter_claims (account_id, key, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (account_id, key) DO UPDATE SET expires_at = excluded.expires_at
     WHERE adapter_claims.expires_at <= ?`,
  );
  const held = db.prepare<[string, string, number], { one: number }>(
    'SELECT 1 AS one FROM adapter_claims WHERE account_id = ? AND key = ? AND expires_at > ?',
  );
  const prune = db.prepare('DELETE FROM adapter_claims WHERE expires_at <= ?');
  let prunedAt = 0;

  return {
    async claim(accountId, key, now, expiresAt) {
      if (now.getTime() - prunedAt > PRUNE_EVERY_MS) {
        prune.run(now.getTime());
        prunedAt = now.getTime();
      }
      return claim.run(accountId, key, expiresAt.getTime(), now.getTime()).changes === 1;
    },
    async held(accountId, key, now) {
      return held.get(accountId, key, now.getTime()) !== undefined;
    },
  };
}
