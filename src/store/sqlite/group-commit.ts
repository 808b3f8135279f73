import type { Database } from 'better-sqlite3';

// Group commit: the small writes that every chat makes (its quota, its hour's counters, a repeated
// unanswered question) are queued and committed together, once per turn of the event loop. A
// commit costs about as much as a bare Koa request; under load, requests answered in the same turn
// share one. Each write still resolves only once it is committed, and one that fails (in a
// savepoint of its own) fails alone.

export type GroupCommit = {
  /** Runs `write` in the next group commit; resolves with its result once that commit is done. */
  write<T>(write: () => T): Promise<T>;
  /** Commits what is queued now (before the database closes). */
  flush(): void;
};

type Queued = { write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };

export function groupCommit(db: Database): GroupCommit {
  let queue: Queued[] = [];
  const isolated = db.transaction((write: () => unknown) => write());
  const commit = db.transaction((batch: Queued[]) =>
    batch.map(({ write }) => {
      try {
        return { ok: true as const, value: isolated(write) };
      } catch (error) {
        return { ok: false as const, error };
      }
    }),
  );

  function flush(): void {
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    let outcomes;
    try {
      outcomes = commit.immediate(batch);
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const queued = batch[index] as Queued;
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(outcome.error);
    });
  }

  return {
    write: <T>(write: () => T) =>
      new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      }),
    flush,
  };
}
