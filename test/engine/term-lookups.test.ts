import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { packIndex, unpackIndex } from '../../src/engine/index-layout.js';
import type { SearchableIndex } from '../../src/engine/index-shape.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import { hashOf, lookUp, sameHashes, stringNumbering, stringTable, type StringList } from '../../src/engine/string-table.js';
import { compoundKeys, stem } from '../../src/engine/text.js';

// A searcher is made from a stored index without decoding its vocabulary: the hash tables it looks
// terms up by are packed with the index (computed on the training worker), and agree with the
// Maps that setup used to build over the whole vocabulary on the event loop.

// Reference codes ("K-482") make thousands of compounds, sharing second parts; "A1-2" and "A-12"
// are one written together, as are "E-bike" and "Eb-ike".
const codes = Array.from({ length: 4_000 }, (_, i) => `Part ${String.fromCharCode(65 + (i % 26))}-${(i * 7) % 1_000} sits on shelf ${i}.`);
const text = [
  '# Workshop',
  'We repair e-bikes and e-scooters. Our Wi-Fi is free. Second-hand bikes are cheaper. Eb-ike is a brand.',
  'Codes A-12 and A1-2 differ.',
  ...codes,
].join('\n\n');
const built = buildLexicalIndex(chunkText(text).map((chunk, seq) => ({ seq, text: chunk })));
const stored = unpackIndex(packIndex(built));
const { lookups } = stored;
const termOf = (id: number) => built.vocabulary[id];

/** The index with its vocabulary counting the terms read from it. */
function counted(index: SearchableIndex): { index: SearchableIndex; reads: () => number } {
  let reads = 0;
  const vocabulary: StringList = { length: index.vocabulary.length, at: (k) => ((reads += 1), index.vocabulary.at(k)) };
  return { index: { ...index, vocabulary }, reads: () => reads };
}

describe('searcher setup from a stored index', () => {
  it('reads no term of the vocabulary, and a question reads a few', () => {
    const { index, reads } = counted(stored);
    const search = lexicalSearcher(index);
    expect(reads()).toBe(0);
    expect(search('Do you repair electric scooters? What about part K-482?', 4).length).toBeGreaterThan(0);
    expect(reads()).toBeGreaterThan(0);
    expect(reads()).toBeLessThan(50);
    expect(built.vocabulary.length).toBeGreaterThan(5_000);
  });

  it('answers as the index in memory does', () => {
    for (const question of ['ebikes', 'electric scooters', 'wifi', 'second hand bikes', 'k482', 'part K 482', 'a12', 'a 12', 'Who calibrates the dimmer switches?']) {
      expect(lexicalSearcher(stored)(question, 4)).toEqual(lexicalSearcher(built)(question, 4));
    }
  });
});

describe('packed term lookups', () => {
  it('find every term of the vocabulary at its id, and nothing else', () => {
    const ids = new Map(built.vocabulary.map((term, id) => [term, id]));
    for (const [term, id] of ids) {
      expect(lookUp(lookups?.terms as Int32Array, term, termOf)).toBe(id);
      expect(lookUp(lookups?.terms as Int32Array, `${term}x`, termOf)).toBe(ids.get(`${term}x`) ?? -1);
    }
  });

  it('find the compounds as Maps of their keys do: the last written together, all by their second part', () => {
    const joined = new Map<string, number>();
    const byHead = new Map<string, number[]>();
    built.vocabulary.forEach((term, id) => {
      if (!term.includes('-')) return;
      joined.set(stem(term.replace(/-/g, '')), id);
      const parts = term.split('-');
      if (parts.length === 2) byHead.set(parts[1] as string, [...(byHead.get(parts[1] as string) ?? []), id]);
    });
    expect(joined.size).toBeGreaterThan(1_000);
    const { heads, headed, headedStart } = lookups as NonNullable<SearchableIndex['lookups']>;
    for (const [key, id] of joined) expect(lookUp(lookups?.joined as Int32Array, key, (found) => compoundKeys(termOf(found) as string)?.joined)).toBe(id);
    for (const [head, ids] of byHead) {
      const group = lookUp(heads, head, (found) => compoundKeys(termOf(headed[headedStart[found] as number] as number) as string)?.head);
      expect(Array.from(headed.subarray(headedStart[group], headedStart[group + 1]))).toEqual(ids);
    }
    expect(byHead.size).toBe(headedStart.length - 1);
  });
});

describe('stringTable', () => {
  it('keeps the last value of a repeated key, skips undefined keys and answers -1 for a missing one', () => {
    const keys = ['a', undefined, 'b', 'a', ''];
    const table = stringTable(keys);
    const keyOf = (value: number) => keys[value];
    expect(['a', 'b', '', 'c', 'undefined'].map((key) => lookUp(table, key, keyOf))).toEqual([3, 2, 4, -1, -1]);
    expect(lookUp(stringTable([]), 'a', keyOf)).toBe(-1);
  });

  it('pairs the strings of a list with those of a table of the same hash', () => {
    const keys = Array.from({ length: 500 }, (_, i) => `term${i}`);
    const wanted = ['term7', 'term499', 'other', 'term0'];
    const pairs = Int32Array.from(wanted.flatMap((key, k) => [k, hashOf(key)]));
    const candidates = Array.from(sameHashes(pairs, stringTable(keys)));
    const found = candidates.flatMap((value, i) => (i % 2 === 0 ? [[wanted[value], keys[candidates[i + 1] as number]]] : []));
    expect(found.filter(([a, b]) => a === b).map(([a]) => a)).toEqual(['term7', 'term499', 'term0']);
  });
});

/** Two strings of the same hashOf. */
function sameHashPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i += 1) {
    const key = `w${i}`;
    const other = seen.get(hashOf(key));
    if (other !== undefined) return [other, key];
    seen.set(hashOf(key), key);
  }
}

describe('stringNumbering', () => {
  it('numbers strings in order of first appearance as the size of a Map does, strings of the same hash apart', () => {
    const [a, b] = sameHashPair();
    const strings = [...Array.from({ length: 2_000 }, (_, i) => `t${(i * 7) % 700}`), a, '', b, a, b, ''];
    const ids = new Map<string, number>();
    const expected = strings.map((string) => {
      if (!ids.has(string)) ids.set(string, ids.size);
      return ids.get(string);
    });
    const numbering = stringNumbering(ids.size);
    expect(strings.map((string) => numbering.idOf(string))).toEqual(expected);
    expect(numbering.keys).toEqual([...ids.keys()]);
  });

  it('refuses more strings than it was made for', () => {
    const numbering = stringNumbering(2);
    expect(['a', 'b', 'a', 'b'].map((string) => numbering.idOf(string))).toEqual([0, 1, 0, 1]);
    expect(() => numbering.idOf('c')).toThrow('more than the 2 strings');
    expect(numbering.keys).toEqual(['a', 'b']);
  });
});
