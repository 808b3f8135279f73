import { wordTerms } from './lexicon.js';
import { compoundTerm, findCompounds, findWords, foundWord, foundWords, type FoundWords } from './text.js';

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

export type TermReader = ReturnType<typeof termReader>;

export function termReader() {
  return {
    /** Term → its number. */
    termIds: new Map<string, number>(),
    /** The words and compounds read, with their terms' numbers. */
    known: wordTable(),
    found: foundWords(),
    /** The text each term was last read in, by its stamp: a term counts once a text, with no set a text. */
    lastSeen: new Int32Array(1_024),
    stamp: 0,
  };
}

/** The terms read so far, by number. */
export function vocabulary(reader: TermReader): string[] {
  return [...reader.termIds.keys()];
}

/** Appends the text's distinct terms (indexTerms(text)), in order of first appearance, to the list. */
export function readTerms(reader: TermReader, text: string, into: IntList): void {
  reader.stamp += 1;
  findWords(text, reader.found);
  addFoundTerms(reader, into, wordTerms);
  // Compounds are kept with the words, a compound's one term its own: no word has a hyphen.
  findCompounds(text, reader.found);
  addFoundTerms(reader, into, (compound) => [compoundTerm(compound)]);
}

/** Adds the terms of the words found; those of a word not kept yet are termsOf(word). */
function addFoundTerms(reader: TermReader, into: IntList, termsOf: (word: string) => string[]): void {
  const { found, known } = reader;
  for (let k = 0; k < found.count; k += 1) {
    let word = wordNumber(known, found, k);
    if (word < 0) word = keepWord(known, found, k, termsOf(foundWord(found, k)).map((term) => termId(reader, term)));
    const end = known.termStart[word + 1] as number;
    for (let t = known.termStart[word] as number; t < end; t += 1) addTerm(reader, known.terms[t] as number, into);
  }
}

function addTerm(reader: TermReader, id: number, into: IntList): void {
  if (reader.lastSeen[id] === reader.stamp) return;
  reader.lastSeen[id] = reader.stamp;
  if (into.length === into.values.length) into.values = grown(into.values, into.length + 1);
  into.values[into.length] = id;
  into.length += 1;
}

function termId(reader: TermReader, term: string): number {
  let id = reader.termIds.get(term);
  if (id === undefined) {
    id = reader.termIds.size;
    reader.termIds.set(term, id);
    if (id === reader.lastSeen.length) reader.lastSeen = grown(reader.lastSeen, id + 1);
  }
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
  const from = found.bounds[k] as number;
  const length = (found.bounds[k + 1] as number) - from;
  const kept = table.charStart[word] as number;
  if ((table.charStart[word + 1] as number) - kept !== length) return false;
  for (let i = 0; i < length; i += 1) if (table.chars[kept + i] !== found.chars[from + i]) return false;
  return true;
}

/** Keeps found word k with its terms' numbers; answers its number in the table. */
function keepWord(table: WordTable, found: FoundWords, k: number, terms: number[]): number {
  const number = table.count;
  if (number + 1 === table.charStart.length) {
    table.hashes = grown(table.hashes, number + 1);
    table.charStart = grown(table.charStart, number + 2);
    table.termStart = grown(table.termStart, number + 2);
  }
  const chars = found.chars.subarray(found.bounds[k], found.bounds[k + 1]);
  const charsFrom = table.charStart[number] as number;
  if (charsFrom + chars.length > table.chars.length) table.chars = grown(table.chars, charsFrom + chars.length);
  table.chars.set(chars, charsFrom);
  table.charStart[number + 1] = charsFrom + chars.length;
  const termsFrom = table.termStart[number] as number;
  if (termsFrom + terms.length > table.terms.length) table.terms = grown(table.terms, termsFrom + terms.length);
  table.terms.set(terms, termsFrom);
  table.termStart[number + 1] = termsFrom + terms.length;
  table.hashes[number] = found.hashes[k] as number;
  table.count = number + 1;
  if (table.count * 2 > table.slots.length) {
    table.slots = new Int32Array(table.slots.length * 2);
    for (let word = 0; word < table.count; word += 1) place(table, word);
  } else {
    place(table, number);
  }
  return number;
}

function place(table: WordTable, word: number): void {
  const mask = table.slots.length - 1;
  let slot = (table.hashes[word] as number) & mask;
  while (table.slots[slot] !== 0) slot = (slot + 1) & mask;
  table.slots[slot] = word + 1;
}

/** A copy of the array with room for at least `needed` values: twice its length or more. */
function grown<T extends Int32Array | Uint16Array>(array: T, needed: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}
