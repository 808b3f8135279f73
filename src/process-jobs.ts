import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { childProgram, type ChildProgram } from './child-program.js';
import { answerOn, JobOverTime, overMemory, putProcessBelowEventLoop, settle, watchMemory, type JobLimits, type Pending, type Reply, type RunJob } from './worker-thread.js';

// Work whose memory must all come back once it is stopped (reading an uploaded file) runs in a
// child process rather than a worker thread: Node.js keeps about three quarters of a terminated
// worker thread's memory until the process ends (three 1 GB-limited stops left the hub 2.2 GB
// larger), while a child's memory goes back to the system with it. The child gets one job at a
// time, the others wait here: the memory it takes and a crash are then that job's alone, and the
// jobs behind it go to a child started afresh.

/** A job's child process ended (crashed, or was killed from outside) before it answered. */
export class ChildEnded extends Error {
  override name = 'ChildEnded';
}

type Queued = Pending & { job: unknown; limits: JobLimits };

/** A child's first message: its entry loaded and listening, so that its memory from then on is its jobs'. */
const READY = 'ready';
/**
 * How long a child with no job is kept. An extraction child holds over 100 MB once it has read a
 * file (pdf.js and mammoth loaded), which a hub reading no files should not: the next file then
 * waits about a second for a child to start.
 */
const IDLE_MS = 30_000;

/** Runs a job in the child; `residentBytes` is the child's resident memory now, 0 when no child runs. */
export type ProcessJobs = RunJob & { residentBytes(): number };

/**
 * A function that runs a job in a child process whose entry (a .ts module calling answerProcessJobs)
 * is given, run as its bundle (child-program.ts), made on first use. The child is started on first
 * use and replaced when it ends; idle, it never holds the process open, and after `idleMs` without
 * a job it ends.
 */
export function processJobs(entry: URL, label: string, { idleMs = IDLE_MS } = {}): ProcessJobs {
  const waiting: Queued[] = [];
  let child: { process: ChildProcess; ready: boolean } | undefined;
  let running: (Queued & { id: number; stopWatching(): void }) | undefined;
  let nextId = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let program: ChildProgram | undefined;
  let preparing: Promise<void> | undefined;

  /** Lets the child, now without a job, go: the process may exit, and the child ends after idleMs. */
  const rest = () => {
    const resting = child;
    if (!resting) return;
    idle(resting.process);
    idleTimer = setTimeout(() => {
      if (child !== resting) return;
      child = undefined;
      resting.process.kill();
    }, idleMs);
    idleTimer.unref();
  };

  /** Settles the job that was the child's (if any) and sends the next. */
  const finish = (job: Pending | undefined, settleJob: (job: Pending) => void) => {
    running?.stopWatching();
    running = undefined;
    if (job) settleJob(job);
    runNext();
  };

  const start = ({ modulePath, execArgv, prepare }: ChildProgram) => {
    prepare();
    // Its jobs read no setting (extraction's do not): the child gets none of the hub's secrets,
    // only where tsx, if it runs with it, may cache its compiled modules.
    const started = fork(modulePath, [], { execArgv, serialization: 'advanced', env: { TMPDIR: tmpdir() } });
    const current = { process: started, ready: false };
    started.on('message', (message: Reply | typeof READY) => {
      if (child !== current) return;
      if (message === READY) {
        current.ready = true;
        runNext();
      } else if (message.id === running?.id) finish(running, (job) => settle(job, message, label));
    });
    const ended = (why: string) => {
      if (child !== current) return;
      child = undefined;
      // A child that ended before it was ready ends the job it was started for, so that a child
      // unable to start fails each job once rather than being started again and again.
      const job = current.ready ? running : waiting.shift();
      finish(job, (lost) => lost.reject(new ChildEnded(`${label} ended (${why}) before it answered`)));
    };
    started.on('exit', (code, signal) => ended(signal ?? `exit code ${code}`));
    // Not started, or no longer reachable: no exit may follow.
    started.on('error', (error) => {
      ended(error.message);
      started.kill('SIGKILL');
    });
    return current;
  };

  /** Stops the child of a job over one of its limits: that job fails with `error`, the next starts a child afresh. */
  const stopOverLimit = (error: Error) => {
    const stopped = child;
    child = undefined;
    stopped?.process.kill('SIGKILL');
    finish(running, (job) => job.reject(error));
  };

  const runNext = () => {
    if (running) return;
    clearTimeout(idleTimer);
    if (waiting.length === 0) return rest();
    if (!program) {
      preparing ??= childProgram(entry).then((made) => {
        program = made;
        runNext();
      });
      return;
    }
    child ??= start(program);
    busy(child.process);
    const queued = child.ready ? waiting.shift() : undefined;
    if (!queued) return;
    const { pid } = child.process;
    const id = (nextId += 1);
    const stopWatchingMemory = watchMemory(queued.limits.maxMemoryGrowthBytes, () => residentBytes(pid), (limitBytes) => stopOverLimit(overMemory(label, limitBytes)));
    const { maxMs } = queued.limits;
    const timer = maxMs === undefined ? undefined : setTimeout(() => stopOverLimit(new JobOverTime(`${label} ran past ${maxMs} ms for one job`)), maxMs);
    const stopWatching = () => {
      stopWatchingMemory();
      clearTimeout(timer);
    };
    running = { ...queued, id, stopWatching };
    child.process.send({ id, job: queued.job });
  };

  const run: RunJob = (job, limits = {}) =>
    new Promise((resolve, reject) => {
      waiting.push({ job, limits, resolve, reject });
      runNext();
    });
  return Object.assign(run, { residentBytes: () => (child ? residentBytes(child.process.pid) : 0) });
}

// Referenced only while it has work, so an idle child never holds the process open.
const busy = (child: ChildProcess) => {
  child.ref();
  child.channel?.ref();
};
const idle = (child: ChildProcess) => {
  child.unref();
  child.channel?.unref();
};

/** A process's resident memory, from /proc (Linux); 0 where there is none to read, so that no limit is checked. */
function residentBytes(pid: number | undefined): number {
  try {
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kilobytes ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * In a child process's entry: answers each job with the handler's result. All its threads run
 * below the hub's event loop, as a worker thread does, and it ends with the hub.
 */
export function answerProcessJobs<Job>(handle: (job: Job) => Promise<{ result: unknown }>): void {
  putProcessBelowEventLoop();
  process.on('disconnect', () => process.exit());
  answerOn<Job>({ receive: (listener) => process.on('message', listener), reply: (reply) => process.send?.(reply) }, handle);
  process.send?.(READY);
}
