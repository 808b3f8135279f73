import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { engineAnswerer } from './eval/score.js';

// A shop's material of three short paragraphs, none with a word for paying: a question of paying
// by a means it names is answered by the sentence naming it. 'Can I pay with PayPal?' was
// declined (the verb asked, "pay", was nowhere), and 'Do you take PayPal?' was answered with
// "Delivery takes…", which holds the verb and nothing asked.

const MATERIAL = 'Delivery takes 2 to 4 working days.\n\nWe accept Visa, Mastercard and PayPal.\n\nReturns are free within 30 days.';

const engine = engineAnswerer();
const ask = (question: string) => engine(MATERIAL, { question });

beforeAll(() => loadWordVectors());

describe('a small shop with no word for paying', () => {
  it.each(['Can I pay with PayPal?', 'Do you take PayPal?', 'Do you accept PayPal?'])('answers %s with the PayPal sentence', (question) => {
    expect(ask(question)).toBe('We accept Visa, Mastercard and PayPal.');
  });

  it.each(['Can I pay by cheque?', 'Do you take American Express?', 'Can I track my order?'])('declines %s, of which it names nothing', (question) => {
    expect(ask(question)).toBe(NO_ANSWER);
  });
});
