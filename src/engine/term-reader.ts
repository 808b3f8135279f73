import { wordTerms } from './lexicon.js';
import type { EncodedStrings } from './encoded-strings.js';
import { mayStatePlace, PLACE_TERM, placeMarks, statesPlace } from './place-stated.js';
import { addressesNamed, compoundTerm, findCompounds, findCompoundsInBytes, findWords, findWordsInBytes, foundWord, foundWords, type FoundWords, wordHash } from './text.js';

// Training reads each key and sentence of a source into its distinct terms (those of indexTerms,
// lexicon.ts), numbered in order of first appearance. A text repeats its words, so the reader
// keeps each word's term numbers, found by the word's characters as findWords finds them (no
// string a word): one lookup a word, in a hash table of typed arrays, which millions of words
// fill with no garbage.

/** Integers appended to, as a typed array grown by doubling. */
export type IntList = { length: number; values: Int32Array };

export function intList(): IntList {
  return { length: 0, values: new Int32Array(1_024) };
}

/** The list's integers, in an array of their own. */
export function listed(list: IntList): Int32Array {
  return list.values.slice(0, list.length);
}

export type TermReader = {
  /** The terms read, by number. */
  terms: string[];
  /** Each term's hash, and their numbers by hash as in the word table: 5% faster reading than a Map. */
  termHashes: Int32Array;
  termSlots: Int32Array;
  /** The words and compounds read, with their terms' numbers. */
  known: WordTable;
  found: FoundWords;
  /** The placeMarks of each word found, by its place in `found`. */
  foundMarks: Uint8Array;
  /** The text each term was last read in, by its stamp: a term counts once a text, with no set a text. */
  lastSeen: Int32Array;
  stamp: number;
};

export function termReader(): TermReader {
  return {
    terms: [],
    termHashes: new Int32Array(1_024),
    termSlots: new Int32Array(2_048),
    known: wordTable(),
    found: foundWords(),
    foundMarks: new Uint8Array(1_024),
    lastSeen: new Int32Array(1_024),
    stamp: 0,
  };
}

/** The terms read so far, by number. */
export function vocabulary(reader: TermReader): string[] {
  return reader.terms;
}

/** Appends the text's distinct terms (indexTerms(text)), in order of first appearance, to the list. */
export function readTerms(reader: TermReader, written: string, into: IntList): void {
  reader.stamp += 1;
  const text = addressesNamed(written);
  findWords(text, reader.found);
  const marks = addFoundTerms(reader, into, wordTerms, placeMarks);
  // Asked before the compounds are found into reader.found: PLACE_TERM comes after them, as in indexTerms.
  const place = mayStatePlace(marks, reader.found, reader.foundMarks) && statesPlace(text);
  findCompounds(text, reader.found);
  addCompoundTerms(reader, into);
  if (place) addTerm(reader, termId(reader, PLACE_TERM), into);
}

/** readTerms of string k of the list, its words found in its bytes where they allow (findWordsInBytes). */
export function readEncodedTerms(reader: TermReader, list: EncodedStrings, k: number, into: IntList): void {
  const [from, to] = [list.starts[k] as number, list.starts[k + 1] as number];
  const read = findWordsInBytes(list.bytes, from, to, reader.found);
  if (read === 'other') return readTerms(reader, list.at(k) as string, into);
  reader.stamp += 1;
  const marks = addFoundTerms(reader, into, wordTerms, placeMarks);
  // Read as a string only when its words may state a place (mayStatePlace).
  const place = mayStatePlace(marks, reader.found, reader.foundMarks) && statesPlace(list.at(k) as string);
  if (read === 'words and hyphens') {
    findCompoundsInBytes(list.bytes, from, to, reader.found);
    addCompoundTerms(reader, into);
  }
  if (place) addTerm(reader, termId(reader, PLACE_TERM), into);
}

/** Adds the terms of the compounds found into reader.found. */
function addCompoundTerms(reader: TermReader, into: IntList): void {
  // Compounds are kept with the words, a compound's one term its own: no word has a hyphen.
  addFoundTerms(reader, into, termOfCompound, noMarks);
}

// Made once, not a closure a text. A compound is never asked whether it states a place.
const termOfCompound = (compound: string) => [compoundTerm(compound)];
const noMarks = () => 0;

/**
 * Adds the terms of the words found; those of a word not kept yet are termsOf(word), its marks
 * marksOf(word). Keeps each found word's marks in foundMarks, and answers them all OR-ed.
 */
function addFoundTerms(reader: TermReader, into: IntList, termsOf: (word: string) => string[], marksOf: (word: string) => number): number {
  const { found, known } = reader;
  if (reader.foundMarks.length < found.count) reader.foundMarks = new Uint8Array(2 * found.count);
  const { foundMarks } = reader;
  let marks = 0;
  for (let k = 0; k < found.count; k += 1) {
    let word = wordNumber(known, found, k);
    if (word < 0) word = keepFound(reader, k, termsOf, marksOf);
    const wordMarks = known.marks[word] as number;
    foundMarks[k] = wordMarks;
    marks |= wordMarks;
    const end = known.termStart[word + 1] as number;
    for (let t = known.termStart[word] as number; t < end; t += 1) addTerm(reader, known.terms[t] as number, into);
  }
  return marks;
}

/**
 * Keeps found word k with the numbers of its terms, termsOf(word). Apart from addFoundTerms: V8
 * allocates what a function's closures share as the function starts, and addFoundTerms runs
 * twice a text (this one's closure made at each call was two thirds of the reading's garbage).
 */
function keepFound(reader: TermReader, k: number, termsOf: (word: string) => string[], marksOf: (word: string) => number): number {
  const word = foundWord(reader.found, k);
  return keepWord(reader.known, reader.found, k, termsOf(word).map((term) => termId(reader, term)), marksOf(word));
}

function addTerm(reader: TermReader, id: number, into: IntList): void {
  if (reader.lastSeen[id] === reader.stamp) return;
  reader.lastSeen[id] = reader.stamp;
  if (into.length === into.values.length) into.values = grown(into.values, into.length + 1);
  into.values[into.length] = id;
  into.length += 1;
}

/** The term's number, numbering it if it is new. */
function termId(reader: TermReader, term: string): number {
  const hash = wordHash(term);
  const mask = reader.termSlots.length - 1;
  let slot = hash & mask;
  for (let id = reader.termSlots[slot] as number; id !== 0; id = reader.termSlots[slot] as number) {
    if (reader.termHashes[id - 1] === hash && reader.terms[id - 1] === term) return id - 1;
    slot = (slot + 1) & mask;
  }
  const id = reader.terms.push(term) - 1;
  // Both hold an entry a term, grown together.
  if (id === reader.termHashes.length) {
    reader.termHashes = grown(reader.termHashes, id + 1);
    reader.lastSeen = grown(reader.lastSeen, id + 1);
  }
  reader.termHashes[id] = hash;
  if (2 * reader.terms.length > reader.termSlots.length) reader.termSlots = slotsFor(reader.termHashes, reader.terms.length, 2 * reader.termSlots.length);
  else reader.termSlots[slot] = id + 1;
  return id;
}

// The word table: open addressing with linear probing, at most half full. A word's number is
// its place in the order words were kept; its characters and term numbers are kept flat, each
// word's where its number says.

type WordTable = {
  /** Word number + 1 at the slot its hash leads to (or the next free one after), 0 at a free slot. */
  slots: Int32Array;
  count: number;
  hashes: Int32Array;
  chars: Uint16Array;
  /** Where each word's characters start in `chars`, and the last one's end. */
  charStart: Int32Array;
  terms: Int32Array;
  termStart: Int32Array;
  /** Each word's placeMarks. */
  marks: Uint8Array;
};

function wordTable(): WordTable {
  return {
    slots: new Int32Array(1_024),
    count: 0,
    hashes: new Int32Array(512),
    chars: new Uint16Array(4_096),
    charStart: new Int32Array(513),
    terms: new Int32Array(1_024),
    termStart: new Int32Array(513),
    marks: new Uint8Array(512),
  };
}

/** The number of found word k in the table; -1 if it is not kept. */
function wordNumber(table: WordTable, found: FoundWords, k: number): number {
  const hash = found.hashes[k] as number;
  const mask = table.slots.length - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const word = (table.slots[slot] as number) - 1;
    if (word < 0) return -1;
    if (table.hashes[word] === hash && isFoundWord(table, word, found, k)) return word;
  }
}

function isFoundWord(table: WordTable, word: number, found: FoundWords, k: number): boolean {
  let at = found.bounds[k] as number;
  const end = found.bounds[k + 1] as number;
  let kept = table.charStart[word] as number;
  if ((table.charStart[word + 1] as number) - kept !== end - at) return false;
  const { chars } = table;
  const foundChars = found.chars;
  while (at < end) if (chars[kept++] !== foundChars[at++]) return false;
  return true;
}

/** Keeps found word k with its terms' numbers and its placeMarks; answers its number in the table. */
function keepWord(table: WordTable, found: FoundWords, k: number, terms: number[], marks: number): number {
  const number = table.count;
  if (number + 1 === table.charStart.length) {
    table.hashes = grown(table.hashes, number + 1);
    table.marks = grown(table.marks, number + 1);
    table.charStart = grown(table.charStart, number + 2);
    table.termStart = grown(table.termStart, number + 2);
  }
  const from = found.bounds[k] as number;
  const length = (found.bounds[k + 1] as number) - from;
  const charsFrom = table.charStart[number] as number;
  if (charsFrom + length > table.chars.length) table.chars = grown(table.chars, charsFrom + length);
  for (let i = 0; i < length; i += 1) table.chars[charsFrom + i] = found.chars[from + i] as number;
  table.charStart[number + 1] = charsFrom + length;
  const termsFrom = table.termStart[number] as number;
  if (termsFrom + terms.length > table.terms.length) table.terms = grown(table.terms, termsFrom + terms.length);
  table.terms.set(terms, termsFrom);
  table.termStart[number + 1] = termsFrom + terms.length;
  table.hashes[number] = found.hashes[k] as number;
  table.marks[number] = marks;
  table.count = number + 1;
  if (table.count * 2 > table.slots.length) table.slots = slotsFor(table.hashes, table.count, 2 * table.slots.length);
  else place(table.slots, number, table.hashes[number] as number);
  return number;
}

/** Slots for the first `count` entries of a table by their hashes, `size` of them (a power of 2). */
function slotsFor(hashes: Int32Array, count: number, size: number): Int32Array {
  const slots = new Int32Array(size);
  for (let entry = 0; entry < count; entry += 1) place(slots, entry, hashes[entry] as number);
  return slots;
}

/** Puts entry + 1 at the slot its hash leads to, or the next free one after it. */
function place(slots: Int32Array, entry: number, hash: number): void {
  const mask = slots.length - 1;
  let slot = hash & mask;
  while (slots[slot] !== 0) slot = (slot + 1) & mask;
  slots[slot] = entry + 1;
}

/** A copy of the array with room for at least `needed` values: twice its length or more. */
function grown<T extends Int32Array | Uint16Array | Uint8Array>(array: T, needed: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}
