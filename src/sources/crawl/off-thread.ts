import { workerJobs } from '../../worker-thread.js';
import type { PageJob, ReadPage } from './read-page.js';
import type { Listed, SitemapJob } from './sitemap.js';

// The crawl's parsing, on its worker thread (crawl-worker.ts): one thread for every crawl of the
// process, started on first use, jobs queued in it.

export type CrawlJob = ({ kind: 'page' } & PageJob) | ({ kind: 'sitemap' } & SitemapJob);

const run = workerJobs(new URL('./crawl-worker.ts', import.meta.url), 'crawl worker') as (job: CrawlJob) => Promise<unknown>;

export const readPageOffThread = (job: PageJob) => run({ kind: 'page', ...job }) as Promise<ReadPage>;

export const readSitemapOffThread = (job: SitemapJob) => run({ kind: 'sitemap', ...job }) as Promise<Listed>;
