import { describe, expect, it } from 'vitest';
import { words } from '../../src/engine/text.js';
import { usedAsVerb } from '../../src/engine/verb-use.js';

/** Whether `word` is used as a verb in `sentence`, at its first occurrence. */
const asVerb = (sentence: string, word: string) => {
  const tokens = words(sentence);
  return usedAsVerb(tokens, tokens.indexOf(word));
};

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
