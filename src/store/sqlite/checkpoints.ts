import type { Database } from 'better-sqlite3';
import { workerJobs } from '../../worker-thread.js';

// A checkpoint copies the write-ahead log into the database file and syncs it: 20–40 ms for each
// 4 MB written, which SQLite spends in whichever commit crosses its threshold, on the event loop.
// A thread of its own checkpoints instead, every quarter second on a connection of its own
// (PASSIVE: it waits for no reader or writer), and the server's connection never does. Should
// that thread fail, the server's connection checkpoints itself again, as SQLite does by default.

export type CheckpointJob = { task: 'checkpoint' | 'close'; filename: string };

const EVERY_MS = 250;
/** SQLite's own threshold, in pages of the log. */
const DEFAULT_AUTOCHECKPOINT = 1000;

const run = workerJobs(new URL('./checkpoint-worker.ts', import.meta.url), 'checkpoint worker') as (job: CheckpointJob) => Promise<void>;

/** Checkpoints the database file `filename`, which `db` has open, off the event loop; answers how to stop. */
export function checkpointOffThread(db: Database, filename: string): () => Promise<void> {
  db.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const checkpoint = () => {
    running = run({ task: 'checkpoint', filename }).then(later, () => {
      if (!db.open) return;
      db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
      stopped = true;
    });
  };
  const later = () => {
    if (stopped) return;
    // The next one after this one is done: a slow disk never queues them up.
    timer = setTimeout(checkpoint, EVERY_MS);
    timer.unref();
  };
  later();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    // The thread's connection closes first, so that closing the server's is the last and
    // checkpoints the rest of the log. A store closed before its first checkpoint opened none.
    if (running) await running.then(() => run({ task: 'close', filename })).catch(() => {});
  };
}
