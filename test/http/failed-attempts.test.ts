import { describe, expect, it } from 'vitest';
import { failedAttempts } from '../../src/http/failed-attempts.js';

// The in-memory count behind the console's sign-in limit: a window per client from its first
// failure, and never more than maxClients remembered.

describe('failed attempts', () => {
  let clock = 0;
  const attempts = (maxClients = 100) => failedAttempts({ limit: 3, windowMs: 1_000, maxClients, now: () => clock });

  it('makes a client wait out its window once it reaches the limit', () => {
    clock = 0;
    const counted = attempts();
    counted.fail('a');
    counted.fail('a');
    expect(counted.waitMs('a')).toBe(0);
    clock = 400;
    counted.fail('a');
    expect(counted.waitMs('a')).toBe(600);
    expect(counted.waitMs('b')).toBe(0);
    clock = 1_000;
    expect(counted.waitMs('a')).toBe(0);
    // A new window starts at the next failure.
    counted.fail('a');
    expect(counted.waitMs('a')).toBe(0);
  });

  it('remembers at most maxClients, forgetting the oldest window first', () => {
    clock = 0;
    const counted = attempts(2);
    for (const client of ['a', 'b']) for (let failure = 0; failure < 3; failure += 1) counted.fail(client);
    expect([counted.waitMs('a'), counted.waitMs('b')]).toEqual([1_000, 1_000]);
    counted.fail('c');
    expect([counted.waitMs('a'), counted.waitMs('b')]).toEqual([0, 1_000]);
    // A window renewed after it ended counts as the newest.
    clock = 1_000;
    for (let failure = 0; failure < 3; failure += 1) counted.fail('b');
    counted.fail('d');
    expect([counted.waitMs('b'), counted.waitMs('c')]).toEqual([1_000, 0]);
  });
});
