import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkOffThread } from '../src/engine/workers/training-jobs.js';

// Worker threads run below the event loop's priority, so that on a machine with fewer cores
// than busy threads the event loop gets one first. Linux gives each thread a niceness of its own,
// read here from /proc (the nineteenth field of a thread's stat).

function niceness(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('worker threads', () => {
  it('run below the event loop’s priority, which stays as it was', async () => {
    const before = new Set(readdirSync('/proc/self/task'));
    await chunkOffThread('A worker has started.');
    const started = readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
    expect(started.map(niceness)).toContain(10);
    expect(niceness(String(process.pid))).toBe(0);
  });
});
