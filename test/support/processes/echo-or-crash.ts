import { answerProcessJobs } from '../../../src/process-jobs.js';

// A child process answering each job with itself, but for 'crash', on which it ends at once as a
// crashing reader would (killed, nothing answered), 'pid', which it answers with its own, and
// 'how', which it answers with how it was started: Node.js's options and its module.
answerProcessJobs<string>(async (job) => {
  if (job === 'crash') process.kill(process.pid, 'SIGKILL');
  if (job === 'how') return { result: { execArgv: process.execArgv, module: import.meta.url } };
  return { result: job === 'pid' ? process.pid : job };
});
