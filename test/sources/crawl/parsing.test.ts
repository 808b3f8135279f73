import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scanPage } from '../../../src/sources/crawl/scan.js';
import { parseSitemap, readSitemap } from '../../../src/sources/crawl/sitemap.js';

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
