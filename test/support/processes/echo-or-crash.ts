import { answerProcessJobs } from '../../../src/process-jobs.js';

// A child process answering each job with itself, but for 'crash', on which it ends at once as a
// crashing reader would (killed, nothing answered), 'pid', which it answers with its own, 'how',
// which it answers with how it was started: Node.js's options and its module, and 'spin', on which
// it computes for ever without yielding, as a reader caught in a pattern that never ends would.
answerProcessJobs<string>(async (job) => {
  if (job === 'crash') process.kill(process.pid, 'SIGKILL');
  // eslint-disable-next-line no-empty -- the point: a loop that never yields.
  if (job === 'spin') for (;;) {}
  if (job === 'how') return { result: { execArgv: process.execArgv, module: import.meta.url } };
  return { result: job === 'pid' ? process.pid : job };
});
