import MiniSearch, { type AsPlainObject } from 'minisearch';
import type { Chunk } from '../store/port.js';
import { terms } from './text.js';

// The lexical index of one material version: built once from the chunks, then queried. It is
// plain data (structured-clonable), so it can be built in a worker thread, measured in bytes and
// kept outside the process; what it holds and how it is searched is this module's business alone.

export type Passage = { text: string; score: number; seq: number };

export type LexicalIndex = { texts: string[]; miniSearch: AsPlainObject };

const OPTIONS = {
  fields: ['text'],
  tokenize: (text: string) => terms(text),
  processTerm: (term: string) => term,
};

export function buildLexicalIndex(chunks: Chunk[]): LexicalIndex {
  const index = new MiniSearch<{ id: number; text: string }>(OPTIONS);
  index.addAll(chunks.map((chunk, id) => ({ id, text: chunk.text })));
  return { texts: chunks.map((chunk) => chunk.text), miniSearch: index.toJSON() };
}

export type LexicalSearcher = (query: string, limit: number) => Passage[];

/** Prepares an index for queries (done once per cached index, not per query). */
export function lexicalSearcher(index: LexicalIndex): LexicalSearcher {
  const miniSearch = MiniSearch.loadJS<{ id: number; text: string }>(index.miniSearch, OPTIONS);
  return (query, limit) =>
    miniSearch
      .search(query, { fuzzy: (term) => (term.length > 5 ? 1 : false), prefix: (term) => term.length > 4 })
      .slice(0, limit)
      .map((hit) => ({ text: index.texts[hit.id as number] ?? '', score: hit.score, seq: hit.id as number }));
}
