// One spelling per page, so the frontier knows a page it has seen under another spelling. Only
// rewrites that never change which resource a server answers with: the fragment, the case of the
// scheme and host, a default port, a host's trailing dot, an empty query, dot segments and
// percent-encoding of the path (the WHATWG URL parser), and the parameters that only tell
// analytics where a visitor came from (utm_source, gclid, …): a newsletter's link to a page is
// that page. Other query parameters keep their order, and
// `/docs/index.html` stays apart from `/docs/`: servers may answer those differently, and a site
// that serves one page under both names says so with a canonical link. A user name and password
// are dropped: a crawl never sends credentials a link holds, and pages' URLs are shown in citations.

/** Query parameters that mark where a visitor came from, for analytics, and choose nothing. */
const TRACKING = /^(?:utm_\w+|gclid|gbraid|wbraid|dclid|fbclid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi)$/i;

/** The URL's one spelling (resolved against base), or undefined unless it is http(s). */
export function normaliseUrl(url: string, base?: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim(), base);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  for (const name of [...parsed.searchParams.keys()]) if (TRACKING.test(name)) parsed.searchParams.delete(name);
  // A lone '?' leaves `search` empty yet stays in `href` until `search` is set.
  if (parsed.search === '') parsed.search = '';
  if (parsed.hostname.endsWith('.')) parsed.hostname = parsed.hostname.slice(0, -1);
  return parsed.href;
}

/**
 * Whether two URLs are on one host, as a crawl counts hosts: the same host name and port, where
 * http's and https's default ports count as one (so a site that moves to https stays itself), and
 * a name and its "www." twin count as one (a site answers under both, one redirecting to the
 * other, and an owner adding "example.com" means the site that moved to www.example.com).
 */
export function sameHost(a: URL, b: URL): boolean {
  return siteName(a.hostname) === siteName(b.hostname) && a.port === b.port;
}

/**
 * The spellings of a normalised URL's page on every host sameHost counts as its own (http and
 * https, the name with and without "www."), the URL itself among them: one site's start page,
 * however an owner wrote it.
 */
export function sameHostSpellings(url: string): string[] {
  const page = new URL(url);
  const name = siteName(page.hostname);
  const spellings = ['http:', 'https:'].flatMap((protocol) =>
    [name, `www.${name}`].map((hostname) => {
      const spelling = new URL(page);
      spelling.protocol = protocol;
      // An address has no "www." twin: the setter leaves an invalid name as it was.
      spelling.hostname = hostname;
      return spelling;
    }),
  );
  return [...new Set([page, ...spellings].filter((spelling) => sameHost(spelling, page)).map((spelling) => spelling.href))];
}

const siteName = (hostname: string) => hostname.replace(/^www\./, '');
