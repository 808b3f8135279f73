import { describe, expect, it } from 'vitest';
import { words } from '../../src/engine/text.js';
import { saidOfBusiness, usedAsVerb } from '../../src/engine/verb-use.js';

/** A reading of a sentence's word, asked of `word` at its first occurrence in `sentence`. */
const atWord = (read: (tokens: string[], at: number) => boolean) => (sentence: string, word: string) => {
  const tokens = words(sentence);
  return read(tokens, tokens.indexOf(word));
};
const asVerb = atWord(usedAsVerb);
const ofBusiness = atWord(saidOfBusiness);

describe('usedAsVerb', () => {
  it.each([
    ['We offer lamps for every room.', 'offer'],
    ['We design and sell lamps.', 'sell'],
    ['We also provide gift wrapping.', 'provide'],
    ["We're happy to offer free delivery.", 'offer'],
    ['Free delivery is offered on large orders.', 'offered'],
    ['What we offer', 'offer'],
  ])('reads %s as using "%s" as a verb', (sentence, word) => {
    expect(asVerb(sentence, word)).toBe(true);
  });

  it.each([
    ['Follow us on Instagram for new designs and offers.', 'offers'],
    ['Our special offers change every week.', 'offers'],
    ['Sales end on Sunday.', 'sales'],
  ])('reads %s as using "%s" as a noun', (sentence, word) => {
    expect(asVerb(sentence, word)).toBe(false);
  });
});

describe('saidOfBusiness', () => {
  it.each([
    ['We service e-bikes from Bosch and Shimano.', 'service'],
    ['We also rent city bikes.', 'rent'],
    ['We design and sell lamps.', 'sell'],
    ['Do you rent bikes?', 'rent'],
  ])('reads %s as the business saying it does "%s"', (sentence, word) => {
    expect(ofBusiness(sentence, word)).toBe(true);
  });

  it.each([
    ['You can return any lamp within 30 days.', 'return'],
    ['City bikes rent for 300 NOK a day.', 'rent'],
    ['Can I hire a bike?', 'hire'],
  ])('reads %s as not saying what the business does ("%s")', (sentence, word) => {
    expect(ofBusiness(sentence, word)).toBe(false);
  });
});
