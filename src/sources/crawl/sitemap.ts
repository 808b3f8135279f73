import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { textOf, type Client } from './fetch-bounded.js';
import { normaliseUrl } from './normalise.js';

// The pages a site's sitemaps list (sitemaps.org): `<urlset>` files give pages, `<sitemapindex>`
// files give further sitemaps. Gzipped sitemaps are read too. Bounded: at most MAX_SITEMAPS files,
// each within the crawl's size bound, and no more pages than the caller can use.

const MAX_SITEMAPS = 50;

export type SitemapOptions = {
  /** Sitemaps to start from: /sitemap.xml and those robots.txt names. */
  roots: string[];
  /** Whether a sitemap or page URL may be fetched (the crawl's host). */
  onHost(url: URL): boolean;
  /** At most this many pages are answered. */
  limit: number;
  /** The size bound of a sitemap unzipped (its bytes are bound by the client). */
  maxBytes: number;
  /** Reads a sitemap fetched (readSitemap, on the crawl's worker thread). */
  read(job: SitemapJob): Promise<Listed>;
};

export type SitemapJob = { body: Uint8Array; contentType: string; maxBytes: number };
export type Listed = { pages: string[]; sitemaps: string[] };

const NOTHING_LISTED: Listed = { pages: [], sitemaps: [] };

/** The normalised URLs of the pages listed, in their order, without repeats. */
export async function sitemapPages(client: Client, { roots, onHost, limit, maxBytes, read }: SitemapOptions): Promise<string[]> {
  const pages = new Set<string>();
  const queue = [...new Set(roots.map((root) => normaliseUrl(root)).filter((url) => url !== undefined))];
  const fetchedOnce = new Set<string>();
  while (queue.length && fetchedOnce.size < MAX_SITEMAPS && pages.size < limit) {
    const url = queue.shift() as string;
    if (fetchedOnce.has(url) || !onHost(new URL(url))) continue;
    fetchedOnce.add(url);
    const fetched = await client.get(new URL(url));
    if (!fetched.ok) continue;
    // A sitemap that cannot be read leaves the crawl to the links.
    const listed = await read({ body: fetched.body, contentType: fetched.contentType, maxBytes }).catch(() => NOTHING_LISTED);
    for (const page of listed.pages) {
      const normalised = normaliseUrl(page);
      if (normalised && pages.size < limit) pages.add(normalised);
    }
    queue.push(...listed.sitemaps.map((sitemap) => normaliseUrl(sitemap)).filter((sitemap) => sitemap !== undefined));
  }
  return [...pages];
}

/** A sitemap's pages and further sitemaps, from its bytes (unzipped when it is a gzip file). */
export function readSitemap({ body, contentType, maxBytes }: SitemapJob): Listed {
  const gzipped = body[0] === 0x1f && body[1] === 0x8b;
  if (!gzipped) return parseSitemap(textOf({ body, contentType }));
  try {
    return parseSitemap(gunzipSync(body, { maxOutputLength: maxBytes }).toString('utf8'));
  } catch {
    // Larger than maxBytes unzipped, or not gzip after all.
    return NOTHING_LISTED;
  }
}

/** The `<loc>` of each `<url>` (pages) and each `<sitemap>` (further sitemaps). */
export function parseSitemap(xml: string): Listed {
  const pages: string[] = [];
  const sitemaps: string[] = [];
  const open: string[] = [];
  let loc = '';
  const parser = new Parser(
    {
      onopentag(name) {
        open.push(localName(name));
        if (localName(name) === 'loc') loc = '';
      },
      ontext(text) {
        if (open.at(-1) === 'loc') loc += text;
      },
      onclosetag(name) {
        open.pop();
        if (localName(name) !== 'loc') return;
        const parent = open.at(-1);
        if (parent === 'url') pages.push(loc.trim());
        if (parent === 'sitemap') sitemaps.push(loc.trim());
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  return { pages, sitemaps };
}

/** An element's name without a namespace prefix (`<sm:loc>` is `<loc>`). */
const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
