import { crawl } from '../src/sources/crawl/index.js';
import { extractHtml } from '../src/sources/extract/index.js';
import { memoryFrontier } from '../test/support/crawl-frontier.js';
import { html, page, serveSite, text } from '../test/support/website.js';
import { median, watched } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { generateText } from './text.js';

// Crawling a local site of 200 HTML pages (about 10 KB of text each, linked to each other and
// listed in a sitemap) at the crawl's two requests at once, against a plain fetch loop of the
// same pages at two at once in the same run: the crawl's own cost (robots.txt, the sitemap, the
// address rule's agents, reading each page's content and links on its worker, the frontier) over
// the bare HTTP. And the event loop's longest wait meanwhile, against the fetch loop's; and while
// a page just under the 2 MB bound is crawled, against the time reading it would hold the loop if
// the crawl read pages on the hub's thread.

const PAGES = 200;
const LINKS_PER_PAGE = 10;
const BIG_PAGE_CHARS = 1_900_000;

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

async function fetchLoop(urls: string[]): Promise<void> {
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url; url = queue.shift()) await (await fetch(url)).text();
  };
  await Promise.all([worker(), worker()]);
}

function bigPage(): string {
  const paragraphs = generateText(BIG_PAGE_CHARS).split('\n\n');
  const content = paragraphs.map((paragraph, index) => `${index % 5 === 0 ? `<h2>Part ${index}</h2>` : ''}<p>${paragraph}</p>`);
  return page('Everything', content.join(''), { links: Array.from({ length: 50 }, (_, index) => `/elsewhere/${index}`) });
}

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 3;
  const site = await serveSite(siteRoutes);
  const bigHtml = bigPage();
  const big = await serveSite({ '/': html(bigHtml) });
  try {
    const urls = ['/', ...Array.from({ length: PAGES }, (_, index) => `/guide/${index}`)].map((path) => `${site.origin}${path}`);
    const crawls: { ms: number; longestWaitMs: number }[] = [];
    const fetches: { ms: number; longestWaitMs: number }[] = [];
    // One crawl first, unmeasured: it starts the page worker and warms the code.
    await crawl(site.origin, memoryFrontier(), { maxPages: 20, allowPrivate: true });
    for (let i = 0; i < runs; i += 1) {
      fetches.push(await watched(() => fetchLoop(urls)));
      const frontier = memoryFrontier();
      crawls.push(await watched(() => crawl(site.origin, frontier, { maxPages: 1000, allowPrivate: true })));
      const { done } = await frontier.counts();
      if (done !== urls.length) throw new Error(`the crawl read ${done} pages of ${urls.length}`);
    }
    const bigCrawls: number[] = [];
    const onThread: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      onThread.push((await watched(async () => extractHtml(bigHtml, big.origin))).ms);
      const frontier = memoryFrontier();
      bigCrawls.push((await watched(() => crawl(big.origin, frontier, { maxPages: 1, allowPrivate: true }))).longestWaitMs);
      if ((await frontier.counts()).done !== 1) throw new Error('the crawl did not read the big page');
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
      {
        name: `longest event-loop wait, crawling one ${(BIG_PAGE_CHARS / 1e6).toFixed(1)} MB page`,
        value: median(bigCrawls),
        unit: 'ms',
        baseline: 'reading it on the event loop',
        baselineValue: median(onThread),
      },
    ];
  } finally {
    await Promise.all([site.close(), big.close()]);
  }
}

export const crawlSection: Section = { name: 'Website crawl', run };
