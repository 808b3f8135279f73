import { describe, expect, it } from 'vitest';
import { askedAbility, askedThing, askedWithMeans, lightVerbOfThing, offeringAsked, placeAsked, sellingAsked } from '../../src/engine/asked-thing.js';
import { words } from '../../src/engine/text.js';

/** The words askedThing names, rather than their indexes. */
const named = (question: string) => {
  const tokens = words(question);
  return askedThing(tokens).map((at) => tokens[at]);
};

/** The verb and the thing a question's finder names (sellingAsked, placeAsked), as words rather than indexes. */
const verbAndThing = (find: (tokens: string[]) => { verb: number; thing: number } | undefined) => (question: string) => {
  const tokens = words(question);
  const found = find(tokens);
  return found && [tokens[found.verb], tokens[found.thing]];
};

describe('askedThing', () => {
  it.each([
    ['Is there a free trial?', ['trial']],
    ['Do you offer gift cards for birthdays?', ['cards']],
    ['Does the hotel have a pool?', ['pool']],
    ['Can I track my order?', ['track']],
    ['Can I pay with PayPal?', ['pay', 'paypal']],
    ['Do you take PayPal?', ['paypal']],
    ['Can I get a refund?', ['refund']],
    ["Can we take our kid's pram?", ['pram']],
    ['When will my refund arrive?', ['refund']],
    ['When are blood samples taken?', ['blood', 'samples']],
    ['How long does delivery take?', ['delivery']],
  ])('names what %s asks about', (question, thing) => {
    expect(named(question)).toEqual(thing);
  });

  it.each([
    'How do I get my money back?',
    'When will it arrive?',
    'Can we take our buggy and car seat?',
    'What payment methods do you accept?',
    'Is there somewhere to park?',
    'Is there anywhere to eat nearby?',
  ])('names nothing of its own in %s', (question) => {
    expect(named(question)).toEqual([]);
  });
});

describe('askedWithMeans', () => {
  it('names a verb and the means it is asked to be done by', () => {
    const tokens = words('Can I pay over the phone?');
    expect(askedWithMeans(tokens)?.map((at) => tokens[at])).toEqual(['pay', 'phone']);
    expect(askedWithMeans(words('Can I pay for two lamps?'))).toBeUndefined();
    expect(askedWithMeans(words('Can I bring it by car?'))).toBeUndefined();
  });
});

describe('lightVerbOfThing', () => {
  it.each([
    ['Do you take PayPal?', 'take'],
    ['Can I get a refund?', 'get'],
    ['Does the hotel have a pool?', 'have'],
  ])('names the light verb of %s, which asks of its object', (question, verb) => {
    const tokens = words(question);
    expect(tokens[lightVerbOfThing(tokens)?.verb ?? -1]).toBe(verb);
    expect(lightVerbOfThing(tokens)?.whenLacked).toBe(false);
  });

  it.each([
    ['What lamps do you sell?', 'sell', ['lamps']],
    ['Which kinds of cards does the shop take?', 'take', ['cards']],
    ['What payment methods do you accept?', 'accept', ['payment', 'methods']],
  ])('names the verb of %s, asking which things are offered, as light where the material lacks it', (question, verb, object) => {
    const tokens = words(question);
    const light = lightVerbOfThing(tokens);
    expect(light && [tokens[light.verb], light.object.map((at) => tokens[at]), light.whenLacked]).toEqual([verb, object, true]);
  });

  it.each([
    ['Where can I leave the car?', 'leave', 'car'],
    ['Is there somewhere to put my bags?', 'put', 'bags'],
  ])('names the verb of %s, asking a place for a thing, as light', (question, verb, object) => {
    const tokens = words(question);
    const light = lightVerbOfThing(tokens);
    expect(light && [tokens[light.verb], light.object.map((at) => tokens[at]), light.whenLacked]).toEqual([verb, [object], false]);
  });

  it.each(['Can I track my order?', 'Is there a free trial?', 'Can we take our buggy and car seat?', 'What do you sell?'])('names none in %s', (question) => {
    expect(lightVerbOfThing(words(question))).toBeUndefined();
  });
});

describe('askedAbility', () => {
  it('names the verb a "Can I…?" question asks whether one may do, not a light one', () => {
    const tokens = words('Can I cancel my plan?');
    expect(tokens[askedAbility(tokens) ?? -1]).toBe('cancel');
    expect(askedAbility(words('Can I get a refund?'))).toBeUndefined();
    expect(askedAbility(words('How do I cancel my plan?'))).toBeUndefined();
  });
});

describe('offeringAsked', () => {
  it('names the verb of a question asking what a business offers, naming nothing', () => {
    const verbOf = (question: string) => {
      const tokens = words(question);
      return tokens[offeringAsked(tokens) ?? -1];
    };
    expect(verbOf('What do you sell?')).toBe('sell');
    expect(verbOf('what does the shop offer')).toBe('offer');
    expect(verbOf('What lamps do you sell?')).toBeUndefined();
    expect(verbOf('What do you sell online?')).toBeUndefined();
  });
});

describe('sellingAsked', () => {
  it('names the verb and the thing of a question asking whether the business sells it', () => {
    const selling = verbAndThing(sellingAsked);
    expect(selling('Do you sell bikes?')).toEqual(['sell', 'bikes']);
    expect(selling('do they sell city bikes')).toEqual(['sell', 'bikes']);
    expect(selling('Do you rent bikes?')).toBeUndefined();
    expect(selling('Do you have bikes?')).toBeUndefined();
    expect(selling('What bikes do you sell?')).toBeUndefined();
  });
});

describe('placeAsked', () => {
  it('names the verb of putting and the thing of a question asking where to put it', () => {
    const placing = verbAndThing(placeAsked);
    expect(placing('Where can I leave the car?')).toEqual(['leave', 'car']);
    expect(placing('is there somewhere to put my bags?')).toEqual(['put', 'bags']);
    expect(placing('Where can I park?')).toBeUndefined();
    expect(placing('Can I leave the car overnight?')).toBeUndefined();
  });
});
