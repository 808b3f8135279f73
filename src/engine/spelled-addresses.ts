import { wordTerms } from './lexicon.js';
import { words } from './text.js';

// An e-mail address written out in words, so that machines harvesting addresses do not read it
// ("tollef at add dot no", "anna.berg at example dot com", "tollef at add.no"), is no words of
// its sentence: "add" of "add.no" would answer "How do I add a new user?" with the credits.
// Training reads such a sentence as written; a query leaves out the terms only its addresses hold.

/**
 * A name, "at", and a host of labels joined by "dot" or dots, ending in a domain of letters ("at
 * 9.30" is a time). Each part is bounded as an address's is (a name of 64 characters, labels of
 * 63, a few of them): unbounded, a long run of dotted letters took time growing with its square.
 */
const SPELLED = /[\p{L}\p{N}._%+-]{1,64} (?:at|\(at\)|\[at\]) [\p{L}\p{N}-]{1,63}(?:(?: dot |\.)[\p{L}\p{N}-]{1,63}){0,6}(?: dot |\.)\p{L}{2,63}(?![\p{L}\p{N}])/giu;
/** What every such address holds: most sentences are told at once. */
const MAY_HOLD = / (?:at|\(at\)|\[at\]) /i;

/** The terms of a text that only its addresses written out in words hold; none for most texts. */
export function termsOnlyInSpelledAddresses(text: string): string[] {
  if (!MAY_HOLD.test(text)) return [];
  const addresses = text.match(SPELLED);
  if (!addresses) return [];
  const rest = new Set(words(text.replace(SPELLED, ' ')).flatMap(wordTerms));
  return [...new Set(addresses.flatMap((address) => words(address).flatMap(wordTerms)))].filter((term) => !rest.has(term));
}
