import { answerJobs } from '../../../src/worker-thread.js';
import { threadNiceness } from './niceness.js';

// A worker answering its own niceness, at the priority answerJobs gives by default.
answerJobs(async () => ({ result: threadNiceness() }));
