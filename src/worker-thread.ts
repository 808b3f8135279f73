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

export type Pending = { resolve(result: unknown): void; reject(error: Error): void };
export type Reply = { id: number; result?: unknown; error?: string };
/** What a job's runner (worker thread or child process, see process-jobs.ts) answers it with. */
export type RunJob = (job: unknown, limits?: JobLimits) => Promise<unknown>;

/** Settles a job with its runner's reply: its result, or an error naming the runner. */
export function settle(job: Pending | undefined, { result, error }: Reply, label: string): void {
  if (error === undefined) job?.resolve(result);
  else job?.reject(new Error(`${label}: ${error}`));
}

/** The error of a job whose runner was stopped as the job took more memory than its limit. */
export const overMemory = (label: string, limitBytes: number) => new WorkerOverMemory(`${label} took more than ${limitBytes} bytes of memory for one job`);

/** What a job may take before its worker is stopped. */
export type JobLimits = {
  /**
   * How much the process's resident memory may grow while the job is under way, in bytes. A heap
   * limit would not do: what a file unpacks to is held in array buffers, outside the heap.
   */
  maxMemoryGrowthBytes?: number;
  /**
   * How long the job may run, in milliseconds, before its child process is stopped (process jobs
   * only): a reading that does not end holds every job queued behind it.
   */
  maxMs?: number;
};

/** A job's child process was stopped, the job unfinished, as it ran past its time limit (JobLimits). */
export class JobOverTime extends Error {
  override name = 'JobOverTime';
}

/** A job's worker was stopped, the job unfinished, as the memory it took passed its limit (JobLimits). */
export class WorkerOverMemory extends Error {
  override name = 'WorkerOverMemory';
}

const MEMORY_CHECK_MS = 100;

/** A worker thread, with its jobs posted and not yet answered. */
type Running = { thread: Worker; pending: Map<number, Pending> };

/** A function that runs a job on the worker whose entry (a .ts module calling answerJobs) is given. */
export function workerJobs(entry: URL, label: string): RunJob {
  const href = JSON.stringify(entry.href);
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${href}, ${href}))`;
  let current: Running | undefined;
  let nextId = 0;

  const start = (): Running => {
    const thread = new Worker(bootstrap, { eval: true, execArgv: [] });
    const running: Running = { thread, pending: new Map() };
    const { pending } = running;
    thread.on('message', (reply: Reply) => {
      const job = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) thread.unref();
      settle(job, reply, label);
    });
    const fail = (error: Error) => {
      if (current === running) current = undefined;
      for (const job of pending.values()) job.reject(error);
      pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`${label} exited with code ${code}`)));
    return running;
  };

  /**
   * Stops the worker of a job over its memory limit: that job fails as such, those queued behind it
   * as the worker's exit fails them, and the next job starts a worker afresh.
   */
  const stopOverMemory = (running: Running, id: number, limitBytes: number) => {
    if (current === running) current = undefined;
    running.pending.get(id)?.reject(overMemory(label, limitBytes));
    running.pending.delete(id);
    void running.thread.terminate();
  };

  return (job, { maxMemoryGrowthBytes } = {}) => {
    const running = (current ??= start());
    const id = (nextId += 1);
    // Referenced only while it has work, so an idle worker never holds the process open.
    running.thread.ref();
    return new Promise((resolve, reject) => {
      const stopWatching = watchMemory(maxMemoryGrowthBytes, processResidentBytes, (limitBytes) => stopOverMemory(running, id, limitBytes));
      const settled =
        <T>(settle: (value: T) => void) =>
        (value: T) => {
          stopWatching();
          settle(value);
        };
      running.pending.set(id, { resolve: settled(resolve), reject: settled(reject) });
      running.thread.postMessage({ id, job });
    });
  };
}

const processResidentBytes = () => process.memoryUsage.rss();

/**
 * Calls `over` once the resident memory `residentBytes` reads has grown by more than
 * `maxGrowthBytes` from now (if given); answers how to stop watching.
 */
export function watchMemory(maxGrowthBytes: number | undefined, residentBytes: () => number, over: (maxGrowthBytes: number) => void): () => void {
  if (maxGrowthBytes === undefined) return () => {};
  const start = residentBytes();
  const timer = setInterval(() => {
    if (residentBytes() - start <= maxGrowthBytes) return;
    clearInterval(timer);
    over(maxGrowthBytes);
  }, MEMORY_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
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
  const port = parentPort;
  if (port) answerOn({ receive: (listener) => port.on('message', listener), reply: (reply, transfer) => port.postMessage(reply, transfer) }, handle);
}

/** Where a job runner's jobs come from and its replies go: the thread or process that started it. */
export type JobPort = {
  receive(listener: (message: { id: number; job: unknown }) => void): void;
  reply(reply: Reply, transfer?: Transferable[]): void;
};

/** Answers each job `port` brings with the handler's result, or with its error's message. */
export function answerOn<Job>(port: JobPort, handle: (job: Job) => Promise<{ result: unknown; transfer?: Transferable[] }>): void {
  port.receive(({ id, job }) => {
    // A job is what its runner's caller posted: workerJobs and processJobs pass it as given.
    handle(job as Job).then(
      ({ result, transfer }) => port.reply({ id, result }, transfer),
      (error: unknown) => port.reply({ id, error: error instanceof Error ? error.message : String(error) }),
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
  putThreadsBelowEventLoop({ eventLoopToo: false });
}

/**
 * Puts every thread of this process below the hub's event loop, this process's own event loop
 * too: in a child process working for the hub (process-jobs.ts). Threads it starts later inherit
 * the priority of the thread that starts them.
 */
export function putProcessBelowEventLoop(): void {
  putThreadsBelowEventLoop({ eventLoopToo: true });
}

function putThreadsBelowEventLoop({ eventLoopToo }: { eventLoopToo: boolean }): void {
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: threads are scheduled as the process is.
    return;
  }
  const eventLoop = eventLoopToo ? undefined : ownThreadId();
  for (const thread of threads) {
    try {
      if (thread !== eventLoop) setPriority(thread, WORKER_NICENESS);
    } catch {
      // Gone since it was listed.
    }
  }
}

const ownThreadId = () => Number(readlinkSync('/proc/thread-self').split('/').pop());
