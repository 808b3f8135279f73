import { describe, expect, it } from 'vitest';
import { normaliseUrl } from '../../../src/sources/crawl/index.js';
import { sameHost, sameHostSpellings } from '../../../src/sources/crawl/normalise.js';

describe('normaliseUrl', () => {
  it.each([
    ['HTTP://Example.COM:80/a#part', 'http://example.com/a'],
    ['https://example.com:443', 'https://example.com/'],
    ['http://example.com./docs?', 'http://example.com/docs'],
    ['http://example.com/a/./b/../c', 'http://example.com/a/c'],
    ['http://example.com/search?b=2&a=1', 'http://example.com/search?b=2&a=1'],
    ['http://example.com/docs/index.html', 'http://example.com/docs/index.html'],
    ['http://example.com:8080/', 'http://example.com:8080/'],
    ['http://bob:hunter2@example.com/a', 'http://example.com/a'],
    ['https://example.com/blog/flossing.html?utm_source=newsletter&utm_medium=email', 'https://example.com/blog/flossing.html'],
    ['https://example.com/search?q=floss&gclid=abc&page=2&fbclid=x', 'https://example.com/search?q=floss&page=2'],
  ])('spells %s as %s', (url, expected) => {
    expect(normaliseUrl(url)).toBe(expected);
  });

  it('resolves a link against its page', () => {
    expect(normaliseUrl('../guide#setup', 'https://example.com/docs/api/')).toBe('https://example.com/docs/guide');
    expect(normaliseUrl('//cdn.example.com/x', 'https://example.com/')).toBe('https://cdn.example.com/x');
  });

  it.each(['mailto:team@example.com', 'javascript:void(0)', 'ftp://example.com/file', 'tel:+3721234', 'not a url', ''])(
    'answers nothing for %j',
    (url) => {
      expect(normaliseUrl(url)).toBeUndefined();
    },
  );
});

describe('sameHost', () => {
  const same = (a: string, b: string) => sameHost(new URL(a), new URL(b));

  it('counts http and https on their default ports as one host', () => {
    expect(same('http://example.com/a', 'https://EXAMPLE.com/b')).toBe(true);
    expect(same('http://example.com:8080/', 'https://example.com:8080/')).toBe(true);
  });

  it('counts a name and its www. twin as one host: an apex redirecting to www, or back, is the site', () => {
    expect(same('https://example.com/', 'https://www.example.com/a')).toBe(true);
    expect(same('https://www.example.com/', 'http://example.com/')).toBe(true);
  });

  it('tells apart other names and other ports', () => {
    expect(same('https://example.com/', 'https://docs.example.com/')).toBe(false);
    expect(same('https://www.example.com/', 'https://www.example.org/')).toBe(false);
    expect(same('https://example.com/', 'https://wwwexample.com/')).toBe(false);
    expect(same('https://example.com/', 'https://example.com:8443/')).toBe(false);
    expect(same('http://example.com:8080/', 'https://example.com/')).toBe(false);
  });
});

describe('sameHostSpellings', () => {
  it('spells a page on both schemes, with and without www., its path and query kept', () => {
    expect(sameHostSpellings('https://www.example.com/help/?lang=en').sort()).toEqual([
      'http://example.com/help/?lang=en',
      'http://www.example.com/help/?lang=en',
      'https://example.com/help/?lang=en',
      'https://www.example.com/help/?lang=en',
    ]);
    expect(sameHostSpellings('http://example.com:8080/').sort()).toEqual([
      'http://example.com:8080/',
      'http://www.example.com:8080/',
      'https://example.com:8080/',
      'https://www.example.com:8080/',
    ]);
  });

  it('gives only spellings sameHost counts as the page’s host', () => {
    // An address has no www. twin, and https on port 80 is not http's default port.
    expect(sameHostSpellings('http://127.0.0.1:9/').sort()).toEqual(['http://127.0.0.1:9/', 'https://127.0.0.1:9/']);
    expect(sameHostSpellings('https://example.com:80/').sort()).toEqual(['https://example.com:80/', 'https://www.example.com:80/']);
    for (const url of ['https://www.www.example.com/', 'https://example.com/a']) {
      for (const spelling of sameHostSpellings(url)) expect(sameHost(new URL(spelling), new URL(url)), spelling).toBe(true);
    }
  });
});
