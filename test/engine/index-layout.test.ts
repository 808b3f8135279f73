import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { packIndex, unpackIndex } from '../../src/engine/index-layout.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import type { StringList } from '../../src/engine/string-table.js';
import { documentText } from './eval/score.js';

// The stored layout gives back the very index that was packed, strings of any script included,
// from bytes wherever they start (a store's buffer may sit at any offset of a larger one).

const isStringList = (value: unknown): value is StringList => typeof value === 'object' && value !== null && 'at' in value && !ArrayBuffer.isView(value);
const listed = (list: StringList) => Array.from({ length: list.length }, (_, k) => list.at(k));
const valuesOf = (value: unknown) => (isStringList(value) ? listed(value) : Array.from(value as ArrayLike<unknown>));

describe('packIndex / unpackIndex', () => {
  const text = `${documentText('thermostat-manual.md')}\n\n## Ünïcode\nCafé « crème » costs 4 €. 東京の店は9時に開きます 😀. Straße.`;
  const index = buildLexicalIndex(chunkText(text).map((chunk, seq) => ({ seq, text: chunk })));

  it('unpacks to the packed index, at an aligned or an odd offset', () => {
    const packed = packIndex(index);
    const shifted = new Uint8Array(packed.byteLength + 3);
    shifted.set(packed, 3);
    for (const bytes of [packed, shifted.subarray(3)]) {
      const unpacked = unpackIndex(bytes);
      for (const [field, value] of Object.entries(index)) {
        const list = unpacked[field as keyof typeof index];
        expect(valuesOf(list), field).toEqual(valuesOf(value));
      }
      expect(unpacked.sentences.length).toBe(index.sentences.length);
      // As an array's: from the end for a negative position, and nothing past either end.
      for (const k of [-1, -index.sentences.length, 0, index.sentences.length, -index.sentences.length - 1]) {
        expect(unpacked.sentences.at(k)).toBe(index.sentences.at(k));
      }
    }
  });

  it('searches as the index it was packed from', () => {
    const unpacked = lexicalSearcher(unpackIndex(packIndex(index)));
    const original = lexicalSearcher(index);
    for (const question of ['How long do the batteries last?', 'What does the café crème cost?', 'reset', 'Straße']) {
      expect(unpacked(question, 4)).toEqual(original(question, 4));
    }
  });

  it('keeps each string its own bytes, lone surrogates included, where one string ends in half a pair and the next begins with the other', () => {
    // UTF-8 has no half pairs: each half is written as U+FFFD, not joined with its neighbour into one character.
    const halves = buildLexicalIndex([{ seq: 0, text: 'Ends here \uD83D' }, { seq: 1, text: '\uDE00 starts there. And more text follows.' }]);
    const unpacked = unpackIndex(packIndex(halves));
    expect([...listed(unpacked.keys), ...listed(unpacked.sentences)]).toEqual([...halves.keys, ...(listed(halves.sentences) as string[])].map((string) => Buffer.from(string).toString()));
    expect(listed(unpacked.sentences)).toContain('\uFFFD starts there.');
  });
});
