import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDefaultAccount } from '../../src/domain/accounts.js';
import { apiKeyRecord, hashApiKey, revokeApiKey } from '../../src/domain/api-keys.js';
import type { Account, Store } from '../../src/store/port.js';
import { storeTargets, type SharedDatabase } from '../support/stores.js';

// BOOTSTRAP_API_KEY at start: provisioned once, and once revoked never back while it stays set.

const QUOTA = { messagesPerMonth: 100, maxChatbots: 10 };
const BOOTSTRAP = 'sb_bootstrap_key_for_tests_revoked_000';
const NEXT = 'sb_bootstrap_key_for_tests_revoked_001';

describe.each(storeTargets.filter((target) => target.available))('$name store: BOOTSTRAP_API_KEY', (target) => {
  let database: SharedDatabase;
  let store: Store;
  beforeEach(async () => {
    database = target.shared();
    store = await database.open();
  });
  afterEach(async () => {
    await store.close();
    database.remove();
  });

  const holder = (apiKey: string) => store.accounts.findByKeyHash(hashApiKey(apiKey));
  const keyOf = async (account: Account, apiKey: string) =>
    (await store.accounts.listKeys(account.id)).find((key) => key.hash === hashApiKey(apiKey));
  /** Revoked as through the API, by a caller holding another key of the account. */
  async function revoke(apiKey: string) {
    const account = (await holder(apiKey)) as Account;
    await revokeApiKey(store, account, (await keyOf(account, apiKey))?.id ?? '', 'another key');
  }

  it('gives the account `default` a key never provisioned, printing none', async () => {
    expect(await ensureDefaultAccount(store, QUOTA, BOOTSTRAP)).toEqual({});
    expect((await holder(BOOTSTRAP))?.name).toBe('default');
  });

  it('does not add back a key revoked since, and says so', async () => {
    await ensureDefaultAccount(store, QUOTA, BOOTSTRAP);
    await store.accounts.addKey(apiKeyRecord(NEXT, ((await holder(BOOTSTRAP)) as Account).id));
    await revoke(BOOTSTRAP);

    expect(await ensureDefaultAccount(store, QUOTA, BOOTSTRAP)).toEqual({ bootstrapKeyRevoked: true });
    expect(await holder(BOOTSTRAP)).toBeUndefined();
  });

  it('does not add back a key whose account was deleted, nor make the account again', async () => {
    await ensureDefaultAccount(store, QUOTA, BOOTSTRAP);
    await store.accounts.delete(((await holder(BOOTSTRAP)) as Account).id);

    expect(await ensureDefaultAccount(store, QUOTA, BOOTSTRAP)).toEqual({ bootstrapKeyRevoked: true });
    expect(await store.accounts.count()).toBe(0);
  });

  it('provisions a changed value, the revoked key staying gone', async () => {
    await ensureDefaultAccount(store, QUOTA, BOOTSTRAP);
    await ensureDefaultAccount(store, QUOTA, NEXT);
    await revoke(BOOTSTRAP);

    expect(await ensureDefaultAccount(store, QUOTA, NEXT)).toEqual({});
    expect((await holder(NEXT))?.name).toBe('default');
    expect(await holder(BOOTSTRAP)).toBeUndefined();
  });

  it('keeps to itself a key the account held before starts recorded what they provisioned', async () => {
    const account = { id: 'held-before', name: 'default', quota: QUOTA, createdAt: new Date() };
    await store.accounts.create(account);
    await store.accounts.addKey(apiKeyRecord(BOOTSTRAP, account.id));
    await store.accounts.addKey(apiKeyRecord(NEXT, account.id));
    expect(await ensureDefaultAccount(store, QUOTA, BOOTSTRAP)).toEqual({});
    await revoke(BOOTSTRAP);

    expect(await ensureDefaultAccount(store, QUOTA, BOOTSTRAP)).toEqual({ bootstrapKeyRevoked: true });
    expect(await holder(BOOTSTRAP)).toBeUndefined();
  });

  it('is provisioned once by hubs starting at once on one database, none taking it for revoked', async () => {
    const others = await Promise.all([database.open(), database.open(), database.open()]);
    try {
      const starts = await Promise.all([store, ...others].map((hub) => ensureDefaultAccount(hub, QUOTA, BOOTSTRAP)));
      expect(starts).toEqual([{}, {}, {}, {}]);
      const accounts = await store.accounts.list();
      expect(accounts.map((account) => account.name)).toEqual(['default']);
      expect(await store.accounts.listKeys(accounts[0]?.id ?? '')).toHaveLength(1);
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });
});
