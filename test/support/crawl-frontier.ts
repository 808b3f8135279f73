import type { CrawlFrontier, PageResult } from '../../src/sources/crawl/index.js';

// The crawl's frontier kept in memory, as the sources job keeps it in the store: the state is
// shared, the frontier objects are one per run of the crawl (each hands a URL out once). It holds
// the crawl to the frontier's contract: a URL recorded twice, or recorded without being planned,
// throws.

export type CrawlState = { planned: string[]; pages: Map<string, PageResult>; contents: Map<string, string> };

export type MemoryFrontier = CrawlFrontier & {
  state: CrawlState;
  /** The recorded pages, in the order recorded. */
  pages(): PageResult[];
  page(url: string): PageResult | undefined;
};

export function memoryFrontier(state: CrawlState = { planned: [], pages: new Map(), contents: new Map() }): MemoryFrontier {
  const known = new Set(state.planned);
  let cursor = 0;
  return {
    state,
    async plan(urls) {
      const fresh = [...new Set(urls)].filter((url) => !known.has(url));
      for (const url of fresh) known.add(url);
      state.planned.push(...fresh);
      return fresh.length;
    },
    async next() {
      while (cursor < state.planned.length) {
        const url = state.planned[cursor++] as string;
        if (!state.pages.has(url)) return url;
      }
      return undefined;
    },
    async claimContent(url, hash) {
      const holder = state.contents.get(hash);
      if (holder !== undefined && holder !== url) return holder;
      state.contents.set(hash, url);
      return undefined;
    },
    async record(page) {
      if (!known.has(page.url)) throw new Error(`${page.url} was recorded without being planned`);
      if (state.pages.has(page.url)) throw new Error(`${page.url} was recorded twice`);
      state.pages.set(page.url, page);
    },
    async counts() {
      const statuses = [...state.pages.values()].map((page) => page.status);
      return {
        total: state.planned.length,
        done: statuses.filter((status) => status === 'read').length,
        failed: statuses.filter((status) => status === 'failed').length,
      };
    },
    pages: () => [...state.pages.values()],
    page: (url) => state.pages.get(url),
  };
}
