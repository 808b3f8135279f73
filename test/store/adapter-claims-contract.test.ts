import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account, Store } from '../../src/store/port.js';
import { seedAccount } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Adapter claims: a key is held by one claimer until it expires, per account, on every adapter.
// Beside them, what the Discord adapter records of where its /chatbot may be registered: one
// record per account and application, replaced whole, gone with the account.

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe.each(storeTargets.filter((target) => target.available))('$name store: adapter claims', (target) => {
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

  it('gives a key to its first claimer only, until it expires', async () => {
    const claims = store.adapterClaims;
    expect(await claims.held(owner.id, 'discord:message:1', NOW)).toBe(false);
    expect(await claims.claim(owner.id, 'discord:message:1', NOW, at(60_000))).toBe(true);
    expect(await claims.claim(owner.id, 'discord:message:1', at(1_000), at(61_000))).toBe(false);
    expect(await claims.held(owner.id, 'discord:message:1', at(59_999))).toBe(true);
    expect(await claims.held(owner.id, 'discord:message:1', at(60_000))).toBe(false);
    // Expired: the next claimer takes it over, and holds it for its own time.
    expect(await claims.claim(owner.id, 'discord:message:1', at(60_000), at(120_000))).toBe(true);
    expect(await claims.held(owner.id, 'discord:message:1', at(100_000))).toBe(true);
  });

  it('keeps the keys of one account apart from another', async () => {
    expect(await store.adapterClaims.claim(owner.id, 'slack:thread:T1:C1:1.0', NOW, at(60_000))).toBe(true);
    expect(await store.adapterClaims.held(other.id, 'slack:thread:T1:C1:1.0', NOW)).toBe(false);
    expect(await store.adapterClaims.claim(other.id, 'slack:thread:T1:C1:1.0', NOW, at(60_000))).toBe(true);
  });

  it('lets exactly one of many racing claimers win', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.adapterClaims.claim(owner.id, 'discord:message:2', NOW, at(60_000))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('keeps the servers last recorded for a Discord application, per account, until the account is deleted', async () => {
    const servers = store.commandServers;
    expect(await servers.find(owner.id, '10')).toBeUndefined();
    await servers.save(owner.id, '10', ['1', '2'], NOW);
    await servers.save(owner.id, '20', ['3'], NOW);
    await servers.save(other.id, '10', [], NOW);
    await servers.save(owner.id, '10', ['2', '4'], NOW);
    expect(await servers.find(owner.id, '10')).toEqual(['2', '4']);
    expect(await servers.find(owner.id, '20')).toEqual(['3']);
    expect(await servers.find(other.id, '10')).toEqual([]);

    await store.accounts.delete(owner.id);
    expect(await servers.find(owner.id, '10')).toBeUndefined();
    expect(await servers.find(owner.id, '20')).toBeUndefined();
    expect(await servers.find(other.id, '10')).toEqual([]);
  });
});
