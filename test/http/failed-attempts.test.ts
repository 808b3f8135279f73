import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedAttempts } from '../../src/http/failed-attempts.js';
import type { Store } from '../../src/store/port.js';
import { storeTargets, type SharedDatabase } from '../support/stores.js';

// The count behind the console's sign-in limit, kept in the store: two hub processes on one
// database count a client's failures together, per fixed window.

const WINDOW_MS = 60_000;
const options = { name: 'sign-in-test', limit: 3, windowMs: WINDOW_MS };
const windowStart = Date.parse('2026-06-01T12:00:00Z');

describe.each(storeTargets.filter((target) => target.available))('$name store: failed attempts', (target) => {
  let database: SharedDatabase;
  let stores: Store[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(stores.map((store) => store.close()));
    stores = [];
    database.remove();
  });

  it('makes a client wait out the window once the processes together count its limit', async () => {
    database = target.shared();
    stores = [await database.open(), await database.open()];
    const [one, other] = stores.map((store) => failedAttempts(store, options)) as [ReturnType<typeof failedAttempts>, ReturnType<typeof failedAttempts>];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(windowStart + 1_000);
    await one.fail('203.0.113.7');
    await other.fail('203.0.113.7');
    expect(await one.waitMs('203.0.113.7')).toBe(0);
    vi.setSystemTime(windowStart + 20_000);
    await one.fail('203.0.113.7');
    expect(await other.waitMs('203.0.113.7')).toBe(40_000);
    expect(await one.waitMs('203.0.113.7')).toBe(40_000);
    expect(await other.waitMs('203.0.113.8')).toBe(0);
    // A new window counts afresh.
    vi.setSystemTime(windowStart + WINDOW_MS);
    expect(await other.waitMs('203.0.113.7')).toBe(0);
    await other.fail('203.0.113.7');
    expect(await one.waitMs('203.0.113.7')).toBe(0);
  });
});
