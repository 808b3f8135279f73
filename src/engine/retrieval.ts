import { createHash } from 'node:crypto';
import type { CurrentRuns, Material, MaterialRun, Store } from '../store/port.js';
import { contentHash, embedChunks, nearestChunks, normalized, type Embedder, type VectorTable } from './embeddings.js';
import { fuseRankings } from './fusion.js';
import { createByteCache } from './index-cache.js';
import { mergeIndexParts, readIndexPart } from './index-parts.js';
import { packIndex, unpackIndex } from './index-layout.js';
import { buildLexicalIndex, lexicalSearcher, type LexicalSearcher, type Passage, type Query } from './lexical-index.js';
import { indexTerms } from './lexicon.js';
import { readSections } from './structure.js';
import { hashOf, lookUp, stringTable } from './string-table.js';
import { termLookups } from './term-lookups.js';
import { compoundKeys, compoundTerms } from './text.js';
import { buildIndexOffThread, keptIndexOffThread, loadWordVectors } from './workers/training-jobs.js';

// Retrieval over a chatbot's training chunks. Each process keeps a prepared index per chatbot
// while the material's version stands, so every hub instance answers from the same material and a
// retrain (a new version) is picked up by the next question without a restart. An index is built
// from one consistent snapshot, so a chat during a retrain sees the old material or the new.
//
// Building is the expensive part, so it happens once: in the training worker thread (never on the
// event loop), and its result is kept in the store, where a restarted or second instance finds it
// in a layout it reads in place (index-layout.ts), without a pause of the event loop.
// Prepared indexes are cached least recently used first within a budget of bytes.
//
// With an embedding model the chunks are also embedded, outside any request, and a question is
// answered from the lexical and the vector ranking fused. Until the vectors are all there, and
// whenever the provider fails, retrieval is lexical alone.

export type { Passage, Query };

export type Retriever = {
  /** `limit` passages (4 unless given); `around` as for LexicalSearcher (true unless given). */
  search(chatbotId: string, query: Query, options?: { limit?: number; around?: boolean }): Promise<Passage[]>;
  /**
   * After training: builds (or loads) the chatbot's index, and resolves once questions are
   * answered from it here. Storing the index for other processes (`stored`) and embedding the
   * chunks (`embedded`) go on after; both never reject (failures go to onError). Never rejects.
   */
  prepare(chatbotId: string): Promise<{ stored: Promise<void>; embedded: Promise<void> }>;
  /** The bytes the cached indexes weigh (their serialized size, plus vectors and texts). */
  cachedBytes(): number;
  /**
   * Loads ahead what a process's first question would wait for: the training worker (started,
   * its modules loaded) and the word vectors it reads, half a second or more. Never rejects.
   */
  warmUp(): Promise<void>;
};

export type RetrieverOptions = {
  /** INDEX_CACHE_MB, in bytes. */
  cacheBytes?: number;
  embedder?: Embedder;
  /** Told about failures that retrieval survives (a provider down while embedding). */
  onError?: (error: unknown, what: string) => void;
};

const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
// How many candidates each ranking brings to the fusion.
const CANDIDATES = 20;
const EMBEDDING_RESUME_MS = 60_000;

// Stored indexes are keyed by this as well as by the material version: a change to how the index
// is built or read makes the stored ones unreadable for the new code, so it builds afresh.
// The revision counts changes to the helpers of these functions.
const INDEX_REVISION =
  'lists, table rows and lines kept; per, via and the pronouns are stopwords; Latin accents and ß folded; e-mail and web addresses read as "email" and "website", not by their parts; a key asking a price by its form ("how much is…") read as naming it; lines of fenced code never headings; a sentence stating where the business is marked (place-stated.ts); lines of fenced code keep their indentation; a code block cut into chunks reads on in its section; blank lines between paragraphs of code kept; a lead-in read as a title keyed under the heading whose section it opens; code of punctuation alone kept; a table row read with its headers one sentence whatever stops its cells hold; a table row read with its headers never a title; a title line keyed under the section heading whose section it opens, with those after it; a table row read with its headers keeps a first header that reads as a FAQ marker; a plain FAQ answer line right after its question drops its marker';
const INDEX_FORMAT = createHash('sha256')
  .update(INDEX_REVISION)
  .update(
    [
      buildLexicalIndex,
      readIndexPart,
      mergeIndexParts,
      lexicalSearcher,
      indexTerms,
      compoundTerms,
      compoundKeys,
      readSections,
      termLookups,
      stringTable,
      hashOf,
      lookUp,
      packIndex,
      unpackIndex,
    ]
      .map(String)
      .join(''),
  )
  .digest('base64url')
  .slice(0, 12);
const indexKey = (version: string) => `${version}.${INDEX_FORMAT}`;

type Entry = {
  version: string;
  lexical: LexicalSearcher;
  /** Kept only for vector hits, i.e. with an embedding model. */
  chunks: Material['chunks'];
  /** What the cache counts, vectors aside. */
  bytes: number;
  /** Settles once a newly built index is in the store (at once for one loaded from it). */
  stored: Promise<void>;
  /** Set once every chunk has a vector. */
  vectors?: VectorTable;
  embedding?: Promise<void>;
  /** When embedding last began: a failed run is resumed by a question, at most once a minute. */
  embeddingStartedAt: number;
};

export function createRetriever(store: Store, options: RetrieverOptions = {}): Retriever {
  const { embedder, onError = () => {} } = options;
  const cache = createByteCache<Entry>(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const building = new Map<string, Promise<Entry | undefined>>();

  /** `stale`: while a newer version builds, the cached older one will do. */
  async function entryFor(chatbotId: string, stale: boolean): Promise<Entry | undefined> {
    const version = await store.training.version(chatbotId);
    if (version === undefined) return undefined;
    const cached = cache.get(chatbotId);
    if (cached?.version === version) return cached;
    const key = `${chatbotId}@${version}`;
    const pending = building.get(key);
    // Training builds the new version's index before it answers (prepare); questions meanwhile
    // keep the old index, as a large source takes seconds to index. Without one, they wait.
    if (pending) return (stale && cached) || pending;
    const started = build(chatbotId, version).finally(() => building.delete(key));
    building.set(key, started);
    return started;
  }

  async function build(chatbotId: string, version: string): Promise<Entry | undefined> {
    const stored = await store.retrieval.index(chatbotId, indexKey(version));
    // The chunks (the whole material, 10 MB for a large one) are read only to build the index or
    // to embed them: a cold start finds the index stored, and the process that trained the
    // material finds its chunks read on the training worker, which the material's runs name.
    if (stored && !embedder) return cached(chatbotId, version, stored, true, []);
    const current = stored ? undefined : await store.training.runs(chatbotId);
    if (!embedder && current?.version === version) {
      const kept = await keptIndexOffThread(current.runs);
      if (kept) return cached(chatbotId, version, kept, false, []);
    }
    const material = await store.training.material(chatbotId);
    if (material.version === undefined) return undefined;
    // A retrain since the version was read: the material is newer than the index looked up.
    const found = material.version === version ? stored : await store.retrieval.index(chatbotId, indexKey(material.version));
    const index = found ?? (await buildIndexOffThread(material.chunks, await runsOf(chatbotId, material.version, current)));
    return cached(chatbotId, material.version, index, found !== undefined, embedder ? material.chunks : []);
  }

  /** The runs of material `version`, if it is still current (a version's runs never change): those `read` before when they are its. */
  async function runsOf(chatbotId: string, version: string, read?: CurrentRuns): Promise<readonly MaterialRun[]> {
    const current = read?.version === version ? read : await store.training.runs(chatbotId);
    return current.version === version ? current.runs : [];
  }

  /** `found`: the index was read from the store, rather than built here (and stored now). */
  function cached(chatbotId: string, version: string, index: Uint8Array, found: boolean, chunks: Material['chunks']): Entry {
    const entry: Entry = {
      version,
      lexical: lexicalSearcher(unpackIndex(index)),
      stored: found ? Promise.resolve() : storeIndex(chatbotId, version, index),
      chunks,
      bytes: index.byteLength + chunks.reduce((sum, chunk) => sum + 2 * chunk.text.length, 0),
      embeddingStartedAt: 0,
    };
    cache.set(chatbotId, entry, entry.bytes);
    if (embedder) startEmbedding(chatbotId, entry, embedder);
    return entry;
  }

  /**
   * Keeps a built index for other processes, while this one answers from it already: a 10 MB
   * chatbot's index is twice its text, and writing it is a tenth of a second that the answers
   * need not wait for. Until it is stored, another process builds its own.
   */
  function storeIndex(chatbotId: string, version: string, index: Uint8Array): Promise<void> {
    // Another instance saving the same version at once is no failure.
    return store.retrieval.saveIndex(chatbotId, indexKey(version), index).catch((error: unknown) => {
      onError(error, `storing the index of chatbot ${chatbotId}`);
    });
  }

  function startEmbedding(chatbotId: string, entry: Entry, model: Embedder) {
    entry.embeddingStartedAt = Date.now();
    entry.embedding = embed(chatbotId, entry, model);
  }

  async function embed(chatbotId: string, entry: Entry, model: Embedder) {
    try {
      entry.vectors = await embedChunks(store, model, chatbotId, entry.chunks);
      // Re-weighed with its vectors, unless it has left the cache (evicted, or a newer version).
      if (cache.get(chatbotId) === entry) cache.set(chatbotId, entry, entry.bytes + entry.vectors.rows.byteLength);
      // Pruned only while this material is current: a newer version's vectors must survive.
      if ((await store.training.version(chatbotId)) === entry.version) {
        await store.retrieval.pruneVectors(chatbotId, entry.chunks.map((chunk) => contentHash(chunk.text)));
      }
    } catch (error) {
      onError(error, `embedding the chunks of chatbot ${chatbotId}`);
    } finally {
      entry.embedding = undefined;
    }
  }

  async function semanticRanking(entry: Entry, model: Embedder, query: string): Promise<number[]> {
    if (!entry.vectors) return [];
    try {
      return nearestChunks(entry.vectors, normalized(await model.embedQuestion(query)), CANDIDATES);
    } catch (error) {
      onError(error, 'embedding a question');
      return [];
    }
  }

  return {
    async search(chatbotId, query, { limit = 4, around = true } = {}) {
      // The first question of a process waits for the word vectors (off the event loop; a
      // second or so, read from a file the first process of the machine derived); every one
      // after finds them loaded, so that a question gets the same answer at any time.
      await loadWordVectors();
      const entry = await entryFor(chatbotId, true);
      if (!entry) return [];
      if (!embedder) return entry.lexical(query, limit, { around });
      if (!entry.vectors && !entry.embedding && Date.now() - entry.embeddingStartedAt > EMBEDDING_RESUME_MS) {
        startEmbedding(chatbotId, entry, embedder);
      }
      const lexical = entry.lexical(query, CANDIDATES, { around });
      const semantic = await semanticRanking(entry, embedder, typeof query === 'string' ? query : query.question);
      if (semantic.length === 0) return lexical.slice(0, limit);
      // Lexical hits are sections, vector hits are chunks: each keeps its own kind of passage. A
      // chunk found only by meaning has no sentence analysis, so it serves model responders; the
      // offline responder quotes what its words cover.
      const found = new Map<string, Passage>([
        ...lexical.map((passage): [string, Passage] => [`section:${passage.seq}`, passage]),
        ...semantic.map((seq): [string, Passage] => [`chunk:${seq}`, chunkPassage(entry.chunks[seq], seq)]),
      ]);
      const ranked = fuseRankings([lexical.map((passage) => `section:${passage.seq}`), semantic.map((seq) => `chunk:${seq}`)], limit);
      return ranked.map(({ key, score }) => ({ ...(found.get(key) as Passage), score }));
    },
    async prepare(chatbotId) {
      try {
        const entry = await entryFor(chatbotId, false);
        return { stored: entry?.stored ?? Promise.resolve(), embedded: entry?.embedding ?? Promise.resolve() };
      } catch (error) {
        // The first question retries; a store closing under it is no news either.
        onError(error, `preparing the index of chatbot ${chatbotId}`);
        return { stored: Promise.resolve(), embedded: Promise.resolve() };
      }
    },
    cachedBytes: () => cache.bytes(),
    warmUp: loadWordVectors,
  };
}

function chunkPassage(chunk: Material['chunks'][number] | undefined, seq: number): Passage {
  const passage: Passage = { text: chunk?.text ?? '', score: 0, seq, key: '', coverage: 0, keyCoverage: 0, ownWordsCoverage: 0, otherKindWords: [], keyAsked: 0, sentences: [], unknownWords: [], lacksAsked: false, unstated: false };
  return chunk?.source ? { ...passage, source: chunk.source } : passage;
}
