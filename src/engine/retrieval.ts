import type { Store } from '../store/port.js';
import { buildLexicalIndex, lexicalSearcher, type LexicalSearcher, type Passage, type Query } from './lexical-index.js';

// Full-text retrieval over a chatbot's training chunks. Each process builds a lexical index
// from the store's material and keeps it while the material's version stands, so every hub
// instance answers from the same material, and a retrain (a new version) is picked up by the
// next question without a restart. An index is built from one consistent snapshot, so a chat
// during a retrain sees the old material or the new, never a mix.

export type { Passage, Query };

type Entry = { version: string; search: LexicalSearcher };

export type Retriever = {
  search(chatbotId: string, query: Query, limit?: number): Promise<Passage[]>;
};

const DEFAULT_CACHED_CHATBOTS = 64;

export function createRetriever(store: Store, maxCached = DEFAULT_CACHED_CHATBOTS): Retriever {
  const cache = new Map<string, Entry>();
  const building = new Map<string, Promise<Entry | undefined>>();

  async function entryFor(chatbotId: string): Promise<Entry | undefined> {
    const version = await store.training.version(chatbotId);
    if (version === undefined) return undefined;
    const cached = cache.get(chatbotId);
    if (cached?.version === version) {
      // Re-insert: Map order is the least-recently-used order the eviction below relies on.
      cache.delete(chatbotId);
      cache.set(chatbotId, cached);
      return cached;
    }
    const key = `${chatbotId}@${version}`;
    let pending = building.get(key);
    if (!pending) {
      pending = build(chatbotId).finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  }

  async function build(chatbotId: string): Promise<Entry | undefined> {
    const material = await store.training.material(chatbotId);
    if (material.version === undefined) return undefined;
    const entry: Entry = { version: material.version, search: lexicalSearcher(buildLexicalIndex(material.chunks)) };
    cache.set(chatbotId, entry);
    while (cache.size > maxCached) cache.delete(cache.keys().next().value as string);
    return entry;
  }

  return {
    async search(chatbotId, query, limit = 4) {
      const entry = await entryFor(chatbotId);
      if (!entry) return [];
      return entry.search(query, limit);
    },
  };
}
