// A write an adapter needs made but must not wait for, once it failed: tried again in the
// background, each wait twice the last up to a limit, until it succeeds or the adapter stops.

export type RetryDelays = {
  /** The wait after the first failure. */
  firstMs: number;
  /** The longest wait between two tries. */
  maxMs: number;
};

export const DEFAULT_RETRY_DELAYS: RetryDelays = { firstMs: 1_000, maxMs: 5 * 60_000 };

export type RetryOptions = {
  /** Aborts as the adapter stops: nothing is tried after. */
  signal: AbortSignal;
  delays: RetryDelays;
  /** Told of each failure, and how long until the next try. */
  onFailure(error: unknown, retryInMs: number): void;
};

/** Tries `write` again after the first delay, and so on; answers true once it succeeded, false once stopped. */
export function retryInBackground(write: () => Promise<unknown>, { signal, delays, onFailure }: RetryOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    const tryAfter = (waitMs: number) => {
      timer = setTimeout(() => {
        write().then(
          () => {
            signal.removeEventListener('abort', stop);
            resolve(true);
          },
          (error: unknown) => {
            if (signal.aborted) return;
            const nextMs = Math.min(waitMs * 2, delays.maxMs);
            onFailure(error, nextMs);
            tryAfter(nextMs);
          },
        );
      }, waitMs);
    };
    tryAfter(delays.firstMs);
  });
}
