import type { Store } from '../store/port.js';

// Failed attempts per client (the console's sign-ins, per IP), counted in the store's rate-limit
// windows, so every hub process on one database counts them together and a restart forgets
// none: a client with `limit` failures in a fixed window of `windowMs` is refused until it ends.

export type FailedAttemptsOptions = { name: string; limit: number; windowMs: number };

export type FailedAttempts = {
  /** Milliseconds until the client may try again, or 0 when it may now. */
  waitMs(client: string): Promise<number>;
  /** Counts a failure of the client's. */
  fail(client: string): Promise<void>;
};

export function failedAttempts(store: Store, { name, limit, windowMs }: FailedAttemptsOptions): FailedAttempts {
  const keyOf = (client: string) => `${name}:${client}`;
  const windowAt = (at: number) => new Date(at - (at % windowMs));
  return {
    async waitMs(client) {
      const at = Date.now();
      const window = windowAt(at);
      const failures = await store.rateLimits.count(keyOf(client), window);
      return failures >= limit ? window.getTime() + windowMs - at : 0;
    },
    async fail(client) {
      await store.rateLimits.hit(keyOf(client), windowAt(Date.now()), windowMs);
    },
  };
}
