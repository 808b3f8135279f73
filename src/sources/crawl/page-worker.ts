import { answerJobs } from '../../worker-thread.js';
import { readPage, type PageJob } from './read-page.js';

// The thread that reads the crawl's pages: Readability on a DOM takes seconds for a 2 MB page
// (bench: crawl), which the hub's event loop must never wait for.

answerJobs<PageJob>(async (job) => ({ result: readPage(job) }));
