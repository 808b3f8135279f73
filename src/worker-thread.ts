import { readdirSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, Worker, type Transferable } from 'node:worker_threads';

// CPU-heavy work (training, file extraction) runs in worker threads so the server's event loop
// never waits on it. Each caller owns one worker, started on first use and replaced if it dies;
// jobs queue in it. The worker runs TypeScript as the server does, through tsx, whatever loaded
// this module (node --import tsx, or vitest): a worker's entry is resolved before any --import
// hook would apply, so a small script registers tsx and then imports the real entry.
// A worker runs below the event loop's priority unless it asks not to (answerJobs): on a machine
// with fewer cores than busy threads (two reading a source, the event loop, the collector's), the
// one that answers requests is never the one kept waiting for a core.

const TSX_API = import.meta.resolve('tsx/esm/api');

type Pending = { resolve(result: unknown): void; reject(error: Error): void };
type Reply = { id: number; result?: unknown; error?: string };

/** A function that runs a job on the worker whose entry (a .ts module calling answerJobs) is given. */
export function workerJobs(entry: URL, label: string): (job: unknown) => Promise<unknown> {
  const href = JSON.stringify(entry.href);
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${href}, ${href}))`;
  let worker: Worker | undefined;
  const pending = new Map<number, Pending>();
  let nextId = 0;

  const start = (): Worker => {
    const started = new Worker(bootstrap, { eval: true, execArgv: [] });
    started.on('message', ({ id, result, error }: Reply) => {
      const job = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) started.unref();
      if (error === undefined) job?.resolve(result);
      else job?.reject(new Error(`${label}: ${error}`));
    });
    const fail = (error: Error) => {
      if (worker === started) worker = undefined;
      for (const job of pending.values()) job.reject(error);
      pending.clear();
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`${label} exited with code ${code}`)));
    return started;
  };

  return (job) => {
    worker ??= start();
    const id = (nextId += 1);
    const running = worker;
    // Referenced only while it has work, so an idle worker never holds the process open.
    running.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      running.postMessage({ id, job });
    });
  };
}

/** Niceness of a worker thread: the event loop (0) gets a core first when they contend. */
const WORKER_NICENESS = 10;

/**
 * In a worker's entry: answers each job with the handler's result, its buffers transferred. The
 * thread runs below the event loop's priority unless `atEventLoopPriority`: a thread whose falling
 * behind leaves the event loop more to do (SQLite's checkpoints: a longer log to read through).
 */
export function answerJobs<Job>(
  handle: (job: Job) => Promise<{ result: unknown; transfer?: Transferable[] }>,
  { atEventLoopPriority = false } = {},
): void {
  if (!atEventLoopPriority) yieldToEventLoop();
  parentPort?.on('message', ({ id, job }: { id: number; job: Job }) => {
    handle(job).then(
      ({ result, transfer }) => parentPort?.postMessage({ id, result } satisfies Reply, transfer),
      (error: unknown) =>
        parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply),
    );
  });
}

/** Lowers this thread's priority where a thread has one of its own (Linux, by its id in /proc/thread-self). */
function yieldToEventLoop(): void {
  try {
    setPriority(ownThreadId(), WORKER_NICENESS);
  } catch {
    // No /proc/thread-self (not Linux): the thread is scheduled as the process is.
  }
}

/**
 * At a process's start, on its event loop: puts the threads it already runs besides the event loop
 * below its priority, as worker threads are. Those are V8's helpers (garbage collection and
 * compiling for the event loop and every worker alike), and, under tsx, tsx's module loader. At the
 * event loop's priority they kept it waiting for a core while a worker trained (the worker's share
 * of collecting runs there): the longest wait as a 10 MB source was trained in process went from
 * 31–60 ms (median 44) to 23–51 ms (median 33), sixteen runs each. Threads started later take the
 * event loop's priority and set their own (answerJobs).
 */
export function putHelperThreadsBelowEventLoop(): void {
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: threads are scheduled as the process is.
    return;
  }
  const eventLoop = ownThreadId();
  for (const thread of threads) {
    try {
      if (thread !== eventLoop) setPriority(thread, WORKER_NICENESS);
    } catch {
      // Gone since it was listed.
    }
  }
}

const ownThreadId = () => Number(readlinkSync('/proc/thread-self').split('/').pop());
