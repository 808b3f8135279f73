import { describe, expect, it } from 'vitest';
import { encodeStrings } from '../../src/engine/encoded-strings.js';
import { indexTerms } from '../../src/engine/lexicon.js';
import { PLACE_TERM } from '../../src/engine/place-stated.js';
import { intList, listed, readEncodedTerms, readTerms, termReader, vocabulary } from '../../src/engine/term-reader.js';

// Training reads a source's sentences from their bytes, each word looked up as it is found, and
// reads as a string only what the bytes cannot tell (readTerms). Either way a sentence's terms,
// and the order the reader numbers them in, are those of reading every sentence as a string.

/** Each sentence's terms as the reader gives them, and the reader's vocabulary in its order. */
function readAll(sentences: string[], read: 'strings' | 'bytes') {
  const reader = termReader();
  const into = intList();
  const starts = [0];
  const encoded = encodeStrings(sentences);
  sentences.forEach((sentence, k) => {
    if (read === 'strings') readTerms(reader, sentence, into);
    else readEncodedTerms(reader, encoded, k, into);
    starts.push(into.length);
  });
  const terms = listed(into);
  const words = vocabulary(reader);
  return { terms: sentences.map((_, k) => Array.from(terms.subarray(starts[k], starts[k + 1]), (id) => words[id])), vocabulary: [...words] };
}

/** Checks that reading the sentences from their bytes gives what reading them as strings does, and answers that. */
function readBothWays(sentences: string[]) {
  const asStrings = readAll(sentences, 'strings');
  expect(readAll(sentences, 'bytes')).toEqual(asStrings);
  return asStrings;
}

/** indexTerms of a text with each term once, in order: what readTerms reads. */
const distinct = (text: string) => [...new Set(indexTerms(text))];

describe('readEncodedTerms', () => {
  it('reads words with an apostrophe, straight or curly, as one word each', () => {
    const sentences = ["Don't touch the dog's bowl.", 'Don’t touch the dog’s bowl.', "It's rock'n'roll o'clock, 'quoted' and ends'", 'A ’s and trailing’'];
    const { terms } = readBothWays(sentences);
    expect(terms[0]).toEqual(distinct(sentences[0] as string));
    expect(terms[1]).toEqual(distinct(sentences[1] as string));
    expect(terms[1]).toContain('don’t');
  });

  it('reads a word split by a letter that is not ASCII as a string does, keeping nothing of its ASCII part', () => {
    const sentences = ['The café opens early.', 'Visit Königstraße today.', 'The caf and the k are here.'];
    const { terms, vocabulary } = readBothWays(sentences);
    expect(terms[0]).toEqual(['cafe', 'open', 'earli']);
    // "caf" is numbered where the third sentence has it, not where the first began it.
    expect(vocabulary.indexOf('caf')).toBeGreaterThan(vocabulary.indexOf('todai'));
  });

  it('forgets the words it kept of a sentence that turns out to be read as a string', () => {
    // The words before "@" and "://" are new to the reader: they are parts of addresses a string reads as "email" and "website".
    const sentences = [
      'Write to hello@lumen-lamps.example today.',
      'Lumen and hello again, see https://lumen.example/shop or lamps.example.',
      'Hello, lumen lamps and shop.',
      'Plain words, then ŝ at the end',
    ];
    const { terms, vocabulary } = readBothWays(sentences);
    expect(terms[0]).toEqual(['write', 'email', 'todai']);
    expect(vocabulary.slice(0, 4)).toEqual(['write', 'email', 'todai', 'lumen']);
  });

  it('reads hyphenated compounds whole as well as by their parts', () => {
    const sentences = ['Our Wi-Fi, e-bikes and KES-4105 codes.', 'x--y a-b-c- -d-e it’s-done G-2032 and g-2032', 'Trailing -led and to-'];
    const { terms } = readBothWays(sentences);
    expect(terms[0]).toEqual(distinct(sentences[0] as string));
    expect(terms[1]).toContain('g-2032');
    expect(terms[1]).toContain('s-done');
  });

  it('reads numbers and decimals as words, and a dot before a letter as a string', () => {
    const sentences = ['Returns take 3 to 5 days, 5.95 each, 10x,000 in 2024.', 'Version v2.4 of Node.js is out.', 'Order at lumen.example or call.', 'A 1st and 2nd try.'];
    const { terms } = readBothWays(sentences);
    expect(terms[0]).toEqual(distinct(sentences[0] as string));
    expect(terms[2]).toEqual(['order', 'websit', 'call']);
  });

  it('reads a sentence stating an address with the place term last, after its compounds', () => {
    const sentences = [
      'Harbor Bakery is at 12 Quay Street, Bergen.',
      'Nordlys Bike-Repair is at Storgata 41, 0182 Oslo.',
      'Ship it to our office in Austin, TX 78701.',
      'Codes are 78701 and TX.',
      'We are located in the old town.',
    ];
    const { terms } = readBothWays(sentences);
    for (const k of [0, 1, 2, 4]) expect(terms[k]?.at(-1)).toBe(PLACE_TERM);
    expect(terms[1]).toEqual(distinct(sentences[1] as string));
    expect(terms[3]).not.toContain(PLACE_TERM);
  });

  it('reads a sentence between others in the same bytes without their neighbours', () => {
    const sentences = ['First a', 'b-c second', 'third’', 's fourth-', '5th'];
    const { terms } = readBothWays(sentences);
    expect(terms[1]).toEqual(distinct('b-c second'));
  });
});
