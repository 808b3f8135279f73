import { wordTerms } from './lexicon.js';
import type { LexicalIndex } from './lexical-index.js';
import { readSections } from './structure.js';
import { compoundTerms, words } from './text.js';

// A lexical index is built in two steps: each source (each website page) is read into a part of
// its own (its sections, sentences and their terms, numbered within the part), and the parts are
// merged (terms numbered across them, postings inverted). Reading is nearly all of the work and a
// part depends on its source alone, so the training worker keeps the parts it read: a change to
// one source reads that source again and merges. Merging numbers each term where it first appears
// across the parts in order, as reading them all at once would, so the index is the same.

export type IndexPart = {
  /** The source as JSON (undefined for material trained before sources). */
  source: string | undefined;
  /** Term number within the part → term, in order of first appearance. */
  vocabulary: string[];
  keys: string[];
  /** Where each section's sentences start (one extra entry at the end). */
  sectionStart: Int32Array;
  sentences: string[];
  /** Each key's and each sentence's distinct terms (part numbers), flat, with start offsets. */
  keyTerms: Int32Array;
  keyTermStart: Int32Array;
  sentenceTerms: Int32Array;
  sentenceTermStart: Int32Array;
};

/** Reads one source's texts (its chunks, in order) into its part of an index. */
export function readIndexPart(source: string | undefined, texts: string[]): IndexPart {
  const termIds = new Map<string, number>();
  const idOf = (term: string) => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = termIds.size;
      termIds.set(term, id);
    }
    return id;
  };
  // The terms of indexTerms, taken word by word: a text repeats its words, so each word's term
  // numbers are kept for the part, one lookup a word where there was one a term and one a word.
  const wordIds = new Map<string, number[]>();
  const idsOf = (word: string) => {
    let ids = wordIds.get(word);
    if (ids === undefined) {
      ids = wordTerms(word).map(idOf);
      wordIds.set(word, ids);
    }
    return ids;
  };
  // Each text's distinct terms in order of first appearance: a term counts once per text, the
  // text it was last seen in told by its stamp (cheaper than a set per sentence).
  const lastSeen: number[] = [];
  let stamp = 0;
  const addTerms = (text: string, into: number[], starts: number[]) => {
    stamp += 1;
    const add = (id: number) => {
      if (lastSeen[id] === stamp) return;
      lastSeen[id] = stamp;
      into.push(id);
    };
    for (const word of words(text)) for (const id of idsOf(word)) add(id);
    if (text.includes('-')) for (const term of compoundTerms(text)) add(idOf(term));
    starts.push(into.length);
  };
  const sections = readSections(texts.join('\n\n'));
  const sentences: string[] = [];
  const sectionStart: number[] = [];
  const keyTerms: number[] = [];
  const keyTermStart = [0];
  const sentenceTerms: number[] = [];
  const sentenceTermStart = [0];
  for (const section of sections) {
    sectionStart.push(sentences.length);
    addTerms(section.key, keyTerms, keyTermStart);
    for (const sentence of section.sentences) {
      sentences.push(sentence);
      addTerms(sentence, sentenceTerms, sentenceTermStart);
    }
  }
  sectionStart.push(sentences.length);
  return {
    source,
    vocabulary: [...termIds.keys()],
    keys: sections.map((section) => section.key),
    sectionStart: Int32Array.from(sectionStart),
    sentences,
    keyTerms: Int32Array.from(keyTerms),
    keyTermStart: Int32Array.from(keyTermStart),
    sentenceTerms: Int32Array.from(sentenceTerms),
    sentenceTermStart: Int32Array.from(sentenceTermStart),
  };
}

/** The index of the parts, in order. */
export function mergeIndexParts(parts: IndexPart[]): LexicalIndex {
  const termIds = new Map<string, number>();
  const sources: string[] = [];
  const keys: string[] = [];
  const sentences: string[] = [];
  let sectionCount = 0;
  let keyTermCount = 0;
  let sentenceTermCount = 0;
  for (const part of parts) {
    sectionCount += part.keys.length;
    keyTermCount += part.keyTerms.length;
    sentenceTermCount += part.sentenceTerms.length;
  }
  const sectionStart = new Int32Array(sectionCount + 1);
  const sectionSource = new Int32Array(sectionCount);
  const keyTerms = new Int32Array(keyTermCount);
  const keyTermStart = new Int32Array(sectionCount + 1);
  const sentenceTerms = new Int32Array(sentenceTermCount);
  const sentenceTermStart: number[] = [0];
  const sentenceSection: number[] = [];
  let section = 0;
  let keyTerm = 0;
  let sentenceTerm = 0;
  for (const part of parts) {
    const global = Int32Array.from(part.vocabulary, (term) => {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
      }
      return id;
    });
    const sourceIndex = part.source === undefined ? -1 : sources.push(part.source) - 1;
    const firstSentence = sentences.length;
    for (let k = 0; k < part.keys.length; k += 1, section += 1) {
      sectionStart[section] = firstSentence + (part.sectionStart[k] as number);
      sectionSource[section] = sourceIndex;
      keys.push(part.keys[k] as string);
      for (let t = part.keyTermStart[k] as number; t < (part.keyTermStart[k + 1] as number); t += 1) {
        keyTerms[keyTerm++] = global[part.keyTerms[t] as number] as number;
      }
      keyTermStart[section + 1] = keyTerm;
      for (let s = part.sectionStart[k] as number; s < (part.sectionStart[k + 1] as number); s += 1) {
        sentences.push(part.sentences[s] as string);
        sentenceSection.push(section);
        for (let t = part.sentenceTermStart[s] as number; t < (part.sentenceTermStart[s + 1] as number); t += 1) {
          sentenceTerms[sentenceTerm++] = global[part.sentenceTerms[t] as number] as number;
        }
        sentenceTermStart.push(sentenceTerm);
      }
    }
  }
  sectionStart[sectionCount] = sentences.length;
  const sentenceStarts = Int32Array.from(sentenceTermStart);
  const postings = invert(sentenceTerms, sentenceStarts, termIds.size);
  const keyPostings = invert(keyTerms, keyTermStart, termIds.size);
  return {
    vocabulary: [...termIds.keys()],
    keys,
    sectionStart,
    sentences,
    sentenceSection: Int32Array.from(sentenceSection),
    sentenceTerms,
    sentenceTermStart: sentenceStarts,
    keyTerms,
    keyTermStart,
    postings: postings.values,
    postingStart: postings.starts,
    keyPostings: keyPostings.values,
    keyPostingStart: keyPostings.starts,
    sectionSource,
    sources,
  };
}

/** Term → the lists holding it, ascending: lists given flat (`values`, `starts`). */
function invert(values: Int32Array, starts: Int32Array, termCount: number): { values: Int32Array; starts: Int32Array } {
  const inverted = new Int32Array(values.length);
  const termStarts = new Int32Array(termCount + 1);
  for (const term of values) termStarts[term + 1] = (termStarts[term + 1] as number) + 1;
  for (let term = 0; term < termCount; term += 1) termStarts[term + 1] = (termStarts[term + 1] as number) + (termStarts[term] as number);
  const next = termStarts.slice(0, termCount);
  for (let list = 0; list + 1 < starts.length; list += 1) {
    for (let k = starts[list] as number; k < (starts[list + 1] as number); k += 1) {
      const term = values[k] as number;
      inverted[next[term] as number] = list;
      next[term] = (next[term] as number) + 1;
    }
  }
  return { values: inverted, starts: termStarts };
}
