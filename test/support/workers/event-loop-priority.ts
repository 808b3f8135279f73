import { answerJobs } from '../../../src/worker-thread.js';
import { threadNiceness } from './niceness.js';

// A worker answering its own niceness, kept at the event loop's priority.
answerJobs(async () => ({ result: threadNiceness() }), { atEventLoopPriority: true });
