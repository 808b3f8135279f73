import type { Database } from 'better-sqlite3';
import type { RateLimitRepository } from '../port.js';

const PRUNE_EVERY_MS = 60_000;

export function sqliteRateLimits(db: Database): RateLimitRepository {
  // One statement: the increment and the read cannot interleave with another writer.
  const hit = db.prepare<[string, number, number], { count: number }>(
    `INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES (?, ?, 1, ?)
     ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
     RETURNING count`,
  );
  const count = db.prepare<[string, number], { count: number }>('SELECT count FROM rate_limits WHERE key = ? AND window_start = ?');
  const prune = db.prepare('DELETE FROM rate_limits WHERE expires_at < ?');
  let prunedAt = 0;

  return {
    async hit(key, windowStart, windowMs) {
      const now = Date.now();
      if (now - prunedAt > PRUNE_EVERY_MS) {
        prune.run(now);
        prunedAt = now;
      }
      const start = windowStart.getTime();
      return hit.get(key, start, start + windowMs)?.count ?? 1;
    },
    async count(key, windowStart) {
      return count.get(key, windowStart.getTime())?.count ?? 0;
    },
  };
}
