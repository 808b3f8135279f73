import { wordTerms } from './lexicon.js';
import type { EncodedStrings } from './encoded-strings.js';
import { mayStatePlace, PLACE_TERM, placeMarks, roomForMarks, statesPlace, wordMarks, type WordMarks } from './place-stated.js';
import {
  addressesNamed,
  compoundTerm,
  findCompounds,
  findWords,
  foundWord,
  foundWords,
  type FoundWords,
  isWordInBytes,
  nextCompoundInBytes,
  nextWordInBytes,
  wordHash,
  wordInBytes,
  type WordInBytes,
  wordOfBytes,
} from './text.js';

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
  /** The word nextWordInBytes found last. */
  word: WordInBytes;
  /** The placeMarks of the words of the text read last. */
  marks: WordMarks;
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
    word: wordInBytes(),
    marks: wordMarks(),
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
  addFoundTerms(reader, into, wordTerms, placeMarks);
  // Asked before the compounds' terms are added: PLACE_TERM comes after them, as in indexTerms.
  const place = mayStatePlace(reader.marks) && statesPlace(text);
  findCompounds(text, reader.found);
  addCompoundTerms(reader, into);
  if (place) addTerm(reader, termId(reader, PLACE_TERM), into);
}

/** readTerms of string k of the list, its words read from its bytes where they allow (nextWordInBytes). */
export function readEncodedTerms(reader: TermReader, list: EncodedStrings, k: number, into: IntList): void {
  const [from, to] = [list.starts[k] as number, list.starts[k + 1] as number];
  if (!addTermsInBytes(reader, list.bytes, from, to, into)) return readTerms(reader, list.at(k) as string, into);
  // Read as a string only when its words may state a place (mayStatePlace).
  const place = mayStatePlace(reader.marks) && statesPlace(list.at(k) as string);
  if (reader.word.hyphen >= 0) addCompoundTermsInBytes(reader, list.bytes, from, to, into);
  if (place) addTerm(reader, termId(reader, PLACE_TERM), into);
}

/**
 * Adds the terms of the words of bytes [from, to) as addFoundTerms adds those findWords finds, and
 * keeps their marks in reader.marks; answers false, having added and kept nothing, for bytes
 * nextWordInBytes leaves to a string. One pass, each word looked up against the bytes as it is
 * found: finding a text's words into reader.found first, each one's characters copied out and
 * read again to be looked up, took a fifth longer. Words kept before the bytes turn out to be
 * other text are forgotten, as a string may read them otherwise ("caf" of "café", "hello" of an
 * e-mail address) and the terms are numbered in the order the string reading meets them.
 */
function addTermsInBytes(reader: TermReader, bytes: Uint8Array, from: number, to: number, into: IntList): boolean {
  const { word, known } = reader;
  const added = into.length;
  const kept = known.count;
  const numbered = reader.terms.length;
  reader.stamp += 1;
  word.hyphen = -1;
  const { marks } = reader;
  // A word takes two bytes with what ends it.
  roomForMarks(marks, ((to - from) >> 1) + 1);
  const { each } = marks;
  let all = 0;
  let count = 0;
  let read = nextWordInBytes(bytes, from, to, word);
  for (; read === 'word'; read = nextWordInBytes(bytes, word.end, to, word)) {
    let number = wordNumberInBytes(known, bytes, word);
    if (number < 0) number = keepWord(reader, wordOfBytes(bytes, word), word.hash, wordTerms, placeMarks);
    const wordMarks = known.marks[number] as number;
    each[count] = wordMarks;
    all |= wordMarks;
    count += 1;
    addWordTerms(reader, number, into);
  }
  if (read === 'other') {
    into.length = added;
    forgetSince(reader, kept, numbered);
    return false;
  }
  marks.count = count;
  marks.all = all;
  return true;
}

/** Adds the terms of the compounds of bytes [from, to) (nextCompoundInBytes). */
function addCompoundTermsInBytes(reader: TermReader, bytes: Uint8Array, from: number, to: number, into: IntList): void {
  const { word, known } = reader;
  for (let i = word.hyphen; nextCompoundInBytes(bytes, i, from, to, word); i = word.end) {
    let number = wordNumberInBytes(known, bytes, word);
    if (number < 0) number = keepWord(reader, wordOfBytes(bytes, word), word.hash, termOfCompound, noMarks);
    addWordTerms(reader, number, into);
  }
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
 * marksOf(word). Keeps the found words' marks in reader.marks.
 */
function addFoundTerms(reader: TermReader, into: IntList, termsOf: (word: string) => string[], marksOf: (word: string) => number): void {
  const { found, known, marks } = reader;
  roomForMarks(marks, found.count);
  let all = 0;
  for (let k = 0; k < found.count; k += 1) {
    let word = wordNumber(known, found, k);
    if (word < 0) word = keepWord(reader, foundWord(found, k), found.hashes[k] as number, termsOf, marksOf);
    const wordMarks = known.marks[word] as number;
    marks.each[k] = wordMarks;
    all |= wordMarks;
    addWordTerms(reader, word, into);
  }
  marks.count = found.count;
  marks.all = all;
}

/** Adds the terms of word `number` of the table. */
function addWordTerms(reader: TermReader, number: number, into: IntList): void {
  // Held in locals: read from their objects at each term, as V8 may have to after the list's
  // stores, they cost a twentieth of reading a text, as this runs for every word.
  const { termStart, terms } = reader.known;
  const { lastSeen, stamp } = reader;
  const end = termStart[number + 1] as number;
  for (let t = termStart[number] as number; t < end; t += 1) {
    const id = terms[t] as number;
    if (lastSeen[id] === stamp) continue;
    lastSeen[id] = stamp;
    append(into, id);
  }
}

/** Keeps the word (its wordHash `hash`) with the numbers of its terms, termsOf(word), and its marks, marksOf(word); answers its number. */
function keepWord(reader: TermReader, word: string, hash: number, termsOf: (word: string) => string[], marksOf: (word: string) => number): number {
  const terms = termsOf(word);
  const { known } = reader;
  const number = keepInTable(known, word, hash, terms.length, marksOf(word));
  const from = known.termStart[number] as number;
  for (let t = 0; t < terms.length; t += 1) known.terms[from + t] = termId(reader, terms[t] as string);
  return number;
}

/**
 * Forgets the words kept and the terms numbered since the reader held `words` and `terms` of
 * them, as if a text begun were never read.
 */
function forgetSince(reader: TermReader, words: number, terms: number): void {
  const { known } = reader;
  for (let word = known.count - 1; word >= words; word -= 1) unplace(known.slots, word, known.hashes[word] as number);
  known.count = words;
  for (let term = reader.terms.length - 1; term >= terms; term -= 1) unplace(reader.termSlots, term, reader.termHashes[term] as number);
  reader.terms.length = terms;
}

function addTerm(reader: TermReader, id: number, into: IntList): void {
  if (reader.lastSeen[id] === reader.stamp) return;
  reader.lastSeen[id] = reader.stamp;
  append(into, id);
}

function append(list: IntList, value: number): void {
  if (list.length === list.values.length) list.values = grown(list.values, list.length + 1);
  list.values[list.length] = value;
  list.length += 1;
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

/** The number in the table of the word nextWordInBytes found; -1 if it is not kept. */
function wordNumberInBytes(table: WordTable, bytes: Uint8Array, found: WordInBytes): number {
  const { hash, length } = found;
  const mask = table.slots.length - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const word = (table.slots[slot] as number) - 1;
    if (word < 0) return -1;
    const at = table.charStart[word] as number;
    if (table.hashes[word] === hash && (table.charStart[word + 1] as number) - at === length && isWordInBytes(bytes, found, table.chars, at)) return word;
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

/** Keeps the (lower-cased) word with its wordHash and its placeMarks, and room for its terms' numbers; answers its number in the table. */
function keepInTable(table: WordTable, word: string, hash: number, terms: number, marks: number): number {
  const number = table.count;
  if (number + 1 === table.charStart.length) {
    table.hashes = grown(table.hashes, number + 1);
    table.marks = grown(table.marks, number + 1);
    table.charStart = grown(table.charStart, number + 2);
    table.termStart = grown(table.termStart, number + 2);
  }
  const charsFrom = table.charStart[number] as number;
  if (charsFrom + word.length > table.chars.length) table.chars = grown(table.chars, charsFrom + word.length);
  for (let i = 0; i < word.length; i += 1) table.chars[charsFrom + i] = word.charCodeAt(i);
  table.charStart[number + 1] = charsFrom + word.length;
  const termsFrom = table.termStart[number] as number;
  if (termsFrom + terms > table.terms.length) table.terms = grown(table.terms, termsFrom + terms);
  table.termStart[number + 1] = termsFrom + terms;
  table.hashes[number] = hash;
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

/**
 * Frees the slot of the entry placed last: a lookup of any placed before it stops short of that
 * slot, which was free when it was placed.
 */
function unplace(slots: Int32Array, entry: number, hash: number): void {
  const mask = slots.length - 1;
  let slot = hash & mask;
  while (slots[slot] !== entry + 1) slot = (slot + 1) & mask;
  slots[slot] = 0;
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
