import { readdirSync, readFileSync } from 'node:fs';
import { answerProcessJobs } from '../../../src/process-jobs.js';
import { threadNiceness } from '../workers/niceness.js';

// A child process answering the niceness of each of its threads, its event loop's first.
answerProcessJobs(async () => ({
  result: [process.pid, ...readdirSync('/proc/self/task').map(Number).filter((thread) => thread !== process.pid)].map((thread) =>
    threadNiceness(readFileSync(`/proc/self/task/${thread}/stat`, 'utf8')),
  ),
}));
