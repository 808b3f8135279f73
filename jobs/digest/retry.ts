// Retrying a platform call with backoff. The sleep is injected, so tests never wait.

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export type RetryPolicy = {
  /** Tries in all, the first included. */
  attempts: number;
  /** The wait after failed try `n` (1-based), before try n + 1. */
  backoffMs: (attempt: number) => number;
  sleep: Sleep;
};

/** 3 tries, 2 s then 8 s apart. */
export const DEFAULT_RETRY: Omit<RetryPolicy, 'sleep'> = {
  attempts: 3,
  backoffMs: (attempt) => 2_000 * 4 ** (attempt - 1),
};

/** A platform's Retry-After is honoured up to this; longer waits would outlast the run's lease. */
const MAX_RETRY_AFTER_MS = 60_000;

/** How a platform's failure should be treated. */
export type FailureKind = {
  /** Trying again cannot help (bad token, unknown channel): give up at once. */
  permanent: boolean;
  /** The platform asked to wait this long (a rate limit). */
  retryAfterMs?: number;
};

/** A client error other than a timeout or a rate limit: the same request would fail again. */
export const isPermanentStatus = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

export class RetriesExhausted extends Error {
  constructor(
    readonly attempts: number,
    cause: unknown,
  ) {
    super(reasonOf(cause), { cause });
    this.name = 'RetriesExhausted';
  }
}

/** A failure's message, for the run record and the log. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Calls `attempt` until it succeeds, at most `policy.attempts` times, waiting the backoff (or the
 * platform's Retry-After, if longer) between tries. Answers the value and the tries it took.
 * @throws RetriesExhausted with the last failure and the tries made.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  classify: (error: unknown) => FailureKind,
): Promise<{ value: T; attempts: number }> {
  for (let tries = 1; ; tries += 1) {
    try {
      return { value: await attempt(), attempts: tries };
    } catch (error) {
      const kind = classify(error);
      if (kind.permanent || tries >= policy.attempts) throw new RetriesExhausted(tries, error);
      const wait = Math.max(policy.backoffMs(tries), Math.min(kind.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
      await policy.sleep(wait);
    }
  }
}
