import type { Database } from 'better-sqlite3';
import type { ConsoleSession, ConsoleSessionRepository } from '../port.js';
import { translateUnique } from './unique.js';

const PRUNE_EVERY_MS = 60_000;

type SessionRow = {
  token_hash: string;
  account_id: string;
  api_key_hash: string | null;
  created_at: number;
  last_used_at: number;
  expires_at: number;
};

const toSession = (row: SessionRow): ConsoleSession => ({
  tokenHash: row.token_hash,
  accountId: row.account_id,
  apiKeyHash: row.api_key_hash,
  createdAt: new Date(row.created_at),
  lastUsedAt: new Date(row.last_used_at),
  expiresAt: new Date(row.expires_at),
});

export function sqliteConsoleSessions(db: Database): ConsoleSessionRepository {
  const insert = db.prepare(
    `INSERT INTO console_sessions (token_hash, account_id, api_key_hash, created_at, last_used_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const live = db.prepare<[string, number], SessionRow>(
    'SELECT * FROM console_sessions WHERE token_hash = ? AND expires_at > ?',
  );
  const touch = db.prepare(
    `UPDATE console_sessions SET last_used_at = MAX(last_used_at, ?), expires_at = MAX(expires_at, ?)
     WHERE token_hash = ?`,
  );
  const end = db.prepare('DELETE FROM console_sessions WHERE token_hash = ?');
  const endSignedInWith = db.prepare('DELETE FROM console_sessions WHERE api_key_hash = ?');
  const insertLink = db.prepare('INSERT INTO console_links (token_hash, account_id, expires_at) VALUES (?, ?, ?)');
  const takeLink = db.prepare<[string, number], { account_id: string }>(
    'DELETE FROM console_links WHERE token_hash = ? AND expires_at > ? RETURNING account_id',
  );
  const pruneSessions = db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?');
  const pruneLinks = db.prepare('DELETE FROM console_links WHERE expires_at <= ?');
  let prunedAt = 0;
  // Expired rows are never read; they are removed now and then, when new ones arrive.
  const prune = (now: number) => {
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    pruneSessions.run(now);
    pruneLinks.run(now);
    prunedAt = now;
  };

  return {
    async create(session) {
      const { tokenHash, accountId, apiKeyHash, createdAt, lastUsedAt, expiresAt } = session;
      prune(createdAt.getTime());
      translateUnique(() =>
        insert.run(tokenHash, accountId, apiKeyHash, createdAt.getTime(), lastUsedAt.getTime(), expiresAt.getTime()),
      );
    },
    async find(tokenHash, now) {
      const row = live.get(tokenHash, now.getTime());
      return row && toSession(row);
    },
    async touch(tokenHash, lastUsedAt, expiresAt) {
      touch.run(lastUsedAt.getTime(), expiresAt.getTime(), tokenHash);
    },
    async end(tokenHash) {
      end.run(tokenHash);
    },
    async endSignedInWith(apiKeyHash) {
      endSignedInWith.run(apiKeyHash);
    },
    async addLink({ tokenHash, accountId, expiresAt }) {
      prune(Date.now());
      translateUnique(() => insertLink.run(tokenHash, accountId, expiresAt.getTime()));
    },
    async takeLink(tokenHash, now) {
      return takeLink.get(tokenHash, now.getTime())?.account_id;
    },
  };
}
