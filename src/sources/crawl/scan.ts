import { Parser } from 'htmlparser2';
import { normaliseUrl } from './normalise.js';

// What the crawl needs from a page's raw HTML, in one streaming pass without building a DOM: its
// canonical link and every link (`<a href>`), resolved against `<base href>` when the page has
// one. Links come from the whole page, navigation included, not only from the readable content.

export type PageScan = { canonical?: string; links: string[] };

export function scanPage(html: string, url: string): PageScan {
  let base = url;
  let canonicalHref: string | undefined;
  const hrefs: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const href = attributes.href;
        if (name === 'a' && href) hrefs.push(href);
        else if (name === 'base' && href && base === url) base = normaliseUrl(href, url) ?? url;
        else if (name === 'link' && href && !canonicalHref && relTokens(attributes.rel).includes('canonical')) {
          canonicalHref = href;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  const links = new Set<string>();
  for (const href of hrefs) {
    const link = normaliseUrl(href, base);
    if (link) links.add(link);
  }
  const canonical = canonicalHref && normaliseUrl(canonicalHref, base);
  return { ...(canonical ? { canonical } : {}), links: [...links] };
}

const relTokens = (rel: string | undefined) => (rel ?? '').toLowerCase().split(/\s+/);
