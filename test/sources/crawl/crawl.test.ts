import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crawl, type CrawlOptions } from '../../../src/sources/crawl/index.js';
import { memoryFrontier } from '../../support/crawl-frontier.js';
import { html, page, redirect, serveSite, text, type Route, type Site } from '../../support/website.js';

// Crawls of a website served here on 127.0.0.1 (so private addresses are allowed but where the
// address rule is the subject), each into an in-memory frontier.

const options = (more: Partial<CrawlOptions> = {}): CrawlOptions => ({
  maxPages: 50,
  allowPrivate: true,
  pageTimeoutMs: 1000,
  ...more,
});

let site: Site;
const url = (path: string) => `${site.origin}${path}`;
const serve = async (routes: Parameters<typeof serveSite>[0]) => {
  site = await serveSite(routes);
};
afterEach(async () => site.close());

/** Never answers (until the site closes). */
const hang: Route = () => {};

describe('a crawl of a website', () => {
  beforeEach(async () => {
    await serve(({ origin, port }) => ({
      '/robots.txt': text('User-agent: Switchboard\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n'),
      '/sitemap.xml': text(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap></sitemapindex>`,
        'application/xml',
      ),
      '/sitemap-pages.xml.gz': text(
        gzipSync(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>${origin}/orphan</loc></url><url><loc>${origin}/about#team</loc></url></urlset>`),
        'application/gzip',
      ),
      '/': html(
        page('Acme Handbook', '<p>Welcome to the handbook of Acme.</p>', {
          links: [
            '/ahead',
            '/hop-1',
            '/ring-a',
            '/ring-b',
            '/about',
            '/docs#install',
            '/private/secret',
            '/loop-a',
            `http://localhost:${port}/elsewhere`,
            '/away',
            '/docs?ref=nav',
            '/moved',
            '/slow',
            '/huge',
            '/huge-stream',
            '/manual.pdf',
            '/missing',
            '/latin',
            '/euro',
            '/renamed',
            '/print',
            '/to-private',
            'mailto:team@acme.test',
            '/behind',
          ],
        }),
      ),
      '/about': html(page('About us', '<p>Acme makes dimmer switches in Tallinn.</p>', { links: ['/'] })),
      '/docs': (_request, response) =>
        response
          .writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' })
          .end(gzipSync(page('Docs', '<h2>Install</h2><p>Run the installer twice.</p><ul><li>Step one</li><li>Step two</li></ul>'))),
      '/docs?ref=nav': html(page('Docs (from the menu)', '<p>Same docs.</p>', { head: '<link rel="canonical" href="/docs">' })),
      '/orphan': html(page('Orphan', '<p>Only the sitemap knows this page.</p>')),
      '/private/secret': html(page('Secret', '<p>Robots keep this out.</p>')),
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a'),
      '/ring-a': redirect('/ring-b'),
      '/ring-b': redirect('/ring-a'),
      '/ahead': redirect('/behind'),
      '/behind': html(page('Behind', '<p>Linked last, reached first by a redirect.</p>')),
      '/hop-1': redirect('/hop-2'),
      '/hop-2': redirect('/about'),
      '/elsewhere': html(page('Elsewhere', '<p>Another host.</p>')),
      '/away': redirect('http://localhost:1/gone'),
      '/moved': redirect('/docs', 301),
      '/slow': hang,
      '/huge': html(page('Huge', `<p>${'x'.repeat(5 * 1024 * 1024)}</p>`)),
      '/huge-stream': (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        const chunk = `<p>${'y'.repeat(64 * 1024)}</p>`;
        const write = (left: number) => {
          if (left === 0 || response.destroyed) return response.end();
          if (response.write(chunk)) write(left - 1);
          else response.once('drain', () => write(left - 1));
        };
        write(80);
      },
      '/euro': text(Buffer.from('<html><head><meta charset="windows-1252"><title>Prices</title></head><body><p>Tea costs 3 \x80.</p></body></html>', 'latin1'), 'text/html'),
      '/renamed': redirect('/fresh', 301),
      '/fresh': html(page('Fresh', '<p>Only a redirect leads here.</p>')),
      '/print': html(page('Printable', '<p>The article, printable.</p>', { head: '<link rel="canonical" href="/article">' })),
      '/article': html(page('Article', '<p>Never fetched: its printable copy is read in its name.</p>')),
      '/to-private': redirect('/private/other'),
      '/manual.pdf': text('%PDF-1.7 not really', 'application/pdf'),
      '/latin': text(Buffer.from('<html><head><title>Café</title></head><body><p>Crème brûlée on Fridays.</p></body></html>', 'latin1'), 'text/html; charset=iso-8859-1'),
    }));
  });

  it('reads every page it may once, and says why it read no other', async () => {
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options());

    const outcome = (path: string) => {
      const found = frontier.page(path.startsWith('http') ? path : url(path));
      return found && [found.status, found.reason];
    };
    expect(outcome('/')).toEqual(['read', undefined]);
    expect(outcome('/about')).toEqual(['read', undefined]);
    expect(outcome('/docs')).toEqual(['read', undefined]);
    expect(outcome('/orphan')).toEqual(['read', undefined]);
    expect(outcome('/latin')).toEqual(['read', undefined]);
    expect(outcome('/private/secret')).toEqual(['skipped', 'robots.txt disallows it for Switchboard.']);
    // A redirect's target is planned as a link is: where it is known, the URLs leading to it are its duplicates.
    expect(outcome('/loop-a')).toEqual(['skipped', `It is a duplicate of ${url('/loop-b')}.`]);
    expect(outcome('/loop-b')).toEqual(['failed', 'It redirects in a loop.']);
    const [ringFailed, ringDuplicate] = outcome('/ring-a')?.[0] === 'failed' ? ['/ring-a', '/ring-b'] : ['/ring-b', '/ring-a'];
    expect(outcome(ringFailed)).toEqual(['failed', 'It redirects in a loop.']);
    expect(outcome(ringDuplicate)).toEqual(['skipped', `It is a duplicate of ${url(ringFailed)}.`]);
    expect(outcome('/ahead')).toEqual(['skipped', `It is a duplicate of ${url('/behind')}.`]);
    expect(outcome('/behind')).toEqual(['read', undefined]);
    expect(outcome('/hop-1')).toEqual(['skipped', `It is a duplicate of ${url('/about')}.`]);
    expect(outcome('/hop-2')).toEqual(['skipped', `It is a duplicate of ${url('/about')}.`]);
    expect(outcome(`http://localhost:${site.port}/elsewhere`)).toEqual(['skipped', `It is on another host (localhost:${site.port}).`]);
    expect(outcome('/away')).toEqual(['skipped', 'It redirects to another host (http://localhost:1/gone).']);
    expect(outcome('/docs?ref=nav')).toEqual(['skipped', `It is a duplicate of ${url('/docs')}.`]);
    expect(outcome('/moved')).toEqual(['skipped', `It is a duplicate of ${url('/docs')}.`]);
    expect(outcome('/slow')).toEqual(['failed', 'It did not answer within 1 s.']);
    expect(outcome('/huge')).toEqual(['failed', 'It is larger than 2 MB.']);
    expect(outcome('/huge-stream')).toEqual(['failed', 'It is larger than 2 MB.']);
    expect(outcome('/manual.pdf')).toEqual(['skipped', 'It is not HTML (application/pdf).']);
    expect(outcome('/renamed')).toEqual(['skipped', `It is a duplicate of ${url('/fresh')}.`]);
    expect(outcome('/fresh')).toEqual(['read', undefined]);
    expect(outcome('/print')).toEqual(['skipped', `It is a duplicate of ${url('/article')}.`]);
    expect(frontier.page(url('/article'))).toMatchObject({ status: 'read', title: 'Printable' });
    expect(outcome('/to-private')).toEqual(['skipped', `It redirects to ${url('/private/other')}, which robots.txt disallows for Switchboard.`]);
    expect(outcome('/missing')).toEqual(['failed', 'The server answered 404 Not Found.']);

    expect(frontier.pages()).toHaveLength(frontier.state.planned.length);
    expect(await frontier.counts()).toEqual({ total: frontier.state.planned.length, done: 9, failed: 6 });
    for (const path of ['/private/secret', '/private/other', '/elsewhere', '/article']) expect(site.hits.get(path)).toBeUndefined();
    const fetchedOnce = ['/', '/about', '/docs', '/orphan', '/latin', '/docs?ref=nav', '/manual.pdf', '/fresh', '/print', '/behind', '/hop-2'];
    for (const path of [...fetchedOnce, '/loop-a', '/loop-b', '/ring-a', '/ring-b']) expect(site.hits.get(path)).toBe(1);
    expect(site.busiest()).toBeLessThanOrEqual(2);
  });

  it('keeps each page’s title and main content, without navigation, header, footer or scripts', async () => {
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options());

    const docs = frontier.page(url('/docs'));
    expect(docs?.title).toBe('Docs');
    expect(docs?.text).toContain('Run the installer twice.');
    expect(docs?.text).toMatch(/^## Install$/m);
    expect(docs?.text).toMatch(/^- Step one$/m);
    expect(docs?.chars).toBe(docs?.text.length);
    for (const left of ['Site header', 'Site footer', 'tracking', '/about']) expect(docs?.text).not.toContain(left);
    expect(frontier.page(url('/latin'))).toMatchObject({ title: 'Café', text: expect.stringContaining('Crème brûlée on Fridays.') });
    // No charset in the content type: the one the page declares.
    expect(frontier.page(url('/euro'))?.text).toContain('Tea costs 3 €.');
  });
});

describe('pages of one content under two URLs', () => {
  beforeEach(async () => {
    const home = page('Lamp Shop', '<p>We sell brass desk lamps.</p>', { links: ['/index.html', '/returns', '/returns-policy', '/delivery'] });
    await serve({
      '/': html(home),
      '/index.html': html(home),
      '/returns': html(page('Returns', '<p>Return a lamp within 30 days.</p>')),
      // Its menu differs, its main content does not.
      '/returns-policy': html(page('Returns', '<p>Return a lamp within 30 days.</p>', { links: ['/'] })),
      '/delivery': html(page('Delivery', '<p>Lamps ship within two days.</p>')),
    });
  });

  it('reads the first and skips the others as its duplicates, counting them not read', async () => {
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options({ concurrency: 1 }));

    const outcome = (path: string) => frontier.page(url(path)) && [frontier.page(url(path))?.status, frontier.page(url(path))?.reason];
    expect(outcome('/')).toEqual(['read', undefined]);
    expect(outcome('/index.html')).toEqual(['skipped', `It is a duplicate of ${url('/')}.`]);
    expect(outcome('/returns')).toEqual(['read', undefined]);
    expect(outcome('/returns-policy')).toEqual(['skipped', `It is a duplicate of ${url('/returns')}.`]);
    expect(outcome('/delivery')).toEqual(['read', undefined]);
    expect(frontier.page(url('/index.html'))).toMatchObject({ chars: 0, text: '' });
    expect(await frontier.counts()).toEqual({ total: 5, done: 3, failed: 0 });
  });

  it('keeps one page of each content whichever is read first, pages read at once included', async () => {
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options({ concurrency: 2 }));

    const read = frontier.pages().filter((found) => found.status === 'read');
    expect(read.map((found) => found.text.match(/We sell brass|Return a lamp|Lamps ship/)?.[0]).sort()).toEqual(['Lamps ship', 'Return a lamp', 'We sell brass']);
  });

  it('knows the contents read before a restart', async () => {
    const first = memoryFrontier();
    const stop = new AbortController();
    const record = first.record;
    first.record = async (found) => {
      await record(found);
      stop.abort(new Error('the hub restarts'));
    };
    await expect(crawl(url('/'), first, options({ concurrency: 1, signal: stop.signal }))).rejects.toThrow('the hub restarts');
    expect(first.pages().map((found) => found.url)).toEqual([url('/')]);

    const second = memoryFrontier(first.state);
    await crawl(url('/'), second, options({ concurrency: 1 }));
    expect(second.page(url('/index.html'))).toMatchObject({ status: 'skipped', reason: `It is a duplicate of ${url('/')}.` });
    expect(site.hits.get('/')).toBe(1);
  });
});

describe('a page drawn by JavaScript', () => {
  it('fails with why, as it has no text but its title, and its links are still followed', async () => {
    const app = (links = '') =>
      `<!doctype html><html><head><title>Lamp App</title><script src="/app.js"></script></head><body><div id="root"></div>${links}<noscript>Enable JavaScript.</noscript></body></html>`;
    await serve({
      '/': html(app('<nav><a href="/help">Help</a></nav>')),
      '/empty': html('<!doctype html><html><head></head><body><script src="/app.js"></script></body></html>'),
      '/help': html(page('Help', '<p>Lamps ship within two days.</p>', { links: ['/empty'] })),
    });
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options({ concurrency: 1 }));

    const noText = 'It has no text but its title: a page drawn by JavaScript, which the crawl does not run, shows nothing else.';
    expect(frontier.page(url('/'))).toMatchObject({ status: 'failed', reason: noText, chars: 0 });
    expect(frontier.page(url('/empty'))).toMatchObject({ status: 'failed', reason: noText, chars: 0 });
    expect(frontier.page(url('/help'))).toMatchObject({ status: 'read', title: 'Help' });
    expect(await frontier.counts()).toEqual({ total: 3, done: 1, failed: 2 });
  });
});

describe('maxPages', () => {
  const pages = Array.from({ length: 8 }, (_, index) => `/page-${index + 1}`);
  beforeEach(async () => {
    await serve({
      '/': html(page('Home', '<p>Home.</p>', { links: pages })),
      ...Object.fromEntries(pages.map((path) => [path, html(page(path, `<p>${path}</p>`))])),
    });
  });

  it('reads no more pages than maxPages, and skips the rest', async () => {
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options({ maxPages: 3 }));

    const read = frontier.pages().filter((found) => found.status === 'read');
    expect(read.map((found) => found.url)).toEqual([url('/'), url('/page-1'), url('/page-2')]);
    const skipped = frontier.pages().filter((found) => found.status === 'skipped');
    expect(skipped.map((found) => found.url)).toEqual(pages.slice(2).map(url));
    expect(new Set(skipped.map((found) => found.reason))).toEqual(new Set(["It is past the crawl's limit of 3 pages (maxPages)."]));
    for (const path of pages.slice(2)) expect(site.hits.get(path)).toBeUndefined();
  });

  it('knows at most ten URLs per page of maxPages, those it may read first', async () => {
    const many = Array.from({ length: 30 }, (_, index) => `/many-${index}`);
    await site.close();
    await serve({ '/': html(page('Home', '<p>Home.</p>', { links: ['https://elsewhere.example/', ...many] })) });
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options({ maxPages: 1 }));
    expect(frontier.state.planned).toEqual([url('/'), ...many.slice(0, 9).map(url)]);
  });

  it('has two requests in flight when it can', async () => {
    // Each page waits for a second request before it answers: one at a time, the crawl would time out.
    let waiting: (() => void) | undefined;
    const paired: Route = (request, response) => {
      const answer = () => html(page(request.url ?? '', '<p>Paired.</p>'))(request, response);
      if (waiting) {
        waiting();
        waiting = undefined;
        answer();
      } else waiting = answer;
    };
    await site.close();
    await serve({
      '/': html(page('Home', '<p>Home.</p>', { links: pages })),
      ...Object.fromEntries(pages.map((path) => [path, paired])),
    });
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options({ pageTimeoutMs: 5000 }));
    expect((await frontier.counts()).done).toBe(9);
    expect(site.busiest()).toBe(2);
  });
});

describe('a crawl stopped part-way', () => {
  const pages = Array.from({ length: 6 }, (_, index) => `/chapter-${index + 1}`);
  beforeEach(async () => {
    await serve({
      '/': html(page('Book', '<p>Contents.</p>', { links: pages })),
      ...Object.fromEntries(pages.map((path, index) => [path, html(page(path, '<p>A chapter.</p>', { links: [pages[index + 1] ?? '/'] }))])),
    });
  });

  /** A frontier whose crawl is stopped (as a restart would) once it has recorded that many pages. */
  const stoppedAfter = (recorded: number) => {
    const frontier = memoryFrontier();
    const stop = new AbortController();
    const record = frontier.record;
    frontier.record = async (found) => {
      await record(found);
      if (frontier.pages().length === recorded) stop.abort(new Error('the hub restarts'));
    };
    return { frontier, signal: stop.signal };
  };

  it('continues where it stopped when run again, and reads each page once', async () => {
    const { frontier: first, signal } = stoppedAfter(3);
    await expect(crawl(url('/'), first, options({ concurrency: 1, signal }))).rejects.toThrow('the hub restarts');
    expect(first.pages()).toHaveLength(3);

    const second = memoryFrontier(first.state);
    await crawl(url('/'), second, options({ concurrency: 1 }));
    expect(second.pages().map((found) => found.status)).toEqual(Array(7).fill('read'));
    for (const path of ['/', ...pages]) expect(site.hits.get(path)).toBe(1);
  });

  it('stops as soon as its signal aborts, and a second run reads the rest', async () => {
    const { frontier: first, signal } = stoppedAfter(1);
    await expect(crawl(url('/'), first, options({ signal }))).rejects.toThrow('the hub restarts');
    expect(first.pages().map((found) => found.url)).toEqual([url('/')]);

    const second = memoryFrontier(first.state);
    await crawl(url('/'), second, options());
    expect(second.pages().map((found) => found.status)).toEqual(Array(7).fill('read'));
  });
});

describe('a frontier that fails', () => {
  it('fails the crawl with its error, ending the requests in flight', async () => {
    await serve({
      '/': html(page('Home', '<p>Home.</p>', { links: ['/a', '/b', '/c'] })),
      '/a': html(page('A', '<p>A.</p>')),
      '/b': hang,
      '/c': hang,
    });
    const frontier = memoryFrontier();
    const record = frontier.record;
    frontier.record = async (found) => {
      if (found.url === url('/a')) throw new Error('the store is gone');
      await record(found);
    };
    await expect(crawl(url('/'), frontier, options())).rejects.toThrow('the store is gone');
    // Left to run, /b would have failed its time-out and been recorded.
    expect(frontier.pages().map((found) => found.url)).toEqual([url('/')]);
  });
});

describe('the address rule', () => {
  beforeEach(async () => {
    await serve({ '/': html(page('Intranet', '<p>Private.</p>')) });
  });

  it.each([
    ['a loopback address', () => url('/'), 'Its address is refused: 127.0.0.1 is a loopback address.'],
    ['a name that resolves to loopback', () => `http://localhost:${site.port}/`, /^Its address is refused: localhost resolves to .*, a loopback address\.$/],
  ])('refuses %s unless private addresses are allowed', async (_name, start, reason) => {
    const frontier = memoryFrontier();
    await crawl(start(), frontier, options({ allowPrivate: false }));
    expect(frontier.pages()).toEqual([expect.objectContaining({ status: 'failed', reason: expect.stringMatching(reason) })]);
    expect(site.hits.size).toBe(0);

    const allowed = memoryFrontier();
    await crawl(start(), allowed, options({ allowPrivate: true }));
    expect(allowed.pages()).toEqual([expect.objectContaining({ status: 'read', title: 'Intranet' })]);
  });
});

describe('robots.txt', () => {
  it('keeps the crawl from every page while the server fails to answer it', async () => {
    await serve({
      '/robots.txt': (_request, response) => response.writeHead(503).end(),
      '/': html(page('Home', '<p>Home.</p>')),
    });
    const frontier = memoryFrontier();
    await crawl(url('/'), frontier, options());
    expect(frontier.pages()).toEqual([
      expect.objectContaining({ status: 'skipped', reason: 'robots.txt could not be read (the server answered 503), so no page may be.' }),
    ]);
    expect(site.hits.get('/')).toBeUndefined();
  });
});
