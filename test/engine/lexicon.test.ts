import { describe, expect, it } from 'vitest';
import { broaderNouns, derivedForms, distinctKinds, isCommon, mayNameAThing, meantByBack, placingVerbs } from '../../src/engine/lexicon.js';

// WordNet's kinds, which keep word vectors from taking one kind of a thing for another, and let
// a question about a kind be answered by what the material says of the broader one; and whether
// English uses a word commonly, which tells a detail from a name the material does not know.

describe('isCommon', () => {
  it('knows common words, and British spellings as the American ones they share a sense with', () => {
    for (const word of ['price', 'weeks', 'neighbour', 'instalments', 'enrolment', 'colour']) expect(isCommon(word), word).toBe(true);
  });

  it('leaves rare and unknown words rare, and does not take another word a letter or two apart for a spelling', () => {
    for (const word of ['tandem', 'skateboards', 'spayed', 'homekit', 'cheque']) expect(isCommon(word), word).toBe(false);
  });
});

describe('mayNameAThing', () => {
  it('tells a word English has as a noun, in some form, from one it uses only as a verb, adjective or adverb', () => {
    for (const word of ['skateboards', 'tandem', 'goodies', 'nick']) expect(mayNameAThing(word), word).toBe(true);
    for (const word of ['nicked', 'spayed', 'upfront', 'overdrawn']) expect(mayNameAThing(word), word).toBe(false);
  });
});

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

describe('broaderNouns', () => {
  it('gives the kinds a thing is a kind of, each with its level, in any inflection', () => {
    expect(broaderNouns('parrots')).toContainEqual(['bird', 1]);
    expect(broaderNouns('tortoise')).toEqual(expect.arrayContaining([['turtle', 1], ['chelonian', 2]]));
    expect(broaderNouns('espresso')).toContainEqual(['coffee', 1]);
  });

  it('stops short of kinds near the root, which say nothing of a word', () => {
    const kinds = broaderNouns('dogs').map(([kind]) => kind);
    expect(kinds).toContain('canine');
    for (const general of ['organism', 'being', 'entity']) expect(kinds).not.toContain(general);
  });

  it('gives nothing for an abstract thing or an artifact, whose kinds are words of other uses, nor for an unknown word', () => {
    // "conditioning" is first a kind of learning, which "air conditioning" is not; a surfboard is
    // a board, as "on board" is not.
    for (const word of ['conditioning', 'step', 'surfboard', 'bottle', 'blorptang']) expect(broaderNouns(word), word).toEqual([]);
  });

  it("gives a rare word for a made thing the common word of the kind WordNet defines it as, where that is the word's commonest sense", () => {
    // "loo" is WordNet's "water closet…: a toilet in Britain", never seen in its American corpus.
    expect(broaderNouns('loo')).toContainEqual(['toilet', 1]);
    // "a small canoe…" is a narrower kind: a material's canoes are no kayaks.
    expect(broaderNouns('kayak')).toEqual([]);
  });
});

describe('derivedForms', () => {
  it('gives the words derived from a word and the word it derives from, both ways', () => {
    expect(derivedForms('month')).toContain('monthly');
    expect(derivedForms('monthly')).toContain('month');
    expect(derivedForms('payment')).toContain('pay');
    expect(derivedForms('deliver')).toContain('delivery');
  });

  it('gives nothing for a word WordNet derives nothing from, nor for an unknown one', () => {
    for (const word of ['the', 'blorptang']) expect(derivedForms(word), word).toEqual([]);
  });
});

describe('placingVerbs', () => {
  it('gives the ways of putting a thing that WordNet defines by the thing or a kind it is', () => {
    // "park": to maneuver a vehicle into a parking space; a car and a pram are vehicles.
    expect(placingVerbs('car')).toEqual(['park']);
    expect(placingVerbs('cars')).toEqual(['park']);
    expect(placingVerbs('pram')).toContain('park');
  });

  it('gives nothing for a thing no way of putting is defined by, nor by its examples alone', () => {
    // WordNet's example "park your bag in this locker" does not make a bag a thing one parks.
    expect(placingVerbs('bag')).toEqual([]);
    expect(placingVerbs('coat')).toEqual([]);
    expect(placingVerbs('qwzx')).toEqual([]);
  });
});

describe('meantByBack', () => {
  it('reads money got back as a refund, in any inflection', () => {
    for (const money of ['deposit', 'money', 'fees', 'payment']) expect(meantByBack(money), money).toEqual(['refund']);
  });

  it('reads nothing into another thing got back, nor into "back" alone', () => {
    for (const thing of ['bike', 'order', 'car', undefined]) expect(meantByBack(thing), thing).toEqual([]);
  });
});
