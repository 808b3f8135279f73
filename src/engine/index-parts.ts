import type { LexicalIndex } from './index-shape.js';
import { joinedTextBlocks, readBlockSections, type Section } from './structure.js';
import { encodeStrings, joinEncoded, type EncodedStrings } from './encoded-strings.js';
import { priceNamed } from './price-asked.js';
import { stringNumbering, type StringNumbering } from './string-table.js';
import { intList, listed, readEncodedTerms, readTerms, termReader, vocabulary } from './term-reader.js';

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
  sentences: EncodedStrings;
  /** Each key's and each sentence's distinct terms (part numbers), flat, with start offsets. */
  keyTerms: Int32Array;
  keyTermStart: Int32Array;
  sentenceTerms: Int32Array;
  sentenceTermStart: Int32Array;
};

/** The terms of a run of sections: each key's and sentence's, numbered within the run. */
export type SectionTerms = Pick<IndexPart, 'vocabulary' | 'keyTerms' | 'keyTermStart' | 'sentenceTerms' | 'sentenceTermStart'>;

/** What reading a source (or a run of its sections) gives: its part of an index, but for the source. */
export type SourceReading = Omit<IndexPart, 'source'>;

/** Reads one source's texts (its chunks, in order) into its part of an index. */
export function readIndexPart(source: string | undefined, texts: string[]): IndexPart {
  return { source, ...sourceReading(readSourceSections(texts)) };
}

/** The sections of a source's texts, read as one text. */
export function readSourceSections(texts: string[]): Section[] {
  return readBlockSections(joinedTextBlocks(texts));
}

/** The reading of sections: their keys, their sentences (as bytes, which their terms are read from) and their terms. */
export function sourceReading(sections: Section[]): SourceReading {
  const keys = sections.map((section) => section.key);
  const list: string[] = [];
  const sectionStart = new Int32Array(sections.length + 1);
  sections.forEach((section, k) => {
    sectionStart[k] = list.length;
    for (const sentence of section.sentences) list.push(sentence);
  });
  sectionStart[sections.length] = list.length;
  const sentences = encodeStrings(list);
  return { keys, sectionStart, sentences, ...readSectionTerms(keys, sectionStart, sentences) };
}

/** The readings of consecutive runs of a source's sections, joined in order: the reading of the whole run. */
export function joinReadings(pieces: SourceReading[]): SourceReading {
  if (pieces.length === 1) return pieces[0] as SourceReading;
  // concat, not flatMap: 0.1 ms, not 2, for a 10 MB source's keys.
  const keys = ([] as string[]).concat(...pieces.map((piece) => piece.keys));
  const sectionStart = new Int32Array(keys.length + 1);
  let sections = 0;
  let sentences = 0;
  for (const piece of pieces) {
    copyShifted(piece.sectionStart.subarray(0, piece.keys.length), sectionStart, sections, sentences);
    sections += piece.keys.length;
    sentences += piece.sentences.length;
  }
  sectionStart[keys.length] = sentences;
  return { keys, sectionStart, sentences: joinEncoded(pieces.map((piece) => piece.sentences)), ...joinSectionTerms(pieces) };
}

/**
 * The terms of sections (their keys, where their sentences start, and the sentences), numbered in
 * order of first appearance. Each section's terms depend on that section alone: the terms of a run
 * of sections read in pieces and joined in order (joinSectionTerms) are the terms of the run read at once.
 */
function readSectionTerms(keys: string[], sectionStart: Int32Array, sentences: EncodedStrings): SectionTerms {
  const reader = termReader();
  const keyTerms = intList();
  const keyTermStart = new Int32Array(keys.length + 1);
  const sentenceTerms = intList();
  const sentenceTermStart = new Int32Array(sentences.length + 1);
  keys.forEach((key, k) => {
    readTerms(reader, priceNamed(key), keyTerms);
    keyTermStart[k + 1] = keyTerms.length;
    for (let sentence = sectionStart[k] as number; sentence < (sectionStart[k + 1] as number); sentence += 1) {
      readEncodedTerms(reader, sentences, sentence, sentenceTerms);
      sentenceTermStart[sentence + 1] = sentenceTerms.length;
    }
  });
  return {
    vocabulary: vocabulary(reader),
    keyTerms: listed(keyTerms),
    keyTermStart,
    sentenceTerms: listed(sentenceTerms),
    sentenceTermStart,
  };
}

/** The terms of consecutive runs of sections, joined in order: those of the whole run. */
export function joinSectionTerms(pieces: SectionTerms[]): SectionTerms {
  if (pieces.length === 1) return pieces[0] as SectionTerms;
  const termIds = stringNumbering(pieces.reduce((sum, piece) => sum + piece.vocabulary.length, 0));
  const keyTerms = new Int32Array(pieces.reduce((sum, piece) => sum + piece.keyTerms.length, 0));
  const sentenceTerms = new Int32Array(pieces.reduce((sum, piece) => sum + piece.sentenceTerms.length, 0));
  const keyTermStart = new Int32Array(pieces.reduce((sum, piece) => sum + piece.keyTermStart.length - 1, 1));
  const sentenceTermStart = new Int32Array(pieces.reduce((sum, piece) => sum + piece.sentenceTermStart.length - 1, 1));
  let keys = 0;
  let sentences = 0;
  for (const piece of pieces) {
    const global = globalTermIds(piece.vocabulary, termIds);
    const keyTerm = keyTermStart[keys] as number;
    const sentenceTerm = sentenceTermStart[sentences] as number;
    copyRenumbered(piece.keyTerms, keyTerms, keyTerm, global);
    copyRenumbered(piece.sentenceTerms, sentenceTerms, sentenceTerm, global);
    copyShifted(piece.keyTermStart.subarray(1), keyTermStart, keys + 1, keyTerm);
    copyShifted(piece.sentenceTermStart.subarray(1), sentenceTermStart, sentences + 1, sentenceTerm);
    keys += piece.keyTermStart.length - 1;
    sentences += piece.sentenceTermStart.length - 1;
  }
  return { vocabulary: termIds.keys, keyTerms, keyTermStart, sentenceTerms, sentenceTermStart };
}

/** The index of the parts, in order. */
export function mergeIndexParts(parts: IndexPart[]): LexicalIndex {
  const lists = parts.length === 1 ? onePartLists(parts[0] as IndexPart) : joinedPartLists(parts);
  const termCount = lists.vocabulary.length;
  const postings = invert(lists.sentenceTerms, lists.sentenceTermStart, termCount);
  const keyPostings = invert(lists.keyTerms, lists.keyTermStart, termCount);
  return {
    vocabulary: lists.vocabulary,
    keys: lists.keys,
    sectionStart: lists.sectionStart,
    sentences: lists.sentences,
    sentenceSection: sentenceSections(lists.sectionStart),
    sentenceTerms: lists.sentenceTerms,
    sentenceTermStart: lists.sentenceTermStart,
    keyTerms: lists.keyTerms,
    keyTermStart: lists.keyTermStart,
    postings: postings.values,
    postingStart: postings.starts,
    keyPostings: keyPostings.values,
    keyPostingStart: keyPostings.starts,
    sectionSource: lists.sectionSource,
    sources: lists.sources,
  };
}

/** The lists of an index read from its parts; the rest is derived from them. */
type PartLists = Omit<IndexPart, 'source'> & Pick<LexicalIndex, 'sectionSource' | 'sources'>;

/**
 * The lists of the index of one part, as most materials are: its own, unchanged (neither the part
 * nor an index changes its lists). Its terms are already numbered as merging numbers them, in
 * order of first appearance, so this skips a lookup a term and a copy of every list.
 */
function onePartLists(part: IndexPart): PartLists {
  return {
    vocabulary: part.vocabulary,
    keys: part.keys,
    sectionStart: part.sectionStart,
    sentences: part.sentences,
    keyTerms: part.keyTerms,
    keyTermStart: part.keyTermStart,
    sentenceTerms: part.sentenceTerms,
    sentenceTermStart: part.sentenceTermStart,
    sectionSource: new Int32Array(part.keys.length).fill(part.source === undefined ? -1 : 0),
    sources: part.source === undefined ? [] : [part.source],
  };
}

/** The lists of the index of the parts, joined in order with their terms numbered across them. */
function joinedPartLists(parts: IndexPart[]): PartLists {
  const termIds = stringNumbering(parts.reduce((sum, part) => sum + part.vocabulary.length, 0));
  const sources: string[] = [];
  // concat, not flatMap, which copied a part's hundred thousand keys twenty times as slowly.
  const keys = ([] as string[]).concat(...parts.map((part) => part.keys));
  const sentences = joinEncoded(parts.map((part) => part.sentences));
  let keyTermCount = 0;
  let sentenceTermCount = 0;
  for (const part of parts) {
    keyTermCount += part.keyTerms.length;
    sentenceTermCount += part.sentenceTerms.length;
  }
  const sectionStart = new Int32Array(keys.length + 1);
  const sectionSource = new Int32Array(keys.length);
  const keyTerms = new Int32Array(keyTermCount);
  const keyTermStart = new Int32Array(keys.length + 1);
  const sentenceTerms = new Int32Array(sentenceTermCount);
  const sentenceTermStart = new Int32Array(sentences.length + 1);
  // Where the part being copied starts in each merged list: a part's lists are contiguous and
  // start at 0, so each is copied whole, shifted by these and its terms renumbered.
  let section = 0;
  let sentence = 0;
  let keyTerm = 0;
  let sentenceTerm = 0;
  for (const part of parts) {
    const global = globalTermIds(part.vocabulary, termIds);
    const sourceIndex = part.source === undefined ? -1 : sources.push(part.source) - 1;
    const sectionCount = part.keys.length;
    copyShifted(part.sectionStart.subarray(0, sectionCount), sectionStart, section, sentence);
    sectionSource.fill(sourceIndex, section, section + sectionCount);
    copyShifted(part.keyTermStart.subarray(1), keyTermStart, section + 1, keyTerm);
    copyShifted(part.sentenceTermStart.subarray(1), sentenceTermStart, sentence + 1, sentenceTerm);
    copyRenumbered(part.keyTerms, keyTerms, keyTerm, global);
    copyRenumbered(part.sentenceTerms, sentenceTerms, sentenceTerm, global);
    section += sectionCount;
    sentence += part.sentences.length;
    keyTerm += part.keyTerms.length;
    sentenceTerm += part.sentenceTerms.length;
  }
  sectionStart[keys.length] = sentences.length;
  return { vocabulary: termIds.keys, keys, sectionStart, sentences, keyTerms, keyTermStart, sentenceTerms, sentenceTermStart, sectionSource, sources };
}

/** Sentence → its section, from where each section's sentences start. */
function sentenceSections(sectionStart: Int32Array): Int32Array {
  const sectionCount = sectionStart.length - 1;
  const sentenceSection = new Int32Array(sectionStart[sectionCount] as number);
  for (let section = 0; section < sectionCount; section += 1) {
    sentenceSection.fill(section, sectionStart[section], sectionStart[section + 1]);
  }
  return sentenceSection;
}

/** A part's list of offsets copied into the merged one from `at`, each moved by `shift`. */
function copyShifted(from: Int32Array, into: Int32Array, at: number, shift: number): void {
  for (let k = 0; k < from.length; k += 1) into[at + k] = shift + (from[k] as number);
}

/** A part's list of term numbers copied into the merged one from `at`, renumbered across the parts. */
function copyRenumbered(from: Int32Array, into: Int32Array, at: number, global: Int32Array): void {
  for (let k = 0; k < from.length; k += 1) into[at + k] = global[from[k] as number] as number;
}

/**
 * A part's term numbers → numbers across the parts, each term numbered where it first appears (as
 * reading all the parts at once would).
 */
function globalTermIds(vocabulary: string[], termIds: StringNumbering): Int32Array {
  const global = new Int32Array(vocabulary.length);
  for (let k = 0; k < vocabulary.length; k += 1) global[k] = termIds.idOf(vocabulary[k] as string);
  return global;
}

/** Term → the lists holding it, ascending: lists given flat (`values`, `starts`). */
function invert(values: Int32Array, starts: Int32Array, termCount: number): { values: Int32Array; starts: Int32Array } {
  const inverted = new Int32Array(values.length);
  const termStarts = new Int32Array(termCount + 1);
  // Indexed loops, not for…of, and each list's end read once: this runs over every term of every sentence.
  for (let k = 0; k < values.length; k += 1) {
    const term = values[k] as number;
    termStarts[term + 1] = (termStarts[term + 1] as number) + 1;
  }
  for (let term = 0; term < termCount; term += 1) termStarts[term + 1] = (termStarts[term + 1] as number) + (termStarts[term] as number);
  const next = termStarts.slice(0, termCount);
  let end = starts[0] as number;
  for (let list = 0; list + 1 < starts.length; list += 1) {
    let k = end;
    end = starts[list + 1] as number;
    for (; k < end; k += 1) {
      const term = values[k] as number;
      const at = next[term] as number;
      inverted[at] = list;
      next[term] = at + 1;
    }
  }
  return { values: inverted, starts: termStarts };
}
