import { createHash } from 'node:crypto';
import { openClient, REDIRECT_LOOP, type Client, type Unread } from './fetch-bounded.js';
import { normaliseUrl, sameHost } from './normalise.js';
import { readPageOffThread, readSitemapOffThread } from './off-thread.js';
import type { ReadPage } from './read-page.js';
import { readRobots, type Robots } from './robots.js';
import { sitemapPages } from './sitemap.js';

// A website crawl as step functions over a frontier the caller keeps: the crawl's state (which
// URLs are planned, which are recorded) lives in the frontier, so a crawl stopped anywhere (a
// restart, an abort) continues where it was when `crawl` is called again on the same frontier,
// and each page is read once. Nothing here knows the store or the routes.
//
// Rules: the crawl stays on the start URL's host (same host name and port; http and https are
// one). It reads sitemap.xml (and sitemap indexes, and sitemaps robots.txt names), follows every
// `<a href>` of the raw HTML, and honours robots.txt for the user agent. Only HTML is read; a
// page's main content is kept (extractHtml). Pages and sitemaps are parsed on a worker thread. A
// page found under another URL than it was planned under (after a redirect, or by its canonical
// link) is recorded under that URL, and the planned one is skipped as a duplicate; a redirect's
// target is planned as it is followed, and one known already (read, or to be read) is not fetched
// again: the URLs that led to it are skipped as its duplicates. A page whose main content is the
// same as a page's read already (`/` and `/index.html`, with no canonical link) is skipped as its
// duplicate too, so no text is in the material twice. Each page is
// bounded in size and time, at most `concurrency` requests run at once, and the address rule of
// webhooks applies unless `allowPrivate`.

export { normaliseUrl, sameHostSpellings } from './normalise.js';

export type CrawlOptions = {
  /** Pages read or failed at most (1..1000; the routes validate it). Others are skipped. */
  maxPages: number;
  /** Lifts the address rule (loopback, private, link-local, metadata): SOURCES_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Sent as User-Agent and matched against robots.txt. Default `Switchboard`. */
  userAgent?: string;
  /** One page's time bound, redirects included. Default 10 s. */
  pageTimeoutMs?: number;
  /** One page's size bound (decoded); a larger page fails unread past the bound. Default 2 MB. */
  maxPageBytes?: number;
  /** Requests at once. Default 2. */
  concurrency?: number;
  /** Stops the crawl: a page whose request it ends is not recorded; `crawl` rejects with its reason. */
  signal?: AbortSignal;
};

export type PageStatus = 'read' | 'failed' | 'skipped';

export type PageResult = {
  url: string;
  /** The page's title (extractHtml's: its heading that its `<title>` holds…), empty unless read. */
  title: string;
  status: PageStatus;
  /** Characters of `text`. */
  chars: number;
  /** The page's main content as text; empty unless read. */
  text: string;
  /** One plain sentence when failed or skipped (robots, off-host, a duplicate, past maxPages…). */
  reason?: string;
};

/**
 * The crawl's persisted state, implemented by the caller (the sources job keeps it in the
 * store). A URL is known once planned; `next` hands out planned URLs not yet recorded.
 */
export type CrawlFrontier = {
  /** Adds URLs to plan (already normalised); ignores ones already known. Answers how many were new. */
  plan(urls: string[]): Promise<number>;
  /**
   * Takes the next planned URL that is not recorded, in the order planned, or undefined when none
   * is left. A URL it has handed out is not handed out again by this frontier object; a URL taken
   * and never recorded (its crawl stopped) is handed out again by a new one, so each run of the
   * crawl gets a frontier object of its own over the same state.
   */
  next(): Promise<string | undefined>;
  /**
   * Gives the main content of this hash (a page's text) to the page recorded under `url`, unless
   * another page holds it already: then answers that page's URL. Atomic, kept with the state, so
   * it holds across runs; a page asking again for the content it holds is given it.
   */
  claimContent(url: string, hash: string): Promise<string | undefined>;
  /** Records a planned page's outcome. */
  record(page: PageResult): Promise<void>;
  /** Counts: known (planned) so far, read, failed. */
  counts(): Promise<{ total: number; done: number; failed: number }>;
};

const DEFAULTS = { userAgent: 'Switchboard', pageTimeoutMs: 10_000, maxPageBytes: 2 * 1024 * 1024, concurrency: 2 };

/** URLs the frontier may know per page of maxPages: room for skipped ones, yet a bound. */
const KNOWN_PER_PAGE = 10;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const isHtml = (contentType: string) => HTML_TYPES.has(contentType.split(';')[0]?.trim().toLowerCase() ?? '');

/**
 * Seeds the frontier (the start URL, then the sitemaps' pages) and reads pages until maxPages are
 * read or failed or the frontier is empty; what is left is skipped. Resumable: called again on a
 * frontier with state, it continues (and seeds nothing).
 */
export async function crawl(startUrl: string, frontier: CrawlFrontier, options: CrawlOptions): Promise<void> {
  const start = normaliseUrl(startUrl);
  if (!start) throw new TypeError(`${startUrl} is not an http or https URL`);
  options.signal?.throwIfAborted();
  const settings = { ...DEFAULTS, ...withoutUndefined(options) };
  // Ended by the caller's signal, or by a failure of the frontier (which ends the pages in flight).
  const stop = new AbortController();
  const forward = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', forward, { once: true });
  const client = openClient({
    userAgent: settings.userAgent,
    allowPrivate: settings.allowPrivate,
    timeoutMs: settings.pageTimeoutMs,
    maxBytes: settings.maxPageBytes,
    concurrency: settings.concurrency,
    signal: stop.signal,
  });
  try {
    const origin = new URL(start);
    const robots = await readRobots(origin, client, settings.userAgent);
    const knownLimit = settings.maxPages * KNOWN_PER_PAGE;
    if ((await frontier.counts()).total === 0) {
      const pages = await sitemapPages(client, {
        roots: [new URL('/sitemap.xml', origin).href, ...robots.sitemaps],
        onHost: (url) => sameHost(url, origin),
        limit: knownLimit - 1,
        maxBytes: settings.maxPageBytes,
        read: readSitemapOffThread,
      });
      await frontier.plan([start, ...pages.filter((page) => page !== start)]);
    }
    await readPages({ frontier, client, robots, origin, settings, stop, knownLimit });
  } finally {
    options.signal?.removeEventListener('abort', forward);
    client.close();
  }
}

type Run = {
  frontier: CrawlFrontier;
  client: Client;
  robots: Robots;
  origin: URL;
  settings: typeof DEFAULTS & CrawlOptions;
  stop: AbortController;
  knownLimit: number;
};

/** The crawl's loop: up to `concurrency` pages at once while maxPages allows, then the sweep. */
async function readPages(run: Run): Promise<void> {
  const { frontier, settings, stop } = run;
  const { done, failed } = await frontier.counts();
  const state: RunState = { tried: done + failed, claimed: new Set<string>(), redirects: new Map(), serial: serially() };
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const startPage = (url: string) => {
    const task = visit(run, state, url)
      .catch((error: unknown) => {
        failure ??= { error };
        stop.abort(error);
      })
      .finally(() => running.delete(task));
    running.add(task);
  };

  try {
    while (!stop.signal.aborted) {
      if (running.size < settings.concurrency && state.tried + running.size < settings.maxPages) {
        const url = await take(run, state);
        if (url) {
          const refused = refusal(run, new URL(url));
          if (refused) await frontier.record(skipped(url, refused));
          else startPage(url);
          continue;
        }
      }
      if (!running.size) break;
      await Promise.race(running);
    }
  } catch (error) {
    failure ??= { error };
    stop.abort(error);
  }
  await Promise.all(running);
  if (failure) throw failure.error;
  stop.signal.throwIfAborted();

  // maxPages reached: what is left is skipped, each for its own reason.
  for (let url = await take(run, state); url; url = await take(run, state)) {
    const reason = refusal(run, new URL(url)) ?? `It is past the crawl's limit of ${settings.maxPages} pages (maxPages).`;
    await frontier.record(skipped(url, reason));
  }
}

type RunState = {
  /** Pages read or failed, for maxPages. */
  tried: number;
  /** URLs this run planned to record itself (pages found under them): not to be read again. */
  claimed: Set<string>;
  /**
   * URLs this run recorded as duplicates of the redirect target they lead to, by URL: how a
   * redirect loop over pages planned already shows (a restarted run does not know the earlier's).
   */
  redirects: Map<string, string>;
  /** Runs the frontier's steps that must not interleave with another task's. */
  serial: <T>(step: () => Promise<T>) => Promise<T>;
};

/** The next planned URL this run has not claimed. */
async function take(run: Run, state: RunState): Promise<string | undefined> {
  for (;;) {
    const url = await state.serial(() => run.frontier.next());
    if (!url || !state.claimed.has(url)) return url;
  }
}

/** Why the crawl may not read this URL (another host, robots.txt), or undefined. */
function refusal({ origin, robots }: Run, url: URL): string | undefined {
  if (!sameHost(url, origin)) return `It is on another host (${url.host}).`;
  return robots.refuses(url);
}

/** Why the crawl may not follow a redirect to this URL, or undefined. */
function hopRefusal(run: Run, url: URL): string | undefined {
  if (!sameHost(url, run.origin)) return `It redirects to another host (${url.href}).`;
  return run.robots.refuses(url) && `It redirects to ${url.href}, which robots.txt disallows for ${run.settings.userAgent}.`;
}

async function visit(run: Run, state: RunState, url: string): Promise<void> {
  // The URLs this visit records: the one taken, then each redirect's target it claimed on the way.
  const names = [url];
  let duplicateOf: string | undefined;
  const refusedHop = async (hop: URL): Promise<Unread | undefined> => {
    const refused = hopRefusal(run, hop);
    if (refused) return { outcome: 'skipped', reason: refused };
    const claimed = await claimHop(run, state, names, hop.href);
    if (claimed === 'loop') return { outcome: 'failed', reason: REDIRECT_LOOP };
    if (claimed === 'known') {
      duplicateOf = hop.href;
      return { outcome: 'skipped', reason: duplicateText(hop.href) };
    }
    return undefined;
  };
  const fetched = await run.client.get(new URL(url), { accepts: isHtml, refusedHop });
  if (duplicateOf) return recordDuplicates(run, names, duplicateOf);
  if (!fetched.ok) return recordUnread(run, state, names, fetched);
  const job = { body: fetched.body, contentType: fetched.contentType, url: fetched.url };
  const page = await readPageOffThread(job).catch(() => undefined);
  if (!page) return recordUnread(run, state, names, { outcome: 'failed', reason: 'Its HTML could not be read.' });
  if (titleAlone(page)) {
    await plan(run, page.links);
    return recordUnread(run, state, names, { outcome: 'failed', reason: TITLE_ALONE });
  }
  const canonical = page.canonical && !refusal(run, new URL(page.canonical)) ? page.canonical : undefined;
  const home = canonical ?? fetched.url;
  if (!names.includes(home) && !(await state.serial(() => claim(run, state, home)))) return recordDuplicates(run, names, home);
  const original = await run.frontier.claimContent(home, contentHash(page.text));
  if (original) return recordDuplicates(run, names.includes(home) ? names : [...names, home], original);
  state.tried += 1;
  // Links are planned before the page is recorded: a crawl stopped in between reads it again.
  await plan(run, page.links);
  await run.frontier.record({ url: home, title: page.title, status: 'read', chars: page.text.length, text: page.text });
  await recordDuplicates(run, names.filter((name) => name !== home), home);
}

/** Records the last of a visit's URLs unread (where its request ended), the others as its duplicates. */
async function recordUnread(run: Run, state: RunState, names: string[], { outcome, reason }: Unread): Promise<void> {
  const last = names.at(-1) as string;
  if (outcome === 'failed') state.tried += 1;
  await run.frontier.record({ url: last, title: '', status: outcome, chars: 0, text: '', reason });
  await recordDuplicates(run, names.slice(0, -1), last);
}

async function recordDuplicates(run: Run, names: string[], of: string): Promise<void> {
  for (const name of names) await run.frontier.record(skipped(name, duplicateText(of)));
}

const duplicateText = (url: string) => `It is a duplicate of ${url}.`;

const TITLE_ALONE = 'It has no text but its title: a page drawn by JavaScript, which the crawl does not run, shows nothing else.';

/** Whether a page read holds nothing but its title (as its heading): an app's empty shell, whose text its scripts draw. */
const titleAlone = ({ title, text }: ReadPage): boolean =>
  text.split('\n').every((line) => line.trim() === '' || (/^#+ /.test(line) && line.replace(/^#+ /, '').trim() === title.trim()));

const contentHash = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Plans the URL a page was found under, for this run to record; false when it is known already
 * (read, or to be read, under that URL). Run it in `state.serial`, as `take` is, so no task takes
 * the URL meanwhile.
 */
async function claim(run: Run, state: RunState, url: string): Promise<boolean> {
  if (!(await run.frontier.plan([url]))) return false;
  state.claimed.add(url);
  return true;
}

/**
 * Claims a redirect's target for a visit (adding it to the visit's names), as a page found under
 * it: 'known' when it is read, or to be read, already, so the visit's URLs are its duplicates and
 * it is not fetched again; 'loop' when it is known because it redirects (as this run saw) back to
 * one of the visit's URLs.
 */
function claimHop(run: Run, state: RunState, names: string[], target: string): Promise<'claimed' | 'known' | 'loop'> {
  return state.serial(async () => {
    if (await claim(run, state, target)) {
      names.push(target);
      return 'claimed';
    }
    for (let at: string | undefined = target; at; at = state.redirects.get(at)) {
      if (names.includes(at)) return 'loop';
    }
    for (const name of names) state.redirects.set(name, target);
    return 'known';
  });
}

/** Plans links up to the known limit, those the crawl may read first. */
async function plan(run: Run, links: string[]): Promise<void> {
  const room = run.knownLimit - (await run.frontier.counts()).total;
  if (room <= 0) return;
  const refused = new Set(links.filter((link) => refusal(run, new URL(link))));
  const readableFirst = [...links.filter((link) => !refused.has(link)), ...refused];
  await run.frontier.plan(readableFirst.slice(0, room));
}

const skipped = (url: string, reason: string): PageResult => ({ url, title: '', status: 'skipped', chars: 0, text: '', reason });

/** A queue of async steps, each started when the one before has settled. */
function serially() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(step: () => Promise<T>): Promise<T> => {
    const result = last.then(step);
    last = result.catch(() => undefined);
    return result;
  };
}

function withoutUndefined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
}
