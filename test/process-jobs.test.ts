import { describe, expect, it } from 'vitest';
import { ChildEnded, processJobs } from '../src/process-jobs.js';

// Jobs in a child process go one at a time: a child that ends fails the job it was reading and
// no other; the jobs behind it are read by a child started afresh, each answered once.

describe('processJobs', () => {
  it('fails only the job whose child ended, and answers the jobs queued behind it in a new child', async () => {
    const run = processJobs(new URL('./support/processes/echo-or-crash.ts', import.meta.url), 'echo process');
    const settled = await Promise.allSettled(['first', 'crash', 'second', 'crash', 'third'].map((job) => run(job)));
    expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message))).toEqual([
      'first',
      'echo process ended (SIGKILL) before it answered',
      'second',
      'echo process ended (SIGKILL) before it answered',
      'third',
    ]);
    expect(settled.filter(({ status }) => status === 'rejected').every((outcome) => (outcome as PromiseRejectedResult).reason instanceof ChildEnded)).toBe(true);
  });

  it('runs every thread of the child below the hub’s event loop, its own event loop too', async () => {
    const niceness = (await processJobs(new URL('./support/processes/thread-niceness.ts', import.meta.url), 'niceness process')(undefined)) as number[];
    // Its event loop and V8's helpers at least.
    expect(niceness.length).toBeGreaterThanOrEqual(3);
    expect(niceness.every((value) => value === 10)).toBe(true);
  });
});
