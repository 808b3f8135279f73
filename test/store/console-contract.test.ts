import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import mongoose from 'mongoose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Account, ApiKeyRecord, ConsoleSession, Store } from '../../src/store/port.js';
import { sqliteAccounts } from '../../src/store/sqlite/accounts.js';
import { migrate, MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { seedAccount } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// API keys by id and label, console sessions and one-time links: the same behaviour on every adapter.

const NOW = new Date('2026-11-25T18:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

let counter = 0;
function key(accountId: string, createdAt = NOW): ApiKeyRecord {
  counter += 1;
  return { hash: randomUUID().replace(/-/g, ''), id: `key-${counter}`, accountId, label: `Key ${counter}`, prefix: 'sb_AbC1', createdAt };
}

function session(accountId: string, apiKeyHash: string | null, expiresAt = at(60_000)): ConsoleSession {
  return { tokenHash: randomUUID(), accountId, apiKeyHash, createdAt: NOW, lastUsedAt: NOW, expiresAt };
}

describe.each(storeTargets.filter((target) => target.available))('$name store: console', (target) => {
  let store: Store;
  let owner: Account;
  let other: Account;

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    other = await seedAccount(store);
  });
  afterEach(async () => {
    await store.close();
  });

  describe('API keys', () => {
    it('lists an account’s keys oldest first, and only its own', async () => {
      const second = key(owner.id, at(1));
      const first = key(owner.id);
      await store.accounts.addKey(second);
      await store.accounts.addKey(first);
      await store.accounts.addKey(key(other.id));
      expect(await store.accounts.listKeys(owner.id)).toEqual([first, second]);
      expect(await store.accounts.listKeys('nobody')).toEqual([]);
    });

    it('revokes a key of the account only, answering it', async () => {
      const [mine, spare, theirs] = [key(owner.id), key(owner.id), key(other.id)];
      for (const record of [mine, spare, theirs]) await store.accounts.addKey(record);
      expect(await store.accounts.revokeKey(owner.id, theirs.id, true)).toBeUndefined();
      expect(await store.accounts.revokeKey(owner.id, mine.id, true)).toEqual(mine);
      expect(await store.accounts.findByKeyHash(mine.hash)).toBeUndefined();
      expect(await store.accounts.revokeKey(owner.id, mine.id, true)).toBeUndefined();
      expect(await store.accounts.listKeys(owner.id)).toEqual([spare]);
      expect(await store.accounts.findByKeyHash(theirs.hash)).toEqual(other);
    });

    it('keeps the last key when asked to, and revokes it when not', async () => {
      const only = key(owner.id);
      await store.accounts.addKey(only);
      expect(await store.accounts.revokeKey(owner.id, only.id, true)).toBe('last');
      expect(await store.accounts.findByKeyHash(only.hash)).toEqual(owner);
      expect(await store.accounts.revokeKey(owner.id, only.id, false)).toEqual(only);
      expect(await store.accounts.listKeys(owner.id)).toEqual([]);
    });

    it('never leaves an account keyless when revocations of its last keys race', async () => {
      const keys = [key(owner.id), key(owner.id), key(owner.id)];
      for (const record of keys) await store.accounts.addKey(record);
      const results = await Promise.all(keys.map((record) => store.accounts.revokeKey(owner.id, record.id, true)));
      const left = await store.accounts.listKeys(owner.id);
      expect(left.length).toBeGreaterThanOrEqual(1);
      expect(results.filter((result) => result === 'last').length).toBe(left.length);
    });
  });

  describe('sessions', () => {
    it('finds a session by its token’s hash until it expires', async () => {
      const live = session(owner.id, 'a'.repeat(64));
      await store.consoleSessions.create(live);
      expect(await store.consoleSessions.find(live.tokenHash, at(59_999))).toEqual(live);
      expect(await store.consoleSessions.find(live.tokenHash, at(60_000))).toBeUndefined();
      expect(await store.consoleSessions.find('unknown', NOW)).toBeUndefined();
    });

    it('moves the last use and expiry forward, never back', async () => {
      const live = session(owner.id, null);
      await store.consoleSessions.create(live);
      await store.consoleSessions.touch(live.tokenHash, at(30_000), at(90_000));
      await store.consoleSessions.touch(live.tokenHash, at(10_000), at(70_000));
      expect(await store.consoleSessions.find(live.tokenHash, at(80_000))).toEqual({
        ...live,
        lastUsedAt: at(30_000),
        expiresAt: at(90_000),
      });
    });

    it('ends one session, or every session signed in with a key', async () => {
      const [first, second, third, linked] = [
        session(owner.id, 'a'.repeat(64)),
        session(owner.id, 'a'.repeat(64)),
        session(owner.id, 'b'.repeat(64)),
        session(owner.id, null),
      ];
      for (const each of [first, second, third, linked]) await store.consoleSessions.create(each);
      await store.consoleSessions.end(third.tokenHash);
      expect(await store.consoleSessions.find(third.tokenHash, NOW)).toBeUndefined();
      await store.consoleSessions.endSignedInWith('a'.repeat(64));
      expect(await store.consoleSessions.find(first.tokenHash, NOW)).toBeUndefined();
      expect(await store.consoleSessions.find(second.tokenHash, NOW)).toBeUndefined();
      expect(await store.consoleSessions.find(linked.tokenHash, NOW)).toEqual(linked);
    });
  });

  describe('one-time links', () => {
    it('gives a link’s account once, and never after it expires', async () => {
      await store.consoleSessions.addLink({ tokenHash: 'link-1', accountId: owner.id, expiresAt: at(60_000) });
      await store.consoleSessions.addLink({ tokenHash: 'link-2', accountId: other.id, expiresAt: at(60_000) });
      expect(await store.consoleSessions.takeLink('link-1', at(59_999))).toBe(owner.id);
      expect(await store.consoleSessions.takeLink('link-1', at(59_999))).toBeUndefined();
      expect(await store.consoleSessions.takeLink('link-2', at(60_000))).toBeUndefined();
      expect(await store.consoleSessions.takeLink('unknown', NOW)).toBeUndefined();
    });

    it('gives a link to exactly one of many racing takers', async () => {
      await store.consoleSessions.addLink({ tokenHash: 'link-3', accountId: owner.id, expiresAt: at(60_000) });
      const taken = await Promise.all(Array.from({ length: 10 }, () => store.consoleSessions.takeLink('link-3', NOW)));
      expect(taken.filter((accountId) => accountId === owner.id)).toHaveLength(1);
    });
  });
});

describe('keys stored before keys had ids', () => {
  it('get an id, the label Default and an unknown prefix on SQLite', async () => {
    const db = new Database(':memory:');
    const migration = MIGRATIONS.findIndex((sql) => sql.includes('console_sessions'));
    for (const sql of MIGRATIONS.slice(0, migration)) db.exec(sql);
    db.pragma(`user_version = ${migration}`);
    db.prepare("INSERT INTO accounts VALUES ('acct', 'old', 10, 1, 5)").run();
    for (const [hash, createdAt] of [['h1', 7], ['h2', 8]] as const) {
      db.prepare("INSERT INTO api_keys VALUES (?, 'acct', ?)").run(hash, createdAt);
    }

    migrate(db);

    const keys = await sqliteAccounts(db).listKeys('acct');
    expect(keys.map(({ hash, label, prefix }) => ({ hash, label, prefix }))).toEqual([
      { hash: 'h1', label: 'Default', prefix: null },
      { hash: 'h2', label: 'Default', prefix: null },
    ]);
    expect(new Set(keys.map((record) => record.id)).size).toBe(2);
    db.close();
  });

  const mongoUri = inject('mongoUri');
  it.skipIf(mongoUri === undefined)('get an id, the label Default and an unknown prefix on MongoDB', async () => {
    const url = new URL(mongoUri ?? '');
    url.pathname = `/switchboard_keys_${randomUUID().slice(0, 8)}`;
    const connection = await mongoose.createConnection(url.toString()).asPromise();
    await connection.collection('apiKeys').insertMany([
      { _id: 'h1' as never, accountId: 'acct', createdAt: new Date(7) },
      { _id: 'h2' as never, accountId: 'acct', createdAt: new Date(8) },
    ]);
    await connection.close();

    const store = await openStore(url.toString());
    try {
      const keys = await store.accounts.listKeys('acct');
      expect(keys.map(({ hash, label, prefix }) => ({ hash, label, prefix }))).toEqual([
        { hash: 'h1', label: 'Default', prefix: null },
        { hash: 'h2', label: 'Default', prefix: null },
      ]);
      expect(new Set(keys.map((record) => record.id)).size).toBe(2);
      expect(await store.accounts.revokeKey('acct', keys[0]?.id ?? '', true)).toMatchObject({ hash: 'h1' });
    } finally {
      await store.close();
    }
  });
});
