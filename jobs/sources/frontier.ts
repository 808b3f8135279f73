import type { CrawlFrontier } from '../../src/sources/crawl/index.js';
import type { Store } from '../../src/store/port.js';

// A crawl's frontier kept in the store as the website source's pages, so a crawl stopped anywhere
// continues where it was. Each run of a crawl gets a frontier object of its own: it hands out the
// planned pages after the last it handed out, so a page taken and never recorded (its run
// stopped) is handed out again by the next run's.

export function storeFrontier(store: Store, sourceId: string): CrawlFrontier {
  let handedOut = -1;
  return {
    plan: (urls) => store.sources.planPages(sourceId, urls),
    async next() {
      const page = await store.sources.nextPage(sourceId, handedOut);
      if (!page) return undefined;
      handedOut = page.seq;
      return page.url;
    },
    claimContent: (url, hash) => store.sources.claimPageContent(sourceId, url, hash),
    async record(page) {
      await store.sources.recordPage(sourceId, page);
    },
    counts: () => store.sources.pageCounts(sourceId),
  };
}
