import { describe, expect, it } from 'vitest';
import { questionLikeness, questionTerms, SAME_QUESTION } from '../../src/engine/question-similarity.js';

// Which questions count as the same unanswered question: paraphrases together, distinct
// questions apart, deterministically.

const same = (a: string, b: string) => questionLikeness(questionTerms(a), questionTerms(b)) >= SAME_QUESTION;

const PARAPHRASES = [
  ['refund policy?', "what's your refund policy", 'how do refunds work here?', 'Refund policy'],
  ['Can I purchase a gift card?', 'How do I buy a gift card', 'do you sell gift cards?'],
  ['Do you ship to Norway?', 'shipping to norway'],
  ['Can you fix my bike?', 'Do you repair bikes?'],
  ['What is the price of a tune-up?', 'How much does a tune-up cost?'],
  // A price asked by the form alone is the price asked in words.
  ['How much is shipping?', 'What does shipping cost?', 'shipping price?'],
  ['When are you open?', 'What are your opening hours?'],
  ['Can I pay with PayPal?', 'Do you take PayPal?', 'Do you accept PayPal?', 'can i use paypal'],
  // An address reads as what it is, as in the material: its parts are no words of the question.
  ['What is your email?', 'Is hello@shop.example your email?'],
];

const DISTINCT = [
  ['refund policy?', 'privacy policy?'],
  ['refund policy?', 'how long do refunds take?'],
  ['Do you ship to Norway?', 'Do you ship to Sweden?'],
  ['Can you fix my bike?', 'Do you sell e-bikes?'],
  ['Can I purchase a gift card?', 'Is there parking nearby?'],
  ['Can I pay with PayPal?', 'Can I pay by card?'],
  ['Do you take PayPal?', 'Do you take cards?'],
  ['How long does delivery take?', 'Is delivery free?'],
  ['How much is shipping?', 'How much can a parcel weigh?'],
];

describe('questions that ask the same thing', () => {
  it.each(PARAPHRASES)('groups the paraphrases of %s', (first, ...others) => {
    for (const other of others) expect(same(first, other), `${first} ~ ${other}`).toBe(true);
  });

  it.each(DISTINCT)('keeps %s and %s apart', (a, b) => {
    expect(same(a, b)).toBe(false);
  });

  it('is symmetric and the same on every call', () => {
    for (const group of [...PARAPHRASES, ...DISTINCT]) {
      for (const a of group) {
        for (const b of group) {
          const likeness = questionLikeness(questionTerms(a), questionTerms(b));
          expect(questionLikeness(questionTerms(b), questionTerms(a))).toBe(likeness);
        }
      }
    }
  });

  it('reduces a question to its content words in dictionary form, without its phrasing', () => {
    expect(questionTerms("What's your refund policy?")).toEqual(['policy', 'refund']);
    expect(questionTerms('How do refunds work here?')).toEqual(['refund']);
    expect(questionTerms('Bought bikes')).toEqual(['bike', 'buy']);
  });
});
