import { extractHtml } from '../extract/index.js';
import { textOf } from './fetch-bounded.js';
import { scanPage } from './scan.js';

// What the crawl keeps of a page it fetched: its title and main content as structured text
// (extractHtml, Readability on linkedom), and from the raw HTML its canonical link and links.

export type PageJob = { body: Uint8Array; contentType: string; url: string };
export type ReadPage = { title: string; text: string; canonical?: string; links: string[] };

export function readPage({ body, contentType, url }: PageJob): ReadPage {
  const html = textOf({ body, contentType });
  const { canonical, links } = scanPage(html, url);
  const { title, text } = extractHtml(html, url);
  return { title: title ?? url, text, ...(canonical ? { canonical } : {}), links };
}
