import { answerProcessJobs } from '../../../src/process-jobs.js';

// A child process answering each job with itself, but for 'crash', on which it ends at once as a
// crashing reader would (killed, nothing answered), and 'pid', which it answers with its own.
answerProcessJobs<string>(async (job) => {
  if (job === 'crash') process.kill(process.pid, 'SIGKILL');
  return { result: job === 'pid' ? process.pid : job };
});
