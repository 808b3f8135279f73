import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workerJobs } from '../src/worker-thread.js';
import { threadNiceness } from './support/workers/niceness.js';

// Worker threads run below the event loop's priority, so that on a machine with fewer cores
// than busy threads the event loop gets one first; SQLite's checkpoint thread keeps the event
// loop's, as its falling behind would leave the event loop more to do. The helper threads a process
// runs from its start (V8's) go below the event loop too, once the hub puts them there. Linux gives
// each thread a niceness of its own.

const niceness = (entry: string) => workerJobs(new URL(entry, import.meta.url), entry)(undefined);

describe('worker threads', () => {
  it('run below the event loop’s priority, which stays as it was', async () => {
    expect(await niceness('./support/workers/default-priority.ts')).toBe(10);
    expect(threadNiceness(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'))).toBe(0);
  });

  it('keep the event loop’s priority where a worker asks to', async () => {
    expect(await niceness('./support/workers/event-loop-priority.ts')).toBe(0);
  });

  it('put the threads a process runs besides its event loop below it, where the hub starts', () => {
    const script = new URL('./support/workers/helper-threads.ts', import.meta.url).pathname;
    const { eventLoop, others } = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' })) as { eventLoop: number; others: number[] };
    expect(eventLoop).toBe(0);
    // V8's helpers at least (garbage collection, compiling).
    expect(others.length).toBeGreaterThanOrEqual(2);
    expect(others.every((niceness) => niceness === 10)).toBe(true);
  });
});
