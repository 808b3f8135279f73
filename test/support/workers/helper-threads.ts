import { readdirSync, readFileSync } from 'node:fs';
import { putHelperThreadsBelowEventLoop } from '../../../src/worker-thread.js';
import { threadNiceness } from './niceness.js';

// A process that puts its helper threads below its event loop, as `npm start` does, and prints
// the niceness of its event loop and of each other thread.

putHelperThreadsBelowEventLoop();
const niceness = (thread: string) => threadNiceness(readFileSync(`/proc/self/task/${thread}/stat`, 'utf8'));
const others = readdirSync('/proc/self/task').filter((thread) => Number(thread) !== process.pid);
process.stdout.write(JSON.stringify({ eventLoop: niceness(String(process.pid)), others: others.map(niceness) }));
