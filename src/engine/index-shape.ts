import type { EncodedStrings } from './encoded-strings.js';
import type { StringList } from './string-table.js';
import type { TermLookups } from './term-lookups.js';

// The lexical index as data (lexical-index.ts builds and searches it, index-parts.ts builds it in
// parts, index-layout.ts packs it): typed arrays and strings, built in a worker thread and packed
// into bytes to cross to the event loop, to be measured and to be kept outside the process.

export type LexicalIndex = {
  /** Term id → term (a stem). */
  vocabulary: string[];
  /** Per section: its key (heading or question), and where its sentences start (one extra entry at the end). */
  keys: string[];
  sectionStart: Int32Array;
  /** As UTF-8: a large material's sentences are copied as bytes from the threads that read them to its packed form. */
  sentences: EncodedStrings;
  sentenceSection: Int32Array;
  /** Term ids of each sentence (flat) and of each key, with start offsets. */
  sentenceTerms: Int32Array;
  sentenceTermStart: Int32Array;
  keyTerms: Int32Array;
  keyTermStart: Int32Array;
  /** Term id → the sentences holding it, ascending (flat), and the sections whose key holds it. */
  postings: Int32Array;
  postingStart: Int32Array;
  keyPostings: Int32Array;
  keyPostingStart: Int32Array;
  /** Per section, the index in `sources` of what it was read from (-1: material without sources). */
  sectionSource: Int32Array;
  /** The sources (and website pages) read, as JSON. */
  sources: string[];
  /** Present in an index read from its packed bytes (index-layout.ts); one built here computes them to search. */
  lookups?: TermLookups;
};

/** What a search reads: an index built here, or one read in place from its packed bytes. */
export type SearchableIndex = Omit<LexicalIndex, TextField> & Record<TextField, StringList>;
type TextField = 'vocabulary' | 'keys' | 'sentences' | 'sources';
