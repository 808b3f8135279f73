import { describe, expect, it } from 'vitest';
import { hashOf } from '../../src/engine/string-table.js';
import { stem } from '../../src/engine/text.js';
import { readVectorTable, similarity, stemOf, wordRow } from '../../src/engine/word-vectors.js';

// The worker hands the vectors over as one transferred buffer that is read in place: taking them
// in decodes no string and builds no Map (200,000 strings and two Maps held the event loop for a
// tenth of a second).

describe('the word vector table', () => {
  const table = readVectorTable();

  it('is views of one buffer, which the worker transfers, and holds no string', () => {
    for (const [field, value] of Object.entries(table)) {
      expect(ArrayBuffer.isView(value) && value.buffer === table.values.buffer, field).toBe(true);
    }
  });

  it('finds a word’s row, and none for a word it lacks', () => {
    const row = (word: string) => wordRow(table, word) as number;
    expect(similarity(table, row('processor'), row('cpu'))).toBeGreaterThan(0.7);
    expect(similarity(table, row('processor'), row('bicycle'))).toBeLessThan(0.5);
    expect(wordRow(table, 'xqzvw')).toBeUndefined();
  });

  it('lists each stem once, with its hash and a row of a word of that stem', () => {
    const terms: string[] = [];
    const wrongHashes: string[] = [];
    for (let k = 0; k < table.stems.length; k += 2) {
      const term = stemOf(table, table.stems[k] as number);
      terms.push(term);
      if (table.stems[k + 1] !== hashOf(term)) wrongHashes.push(term);
    }
    expect(wrongHashes).toEqual([]);
    expect(new Set(terms).size).toBe(terms.length);
    expect(terms).toContain(stem('processors'));
    expect(terms.length).toBeGreaterThan(50_000);
  });
});
