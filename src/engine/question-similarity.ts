import { lemmas, synonyms } from './lexicon.js';
import { priceNamed } from './price-asked.js';
import { addressesNamed, contentWords, stem } from './text.js';

// Whether two questions ask the same thing, from their words alone: deterministic, no model.
// A question is reduced to its content words in dictionary form ("refunds" → refund), a price
// asked by its form named ("How much is shipping?" asks the price of shipping); two words
// match when they share a stem or WordNet gives one as a synonym of the other ("buy" ~
// "purchase"). The likeness of two questions is the share of their words that match (Dice).

/**
 * Words of how a question is put rather than what it asks about ("how do refunds work here?"),
 * among them the verbs asking whether a thing is taken, which say no more than the thing: "Do you
 * take PayPal?" asks what "Can I pay with PayPal?" does.
 */
const PHRASING = new Set('work works working here there exactly actually possible really like hi hello hey thanks thank ok okay take accept use'.split(' '));

/** Questions at least this alike are the same question. */
export const SAME_QUESTION = 0.6;

/** A question's words as compared: distinct, in dictionary form, sorted; an address as what it is (addressesNamed). */
export function questionTerms(question: string): string[] {
  const found = contentWords(priceNamed(addressesNamed(question)).replace(/['’]s\b/gi, ''))
    .filter((word) => !PHRASING.has(word))
    .map((word) => lemmas(word)[0] ?? word);
  return [...new Set(found)].sort();
}

/** The words a question's match may be stored under: its own and their one-word synonyms. */
export function relatedTerms(terms: string[]): string[] {
  return [...new Set([...terms, ...terms.flatMap((term) => synonyms(term).filter((word) => !word.includes(' ')))])];
}

const related = (a: string, b: string) =>
  a === b || stem(a) === stem(b) || synonyms(a).includes(b) || synonyms(b).includes(a);

/** How alike two questions' terms are, from 0 (nothing shared) to 1. */
export function questionLikeness(a: string[], b: string[]): number {
  if (a.length + b.length === 0) return 1;
  const matched = (from: string[], to: string[]) => from.filter((term) => to.some((other) => related(term, other))).length;
  return (matched(a, b) + matched(b, a)) / (a.length + b.length);
}
