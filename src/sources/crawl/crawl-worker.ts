import { answerJobs } from '../../worker-thread.js';
import type { CrawlJob } from './off-thread.js';
import { readPage } from './read-page.js';
import { readSitemap } from './sitemap.js';

// The thread that parses what the crawl fetches: Readability on a DOM takes seconds for a 2 MB
// page, and a 2 MB sitemap a tenth of one (bench: crawl), which the hub's event loop must never
// wait for.

answerJobs<CrawlJob>(async (job) => ({ result: job.kind === 'page' ? readPage(job) : readSitemap(job) }));
