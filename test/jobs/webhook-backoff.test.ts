import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../jobs/webhooks/backoff.js';

// The wait before a webhook event is tried again: doubling from the base up to the cap, of which
// a random half to all is taken.

const backoff = { baseMs: 30_000, maxMs: 3_600_000 };

describe('retryDelay', () => {
  it('doubles with each failed attempt, from half to all of the ceiling', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, backoff, () => 1))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, backoff, () => 0))).toEqual([15_000, 30_000, 60_000, 120_000]);
  });

  it('never waits longer than the cap, however many attempts failed', () => {
    expect(retryDelay(8, backoff, () => 1)).toBe(3_600_000);
    expect(retryDelay(500, backoff, () => 1)).toBe(3_600_000);
    expect(retryDelay(500, backoff, () => 0)).toBe(1_800_000);
  });
});
