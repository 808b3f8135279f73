// Failed attempts per client (the console's sign-ins, per IP), counted in this process's memory:
// a fixed window opens at a client's first failure, and a client with `limit` failures in its
// window is refused until the window ends. At most `maxClients` are remembered; past that the
// oldest window is forgotten first, so guessing from many addresses costs memory nobody else pays.

export type FailedAttemptsOptions = { limit: number; windowMs: number; maxClients: number; now?: () => number };

export type FailedAttempts = {
  /** Milliseconds until the client may try again, or 0 when it may now. */
  waitMs(client: string): number;
  /** Counts a failure of the client's. */
  fail(client: string): void;
};

export function failedAttempts({ limit, windowMs, maxClients, now = () => Date.now() }: FailedAttemptsOptions): FailedAttempts {
  // Insertion order is window order: a new window is set after deleting its client's old one.
  const windows = new Map<string, { start: number; failures: number }>();
  const current = (client: string, at: number) => {
    const window = windows.get(client);
    return window && at - window.start < windowMs ? window : undefined;
  };
  return {
    waitMs(client) {
      const at = now();
      const window = current(client, at);
      return window && window.failures >= limit ? window.start + windowMs - at : 0;
    },
    fail(client) {
      const at = now();
      const window = current(client, at);
      if (window) {
        window.failures += 1;
        return;
      }
      windows.delete(client);
      if (windows.size >= maxClients) {
        const [oldest] = windows.keys();
        if (oldest !== undefined) windows.delete(oldest);
      }
      windows.set(client, { start: at, failures: 1 });
    },
  };
}
