import type { Logger } from 'pino';
import type { PlatformWords } from './platform-words.js';
import { crawlPagesText } from './crawl-pages.js';
import { HubApiError, type HubClient, type SourceItem } from './hub-client.js';

// After `/chatbot learn <url>`: the website is read by the hub's sources job, in the background.
// A watch asks the hub for the chatbot's sources now and then and says in the channel when the
// site is ready or has failed. It lives in the adapter's memory only: bounded in time and in
// number, it ends with the adapter (a restart forgets it; `/chatbot sources` still tells).

/** A website `learn` started: what to watch and how to name it. */
export type Learning = { chatbotId: string; chatbotName: string; sourceId: string; url: string };

export type LearnWatchOptions = {
  logger: Logger;
  /** Between two looks at the chatbot's sources. */
  intervalMs?: number;
  /** How long a watch lasts, within the time the platform takes a command's answers for; then it says the site is still being read. */
  timeoutMs: number;
};

export type LearnWatcher = {
  /**
   * Watches the source, posting (through `post`) where the command was typed once it is done;
   * answers false when it will not (too many watches, or stopped).
   */
  watch(job: { hub: HubClient; learning: Learning; words: PlatformWords; post(text: string): Promise<unknown> }): boolean;
  /** Ends every watch at once (the adapter stopping); nothing more is posted. */
  stop(): void;
};

const INTERVAL_MS = 5_000;
/** Watches at once; a `learn` beyond them is only answered, and `/chatbot sources` tells the rest. */
const MAX_WATCHES = 50;

/** What `learn` answers: the site is being read, as a new source or (`known`) as the one the chatbot has of it. */
export function learnStartedText({ chatbotName, url }: Learning, watched: boolean, words: PlatformWords, known = false): string {
  const reading = known
    ? `${chatbotName} has ${url} among its sources already, so it reads that source again rather than learn the site twice.`
    : `${chatbotName} is reading ${url}.`;
  return `${reading} ${watched ? "I'll say here when it is ready." : `It answers from the site once it is ready: see \`${words.command} sources\`.`}`;
}

const learnReadyText = ({ chatbotName, url }: Learning, source: SourceItem) =>
  `${chatbotName} has read ${url}${source.pages ? ` (${crawlPagesText(source)})` : ''} and answers from it now.`;

const learnFailedText = ({ chatbotName, url }: Learning, source: SourceItem) =>
  `${chatbotName} could not read ${url}: ${source.error ?? 'the site could not be read.'}`;

const learnSlowText = ({ chatbotName, url }: Learning, words: PlatformWords) =>
  `${chatbotName} is still reading ${url}; \`${words.command} sources\` shows how far it has got.`;

export function createLearnWatcher({ logger, intervalMs = INTERVAL_MS, timeoutMs }: LearnWatchOptions): LearnWatcher {
  const timers = new Set<NodeJS.Timeout>();
  let active = 0;
  let stopped = false;

  return {
    watch({ hub, learning, words, post }) {
      if (stopped || active >= MAX_WATCHES) return false;
      active += 1;
      const deadline = Date.now() + timeoutMs;
      const say = (text: string) =>
        post(text).catch((error: unknown) => logger.warn({ err: error, sourceId: learning.sourceId }, 'could not post where a website was learned'));

      const look = async (): Promise<string | undefined> => {
        try {
          const source = (await hub.listSources(learning.chatbotId)).find((item) => item.id === learning.sourceId);
          // Removed meanwhile: nothing to tell.
          if (!source) return '';
          if (source.status === 'ready') return learnReadyText(learning, source);
          if (source.status === 'failed') return learnFailedText(learning, source);
        } catch (error) {
          // The chatbot deleted meanwhile: nothing to tell.
          if (error instanceof HubApiError && error.status === 404) return '';
          // The hub out of reach for a moment: the next look may fare better.
          logger.warn({ err: error, sourceId: learning.sourceId }, 'could not look at a website being learned');
        }
        return Date.now() >= deadline ? learnSlowText(learning, words) : undefined;
      };

      const next = () => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void look().then(async (text) => {
            if (text === undefined && !stopped) return next();
            active -= 1;
            if (text && !stopped) await say(text);
          });
        }, intervalMs);
        timer.unref();
        timers.add(timer);
      };
      next();
      return true;
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
