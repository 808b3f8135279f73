import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { crawl } from '../src/sources/crawl/index.js';
import { memoryFrontier } from '../test/support/crawl-frontier.js';
import { html, page, serveSite, text, type Site } from '../test/support/website.js';
import { median } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { generateText } from './text.js';

// Crawling a local site of 200 HTML pages (about 10 KB of text each, linked to each other and
// listed in a sitemap) at the crawl's two requests at once, against a plain fetch loop of the
// same pages at two at once in the same run: the crawl's own cost (robots.txt, the sitemap, the
// address rule's agents, reading each page's content and links on its worker, the frontier) over
// the bare HTTP. And the event loop's longest wait meanwhile, against the fetch loop's.

const PAGES = 200;
const LINKS_PER_PAGE = 10;

function siteRoutes({ origin }: { origin: string }) {
  const path = (index: number) => `/guide/${index}`;
  const paths = Array.from({ length: PAGES }, (_, index) => path(index));
  const routes = Object.fromEntries(
    paths.map((pagePath, index) => {
      const sections = generateText(10_000, index + 1)
        .split('\n\n')
        .map((paragraph, part) => `${part % 3 === 0 ? `<h2>Part ${part}</h2>` : ''}<p>${paragraph}</p>`)
        .join('');
      const links = Array.from({ length: LINKS_PER_PAGE }, (_, step) => path((index + step + 1) % PAGES));
      return [pagePath, html(page(`Guide ${index}`, sections, { links: ['/', ...links] }))];
    }),
  );
  const sitemap = `<urlset>${paths.map((pagePath) => `<url><loc>${origin}${pagePath}</loc></url>`).join('')}</urlset>`;
  return {
    ...routes,
    '/': html(page('Guide', '<p>The guide.</p>', { links: paths.slice(0, LINKS_PER_PAGE) })),
    '/robots.txt': text('User-agent: *\nAllow: /\n'),
    '/sitemap.xml': text(sitemap, 'application/xml'),
  };
}

/** Runs the work with the event loop watched: its duration and the loop's longest wait, in ms. */
async function watched(work: () => Promise<unknown>): Promise<{ ms: number; longestWaitMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  delay.disable();
  return { ms, longestWaitMs: delay.max / 1e6 };
}

async function fetchLoop(site: Site, urls: string[]): Promise<void> {
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url; url = queue.shift()) await (await fetch(url)).text();
  };
  await Promise.all([worker(), worker()]);
}

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 3;
  const site = await serveSite(siteRoutes);
  try {
    const urls = ['/', ...Array.from({ length: PAGES }, (_, index) => `/guide/${index}`)].map((path) => `${site.origin}${path}`);
    const crawls: { ms: number; longestWaitMs: number }[] = [];
    const fetches: { ms: number; longestWaitMs: number }[] = [];
    // One crawl first, unmeasured: it starts the page worker and warms the code.
    await crawl(site.origin, memoryFrontier(), { maxPages: 20, allowPrivate: true });
    for (let i = 0; i < runs; i += 1) {
      fetches.push(await watched(() => fetchLoop(site, urls)));
      const frontier = memoryFrontier();
      crawls.push(await watched(() => crawl(site.origin, frontier, { maxPages: 1000, allowPrivate: true })));
      const { done } = await frontier.counts();
      if (done !== urls.length) throw new Error(`the crawl read ${done} pages of ${urls.length}`);
    }
    const perSecond = (ms: number) => (urls.length / ms) * 1000;
    return [
      {
        name: `crawl of ${urls.length} local pages, 2 at once`,
        value: perSecond(median(crawls.map(({ ms }) => ms))),
        unit: 'pages/s',
        baseline: 'fetch loop of the same pages, 2 at once',
        baselineValue: perSecond(median(fetches.map(({ ms }) => ms))),
      },
      {
        name: 'longest event-loop wait during the crawl',
        value: median(crawls.map(({ longestWaitMs }) => longestWaitMs)),
        unit: 'ms',
        baseline: 'during the fetch loop',
        baselineValue: median(fetches.map(({ longestWaitMs }) => longestWaitMs)),
      },
    ];
  } finally {
    await site.close();
  }
}

export const crawlSection: Section = { name: 'Website crawl', run };
