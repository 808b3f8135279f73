import type { Logger } from 'pino';
import { waitAtMost } from '../grace.js';
import { newProcessId } from '../process-id.js';
import { trainFromSources } from '../../src/domain/sources.js';
import { crawl } from '../../src/sources/crawl/index.js';
import { extractFile, isExtractionError } from '../../src/sources/extract/index.js';
import { isOverCharLimit, type Source, type SourceChange, type Store } from '../../src/store/port.js';
import { storeFrontier } from './frontier.js';

// The sources job: files are read and websites crawled here, never in a request. A source is
// claimed under a lease, renewed while the work goes on, so any number of processes may run this
// on one store and each source is in one process's hands at a time; one that dies mid-crawl leaves
// it to be taken over when its lease ends, and the crawl continues from its recorded pages. A
// process that stops releases what it holds at once. Heavy work (extraction, chunking) runs on
// worker threads; the crawl waits on the network.

const POLL_MS = 1_000;
const LEASE_MS = 60_000;
/** Sources worked on at once by one process. */
const CONCURRENCY = 2;
/**
 * How long a stop waits for the work in progress (a large PDF's extraction may take minutes): what
 * is cut short keeps its lease unrenewed, and is taken again when the lease ends, as after a crash.
 */
const STOP_GRACE_MS = 5_000;

export type SourceWorkerOptions = {
  store: Store;
  logger: Logger;
  /** SOURCES_ALLOW_PRIVATE: websites may be on loopback and private addresses. */
  allowPrivate: boolean;
  /** SOURCES_MAX_CHARS_PER_CHATBOT. */
  maxCharsPerChatbot: number;
  /** SOURCES_MAX_READ_MEMORY_MB, in bytes: a file whose reading takes more fails saying so (extractFile's default unless given). */
  maxReadMemoryBytes?: number;
  /** SOURCES_MAX_READ_SECONDS, in milliseconds: a file whose reading takes longer fails saying so (extractFile's default unless given). */
  maxReadMs?: number;
  pollMs?: number;
  leaseMs?: number;
  /** Names this process in the claims. */
  processId?: string;
  /** Options of each crawl besides maxPages, allowPrivate and signal (tests shorten the timeouts). */
  crawl?: { pageTimeoutMs?: number; concurrency?: number };
};

export type SourceWorker = {
  readonly processId: string;
  /** Claims what is queued (up to the concurrency) and works on it; resolves when that work has ended. */
  tick(): Promise<number>;
  start(): void;
  /** Stops claiming, ends the work in progress and releases its leases, waiting at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
};

export function createSourceWorker(options: SourceWorkerOptions): SourceWorker {
  const { store, allowPrivate, maxCharsPerChatbot, maxReadMemoryBytes, maxReadMs } = options;
  const processId = options.processId ?? newProcessId();
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const log = options.logger.child({ job: 'sources', process: processId });
  const stopping = new AbortController();
  const working = new Set<Promise<void>>();

  /** Runs `work` while the lease is renewed; aborted when the process stops or the lease is lost. */
  async function holding(source: Source, work: (signal: AbortSignal) => Promise<SourceChange>): Promise<void> {
    const lost = new AbortController();
    const signal = AbortSignal.any([stopping.signal, lost.signal]);
    const renewal = setInterval(() => {
      // A stopping process renews nothing: work it cannot end within the grace is left to its lease.
      if (stopping.signal.aborted) return clearInterval(renewal);
      store.sources.renewLease(source.id, processId, new Date(Date.now() + leaseMs)).then(
        (held) => held || lost.abort(new Error('the lease was lost')),
        (error: unknown) => log.warn({ err: error, sourceId: source.id }, 'a source lease could not be renewed'),
      );
    }, leaseMs / 3);
    try {
      const change = await work(signal);
      signal.throwIfAborted();
      const { settled, undone } = await settleWithinLimit(source, change);
      if (!settled && (await deletedMeanwhile(source))) return;
      // Ready, it joins the answers; failed, a refreshed source's last reading leaves them; and a
      // training while a refused text stood, before it was undone, may have taken it in.
      if (settled || undone) await trainFromSources(store, source.chatbotId);
      log.info({ sourceId: source.id, type: source.type, status: settled?.status, chars: settled?.chars }, 'source processed');
    } catch (error) {
      // Its pages could no longer be recorded, or its lease renewed.
      if (await deletedMeanwhile(source)) return;
      if (signal.aborted) {
        if (stopping.signal.aborted) await store.sources.release(source.id, processId);
        return;
      }
      log.error({ err: error, sourceId: source.id }, 'source processing failed');
      await store.sources.settle(source.id, processId, failed('The source could not be processed because of an internal error.'));
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * Whether the source was deleted while it was worked on: then nothing is left to settle, and the
   * pages its crawl planned since are dropped (a store without foreign keys, MongoDB, keeps them).
   */
  async function deletedMeanwhile(source: Source): Promise<boolean> {
    if (await store.sources.find(source.chatbotId, source.id)) return false;
    await store.sources.clearPages(source.id);
    log.info({ sourceId: source.id }, 'source deleted while it was processed');
    return true;
  }

  /**
   * Settles the source with `change`; a text read is written within the chatbot's character limit,
   * the decision the write's (an add may have landed since the room was checked): over it, the
   * source fails saying so.
   */
  async function settleWithinLimit(source: Source, change: SourceChange): Promise<{ settled?: Source; undone?: true }> {
    const limit = change.status === 'ready' ? maxCharsPerChatbot : Infinity;
    const settled = await store.sources.settle(source.id, processId, change, limit);
    if (!isOverCharLimit(settled)) return { settled };
    // Failed, it holds no characters: that settle is not limited.
    const { settled: failedOver } = await settleWithinLimit(source, overLimit(source, change.chars ?? 0, maxCharsPerChatbot, change.pages));
    return { settled: failedOver, undone: settled.undone };
  }

  /** The room left under the chatbot's character limit for this source. */
  async function room(source: Source): Promise<number> {
    return maxCharsPerChatbot - (await store.sources.totalChars(source.chatbotId, source.id));
  }

  async function readFile(source: Source): Promise<SourceChange> {
    const bytes = await store.sources.file(source.chatbotId, source.id);
    if (!bytes) return failed('The uploaded file is missing.');
    try {
      const extracted = await extractFile(bytes, maxReadMemoryBytes, maxReadMs);
      // Checked before the text is written, which it may spare; the write decides.
      if (extracted.text.length > (await room(source))) return overLimit(source, extracted.text.length, maxCharsPerChatbot);
      const { text, contentType } = extracted;
      return { status: 'ready', error: null, text, chars: text.length, contentType, updatedAt: new Date() };
    } catch (error) {
      if (isExtractionError(error)) return failed(error.message);
      throw error;
    }
  }

  async function crawlSite(source: Source, signal: AbortSignal): Promise<SourceChange> {
    await crawl(source.url ?? '', storeFrontier(store, source.id), {
      maxPages: source.maxPages ?? 50,
      allowPrivate,
      signal,
      ...options.crawl,
    });
    const pages = await store.sources.pageCounts(source.id);
    const chars = (await store.sources.text(source.chatbotId, source.id, Number.MAX_SAFE_INTEGER)).length;
    if (pages.done === 0) {
      const [first] = await store.sources.pageList(source.chatbotId, source.id);
      return failed(first?.reason ?? 'No page of the website could be read.', pages);
    }
    return { status: 'ready', error: null, chars, pages, updatedAt: new Date() };
  }

  function work(source: Source): Promise<void> {
    const task = holding(source, (signal) => (source.type === 'website' ? crawlSite(source, signal) : readFile(source)))
      .catch((error: unknown) => log.error({ err: error, sourceId: source.id }, 'a source could not be settled'))
      .finally(() => working.delete(task));
    working.add(task);
    return task;
  }

  function claim(): Promise<Source | undefined> {
    const now = new Date();
    return store.sources.claimNext({ now, claimedBy: processId, leaseUntil: new Date(now.getTime() + leaseMs) });
  }

  async function tick(): Promise<number> {
    const started: Promise<void>[] = [];
    for (let source; working.size < CONCURRENCY && !stopping.signal.aborted && (source = await claim()); ) started.push(work(source));
    await Promise.all(started);
    return started.length;
  }

  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let passing = false;

  /** Claims while there is room; called on a timer and whenever a source is done. */
  async function pass(): Promise<void> {
    if (passing || !running) return;
    passing = true;
    try {
      for (let source; running && working.size < CONCURRENCY && (source = await claim()); ) {
        void work(source).then(pass);
      }
    } catch (error) {
      log.error({ err: error }, 'sources pass failed');
    } finally {
      passing = false;
    }
  }

  return {
    processId,
    tick,
    start() {
      if (running) return;
      running = true;
      log.info('sources job started');
      timer = setInterval(() => void pass(), options.pollMs ?? POLL_MS);
      void pass();
    },
    async stop(graceMs = STOP_GRACE_MS) {
      running = false;
      clearInterval(timer);
      stopping.abort(new Error('the process is stopping'));
      await waitAtMost(Promise.all(working), graceMs);
    },
  };
}

function failed(error: string, pages?: Source['pages']): SourceChange {
  return { status: 'failed', error, chars: 0, text: '', ...(pages ? { pages } : {}), updatedAt: new Date() };
}

function overLimit(source: Source, chars: number, limit: number, pages?: Source['pages']): SourceChange {
  const what = source.type === 'website' ? 'The website' : 'The file';
  return failed(`${what} holds ${chars} characters of text, which would take the chatbot past its limit of ${limit} characters of sources.`, pages);
}
