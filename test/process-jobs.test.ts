import { existsSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChildEnded, processJobs } from '../src/process-jobs.js';
import { JobOverTime } from '../src/worker-thread.js';

// Jobs in a child process go one at a time: a child that ends fails the job it was reading and
// no other; the jobs behind it are read by a child started afresh, each answered once.

/** Whether a process of this id is running (signal 0 tests it). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const ECHO = new URL('./support/processes/echo-or-crash.ts', import.meta.url);
const BUNDLES = new URL('../node_modules/.cache/switchboard/', import.meta.url).pathname;

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

  it('stops a child whose job runs past its time, failing that job alone, and answers the jobs queued behind it in a new child', async () => {
    const run = processJobs(ECHO, 'echo process');
    const spinning = (await run('pid')) as number;
    const settled = await Promise.allSettled([run('spin', { maxMs: 1_000 }), run('after')]);
    expect(settled[0]).toMatchObject({ status: 'rejected', reason: expect.any(JobOverTime) });
    expect((settled[0] as PromiseRejectedResult).reason).toHaveProperty('message', 'echo process ran past 1000 ms for one job');
    expect(settled[1]).toEqual({ status: 'fulfilled', value: 'after' });
    await expect.poll(() => isRunning(spinning), { timeout: 20_000 }).toBe(false);
  });

  it('ends a child left without a job for its idle time, and answers the next job in a new child', async () => {
    const run = processJobs(new URL('./support/processes/echo-or-crash.ts', import.meta.url), 'echo process', { idleMs: 300 });
    const first = (await run('pid')) as number;
    await expect.poll(() => isRunning(first), { timeout: 20_000 }).toBe(false);
    const second = (await run('pid')) as number;
    expect(second).not.toBe(first);
    expect(isRunning(second)).toBe(true);
  });

  it('tells its child’s resident memory while the child runs, and 0 before it starts and after it ends', async () => {
    const run = processJobs(new URL('./support/processes/echo-or-crash.ts', import.meta.url), 'echo process', { idleMs: 300 });
    expect(run.residentBytes()).toBe(0);
    const pid = (await run('pid')) as number;
    // A Node.js process holds tens of megabytes at least.
    expect(run.residentBytes()).toBeGreaterThan(10 * 1024 * 1024);
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
    expect(run.residentBytes()).toBe(0);
  });

  it('keeps a child that gets jobs within its idle time', async () => {
    const run = processJobs(new URL('./support/processes/echo-or-crash.ts', import.meta.url), 'echo process', { idleMs: 5_000 });
    const first = (await run('pid')) as number;
    expect(await run('pid')).toBe(first);
  });

  it('runs its entry bundled into plain JavaScript, without tsx’s loader, which held most of a reading child’s memory', async () => {
    const run = processJobs(new URL('./support/processes/echo-or-crash.ts', import.meta.url), 'echo process', { idleMs: 300 });
    const how = (await run('how')) as { execArgv: string[]; module: string };
    expect(how.execArgv).toEqual([]);
    expect(how.module).toMatch(/\/node_modules\/\.cache\/switchboard\/echo-or-crash-[\w-]+\.mjs$/);
  });

  it('removes the entry’s bundles unused for a minute when it writes its own, but no other entry’s, one in use or one being written', async () => {
    await processJobs(ECHO, 'echo process', { idleMs: 300 })('first');
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const made = (name: string, used: Date) => {
      writeFileSync(join(BUNDLES, name), '// a bundle');
      utimesSync(join(BUNDLES, name), used, used);
      return name;
    };
    const stale = [made('echo-or-crash-AAAAAAAAAAAAAAAA.mjs', hoursAgo), made('echo-or-crash-B_B-BBBBBBBBBBBB.mjs', hoursAgo)];
    const kept = [
      made('echo-or-crash-CCCCCCCCCCCCCCCC.mjs', new Date()),
      made('echo-or-crash-DDDDDDDDDDDDDDDD.mjs.4242', hoursAgo),
      made('echo-or-crash-extra-EEEEEEEEEEEEEEEE.mjs', hoursAgo),
    ];
    try {
      const how = (await processJobs(ECHO, 'echo process', { idleMs: 300 })('how')) as { module: string };
      const left = readdirSync(BUNDLES);
      expect(left).toContain(basename(new URL(how.module).pathname));
      expect(left).toEqual(expect.arrayContaining(kept));
      expect(left.filter((name) => stale.includes(name))).toEqual([]);
    } finally {
      for (const name of [...stale, ...kept]) if (existsSync(join(BUNDLES, name))) unlinkSync(join(BUNDLES, name));
    }
  });

  it('writes its bundle again before it starts a child from it where another hub removed it', async () => {
    const run = processJobs(ECHO, 'echo process', { idleMs: 300 });
    const first = (await run('how')) as { module: string };
    const pid = (await run('pid')) as number;
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
    const bundle = new URL(first.module).pathname;
    expect(dirname(bundle)).toBe(BUNDLES.replace(/\/$/, ''));
    unlinkSync(bundle);
    expect(await run('how')).toEqual(first);
    expect(existsSync(bundle)).toBe(true);
  });

  it('runs every thread of the child below the hub’s event loop, its own event loop too', async () => {
    const niceness = (await processJobs(new URL('./support/processes/thread-niceness.ts', import.meta.url), 'niceness process')(undefined)) as number[];
    // Its event loop and V8's helpers at least.
    expect(niceness.length).toBeGreaterThanOrEqual(3);
    expect(niceness.every((value) => value === 10)).toBe(true);
  });
});
