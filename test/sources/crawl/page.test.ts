import { describe, expect, it } from 'vitest';
import { pageText } from '../../../src/sources/crawl/page-text.js';
import { scanPage } from '../../../src/sources/crawl/scan.js';
import { parseSitemap } from '../../../src/sources/crawl/sitemap.js';
import { page } from '../../support/website.js';

describe('scanPage', () => {
  it('finds the title, the canonical link and every link of the raw HTML, resolved against <base>', () => {
    const html = `<html><head><title> Prices &amp;
      plans </title><link rel="alternate canonical" href="plans"><base href="https://example.com/shop/"></head>
      <body><nav><a href="/">Home</a></nav><a href="plans#monthly">Monthly</a><a href="mailto:x@example.com">Mail</a>
      <a name="anchor">No link</a><a href="https://other.example/">Away</a><svg><title>Icon</title></svg></body></html>`;
    expect(scanPage(html, 'https://example.com/shop/prices')).toEqual({
      title: 'Prices & plans',
      canonical: 'https://example.com/shop/plans',
      links: ['https://example.com/', 'https://example.com/shop/plans', 'https://other.example/'],
    });
  });

  it('answers an empty title and no canonical link when the page has none', () => {
    expect(scanPage('<p>Hello <a href="/a">a</a></p>', 'http://example.com/x')).toEqual({ title: '', links: ['http://example.com/a'] });
  });
});

describe('pageText', () => {
  const paragraph = (topic: string) =>
    `<p>${topic} is explained here at length, so that a reader finds, in one place, everything the handbook knows about ${topic}, with examples and the reasons behind each rule.</p>`;

  it('keeps an article’s content and drops the navigation, a sidebar, header, footer and scripts', () => {
    const html = page('Returns', `<h2>Refunds</h2>${paragraph('refunds')}${paragraph('exchanges')}<h3>Steps</h3><ol><li>Pack it</li><li>Ship it</li></ol>`, {
      links: ['/home', '/prices'],
    }).replace('</main>', '</main><div class="sidebar"><p><a href="/a">Related: the sidebar’s first article</a>, <a href="/b">and its second</a></p></div>');
    const text = pageText(html);
    expect(text).toMatch(/^## Refunds$/m);
    expect(text).toMatch(/^### Steps$/m);
    expect(text).toMatch(/^Pack it$/m);
    expect(text).toContain('refunds is explained here at length');
    for (const left of ['/home', 'Site header', 'Site footer', 'tracking', 'sidebar']) expect(text).not.toContain(left);
  });

  it('keeps a short page’s body without its navigation, header, footer and scripts', () => {
    const text = pageText(page('Hours', '<p>Open at nine.</p>', { links: ['/home'] }));
    expect(text).toBe('# Hours\nOpen at nine.');
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
