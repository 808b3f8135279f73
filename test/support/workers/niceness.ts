import { readFileSync } from 'node:fs';

/** This thread's niceness: the nineteenth field of its stat in /proc (Linux). */
export function threadNiceness(stat = readFileSync('/proc/thread-self/stat', 'utf8')): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
