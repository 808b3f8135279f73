import robotsParserModule from 'robots-parser';
import { textOf, type Client } from './fetch-bounded.js';

// robots.txt as RFC 9309 reads it: rules when it answers, no rules when it is missing (4xx),
// nothing allowed while the server fails (5xx). A site that cannot be reached at all gets no
// rules: its pages then fail one by one with the reason (an address refused, a time-out), which
// says more than "robots.txt could not be read".

// The package is CommonJS whose module.exports is the function; its types call it the default.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export type Robots = {
  /** Why robots.txt keeps the crawl from this URL (on the crawl's host), or undefined. */
  refuses(url: URL): string | undefined;
  /** The sitemaps robots.txt names. */
  sitemaps: string[];
};

export async function readRobots(origin: URL, client: Client, userAgent: string): Promise<Robots> {
  const robotsUrl = new URL('/robots.txt', origin);
  const fetched = await client.get(robotsUrl);
  if (fetched.ok) {
    const rules = robotsParser(robotsUrl.href, textOf(fetched));
    // The rules are matched on the path: http and https pages of the host share one robots.txt.
    const onOrigin = (url: URL) => new URL(url.pathname + url.search, robotsUrl).href;
    return {
      refuses: (url) =>
        rules.isDisallowed(onOrigin(url), userAgent) ? `robots.txt disallows it for ${userAgent}.` : undefined,
      sitemaps: rules.getSitemaps(),
    };
  }
  if (fetched.httpStatus && fetched.httpStatus >= 500) {
    const reason = `robots.txt could not be read (the server answered ${fetched.httpStatus}), so no page may be.`;
    return { refuses: () => reason, sitemaps: [] };
  }
  return { refuses: () => undefined, sitemaps: [] };
}
