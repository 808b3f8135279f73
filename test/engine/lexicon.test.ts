import { describe, expect, it } from 'vitest';
import { distinctKinds } from '../../src/engine/lexicon.js';

// WordNet's kinds, which keep word vectors from taking one kind of a thing for another.

describe('distinctKinds', () => {
  it('tells different kinds of one thing apart, in any inflection', () => {
    for (const [a, b] of [['cat', 'dog'], ['cats', 'dogs'], ['monday', 'tuesday'], ['tea', 'coffee']]) {
      expect(distinctKinds(a as string, b as string), `${a} ${b}`).toBe(true);
    }
  });

  it('keeps a word and its kind, synonyms, and kinds WordNet relates at different levels', () => {
    // A dog is a kind of animal; a toddler a kind of child; "pet" and "dog" meet at animal one and two up.
    for (const [a, b] of [['dog', 'animal'], ['toddlers', 'children'], ['processor', 'cpu'], ['bike', 'bicycle'], ['pets', 'dogs']]) {
      expect(distinctKinds(a as string, b as string), `${a} ${b}`).toBe(false);
    }
  });

  it('leaves alone words English uses mostly otherwise than as nouns, or does not know', () => {
    for (const [a, b] of [['allowed', 'take'], ['blorptang', 'dog']]) expect(distinctKinds(a as string, b as string), `${a} ${b}`).toBe(false);
  });
});
