// When a failed delivery is tried again: exponential backoff with jitter, so receivers coming back
// from an outage are not hit by every hub at once.

export type Backoff = {
  /** The wait after the first failure. */
  baseMs: number;
  /** The longest wait between two attempts. */
  maxMs: number;
};

export const DEFAULT_BACKOFF: Backoff = { baseMs: 30_000, maxMs: 60 * 60_000 };

/** The wait after `attempts` failed attempts: base·2^(attempts-1), capped, then a random half to all of it. */
export function retryDelay(attempts: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(ceiling * (0.5 + random() / 2));
}
