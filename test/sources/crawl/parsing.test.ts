import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readPageOffThread, readSitemapOffThread } from '../../../src/sources/crawl/off-thread.js';
import { readPage } from '../../../src/sources/crawl/read-page.js';
import { scanPage } from '../../../src/sources/crawl/scan.js';
import { parseSitemap, readSitemap } from '../../../src/sources/crawl/sitemap.js';
import { countTurns } from '../../support/event-loop.js';
import { htmlOf, MEETING_ROOMS, UNSHOWN } from '../extract/documents.js';

describe('scanPage', () => {
  it('finds the canonical link and every link of the raw HTML, resolved against <base>', () => {
    const html = `<html><head><title> Prices &amp;
      plans </title><link rel="alternate canonical" href="plans"><base href="https://example.com/shop/"></head>
      <body><nav><a href="/">Home</a></nav><a href="plans#monthly">Monthly</a><a href="mailto:x@example.com">Mail</a>
      <a name="anchor">No link</a><a href="https://other.example/">Away</a><svg><title>Icon</title></svg></body></html>`;
    expect(scanPage(html, 'https://example.com/shop/prices')).toEqual({
      canonical: 'https://example.com/shop/plans',
      links: ['https://example.com/', 'https://example.com/shop/plans', 'https://other.example/'],
    });
  });

  it('answers no canonical link when the page has none', () => {
    expect(scanPage('<p>Hello <a href="/a">a</a></p>', 'http://example.com/x')).toEqual({ links: ['http://example.com/a'] });
  });
});

describe('readPage', () => {
  it('keeps none of the text a browser does not show, and the panels a visitor opens', () => {
    const html = `<html><head><title>Hours</title></head><body><main><h1>Hours</h1><p>Open 9 to 5.</p>${UNSHOWN.html}</main></body></html>`;
    const { text } = readPage({ body: new TextEncoder().encode(html), contentType: 'text/html', url: 'https://example.com/hours' });
    expect(text).toBe(['# Hours', 'Open 9 to 5.', ...UNSHOWN.opened].join('\n\n'));
    for (const word of UNSHOWN.words) expect(text).not.toContain(word);
  });
});

describe('parseSitemap', () => {
  it('reads the pages of a url set and the sitemaps of an index, namespace prefixes or not', () => {
    expect(
      parseSitemap(`<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:url><sm:loc> https://example.com/a </sm:loc><sm:lastmod>2026-01-01</sm:lastmod></sm:url>
        <sm:url><sm:loc>https://example.com/b?x=1&amp;y=2</sm:loc></sm:url></sm:urlset>`),
    ).toEqual({ pages: ['https://example.com/a', 'https://example.com/b?x=1&y=2'], sitemaps: [] });
    expect(parseSitemap('<sitemapindex><sitemap><loc>https://example.com/s1.xml</loc></sitemap></sitemapindex>')).toEqual({
      pages: [],
      sitemaps: ['https://example.com/s1.xml'],
    });
  });
});

describe('readSitemap', () => {
  const urlset = `<urlset>${Array.from({ length: 100 }, (_, index) => `<url><loc>https://example.com/${index}</loc></url>`).join('')}</urlset>`;

  it('unzips a gzipped sitemap within the size bound, and lists nothing past it', () => {
    const body = gzipSync(urlset);
    expect(readSitemap({ body, contentType: 'application/gzip', maxBytes: 1024 * 1024 }).pages).toHaveLength(100);
    expect(readSitemap({ body, contentType: 'application/gzip', maxBytes: 1000 })).toEqual({ pages: [], sitemaps: [] });
  });
});

describe('parsing off the event loop', () => {
  // Pages and sitemaps are parsed synchronously (linkedom, Readability, htmlparser2): on the
  // calling thread, no turn of the event loop would run meanwhile.
  it('reads a page and a sitemap on a worker thread: the event loop keeps turning meanwhile', async () => {
    const long = htmlOf({ ...MEETING_ROOMS, sections: Array.from({ length: 500 }, () => MEETING_ROOMS.sections).flat() });
    const pageTurns = countTurns();
    const page = await readPageOffThread({ body: new TextEncoder().encode(long), contentType: 'text/html', url: 'https://example.com/rooms' });
    pageTurns.stop();
    expect(page.text.match(/^Room: Kestrel; Floor: 3; Code: KES-4105$/gm)).toHaveLength(500);
    expect(pageTurns.count).toBeGreaterThan(10);

    const urlset = `<urlset>${Array.from({ length: 20_000 }, (_, index) => `<url><loc>https://example.com/${index}</loc></url>`).join('')}</urlset>`;
    const sitemapTurns = countTurns();
    const listed = await readSitemapOffThread({ body: new TextEncoder().encode(urlset), contentType: 'application/xml', maxBytes: 2 * 1024 * 1024 });
    sitemapTurns.stop();
    expect(listed.pages).toHaveLength(20_000);
    expect(sitemapTurns.count).toBeGreaterThan(10);
  });
});
