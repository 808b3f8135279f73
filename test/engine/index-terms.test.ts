import { describe, expect, it } from 'vitest';
import { indexTerms } from '../../src/engine/lexicon.js';
import { compoundTerms, words } from '../../src/engine/text.js';

// The terms training indexes a text by: its words' stems, the base forms of irregular ones, and
// its hyphenated compounds whole.

describe('indexTerms', () => {
  it('stems content words, adds the base forms of irregular ones and drops stopwords', () => {
    expect(indexTerms('The children paid for the returns, she bought it’s e-bikes')).toEqual([
      'children', 'child', 'paid', 'pai', 'return', 'she', 'bought', 'bui', 'it', 'e', 'bike', 'e-bike',
    ]);
  });
});

describe('compoundTerms', () => {
  it('finds compounds only from a word’s start, in any script, the last part stemmed', () => {
    expect(compoundTerms('Our Wi-Fi, e-bikes and KES-4105 x--y a-b-c- -d-e x_f-g İ-Returns 𝐀𝐁-Ω')).toEqual([
      'wi-fi', 'e-bike', 'kes-4105', 'a-b-c', 'd-e', 'f-g', '𝐀𝐁-ω',
    ]);
  });
});

describe('words', () => {
  it('lower-cases the whole text before reading words, so that a letter lowered to two characters splits', () => {
    // "İ" lowers to "i" and a combining dot, which is not a letter; "ΣΑΣ." ends in a final sigma.
    expect(words('İstanbul ΣΑΣ. Don’t l’été x’1')).toEqual(['i', 'stanbul', 'σας', 'don’t', 'l’été', 'x', '1']);
  });
});
