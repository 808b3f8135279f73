import type { Logger } from 'pino';
import type { Conversation, Store } from '../store/port.js';

// One poller per hub process for the conversations its live streams follow. The store is the
// only place that knows of a reply another hub instance took in, so each pass reads every
// watched conversation once, however many streams follow it, and hands the read to them. It
// polls only while something is watched, and a pass starts only after the last one ended, so a
// slow store slows the passes rather than piling reads up.

/** Between passes: a team reply reaches the browser within this (plus a read) at worst. */
export const WATCH_INTERVAL_MS = 250;

export type Watcher = {
  /** A read of the conversation; undefined once it is gone. */
  read(conversation: Conversation | undefined): void;
  /** The watch is over (the hub is shutting down). */
  end(): void;
};

export type ConversationWatch = {
  /** Hands `watcher` each read of the conversation from the next pass on; answers how to stop. */
  watch(chatbotId: string, conversationId: string, watcher: Watcher): () => void;
  /** Ends every watcher and stops polling; later watches start it again. */
  close(): void;
};

export type WatchOptions = { store: Store; logger: Logger; intervalMs?: number };

type Watched = { chatbotId: string; conversationId: string; watchers: Set<Watcher> };

export function createConversationWatch(options: WatchOptions): ConversationWatch {
  const { store, logger } = options;
  const intervalMs = options.intervalMs ?? WATCH_INTERVAL_MS;
  const watched = new Map<string, Watched>();
  let timer: NodeJS.Timeout | undefined;
  let passing = false;

  async function pass(): Promise<void> {
    passing = true;
    try {
      await Promise.all(
        [...watched.values()].map(async ({ chatbotId, conversationId, watchers }) => {
          try {
            const conversation = await store.conversations.find(chatbotId, conversationId);
            for (const watcher of [...watchers]) watcher.read(conversation);
          } catch (error) {
            // The next pass reads it again.
            logger.warn({ err: error, chatbotId, conversationId }, 'reading a watched conversation failed');
          }
        }),
      );
    } finally {
      passing = false;
      schedule();
    }
  }

  function schedule(): void {
    if (timer === undefined && !passing && watched.size > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        void pass();
      }, intervalMs);
    }
  }

  return {
    watch(chatbotId, conversationId, watcher) {
      const key = JSON.stringify([chatbotId, conversationId]);
      const entry = watched.get(key) ?? { chatbotId, conversationId, watchers: new Set<Watcher>() };
      entry.watchers.add(watcher);
      watched.set(key, entry);
      schedule();
      return () => {
        entry.watchers.delete(watcher);
        if (entry.watchers.size === 0 && watched.get(key) === entry) watched.delete(key);
        if (watched.size === 0) {
          clearTimeout(timer);
          timer = undefined;
        }
      };
    },
    close() {
      const watchers = [...watched.values()].flatMap((entry) => [...entry.watchers]);
      watched.clear();
      clearTimeout(timer);
      timer = undefined;
      for (const watcher of watchers) watcher.end();
    },
  };
}
