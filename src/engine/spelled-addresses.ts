import { wordTerms } from './lexicon.js';
import { words } from './text.js';

// An e-mail address written out in words, so that machines harvesting addresses do not read it
// ("tollef at add dot no", "anna.berg at example dot com", "tollef at add.no"), is no words of
// its sentence: "add" of "add.no" would answer "How do I add a new user?" with the credits.
// Training reads such a sentence as written; a query leaves out the terms only its addresses hold.

/** A name, "at", and a host of labels joined by "dot" or dots, ending in a domain of letters ("at 9.30" is a time). */
const SPELLED = /[\p{L}\p{N}._%+-]+ (?:at|\(at\)|\[at\]) [\p{L}\p{N}-]+(?:(?: dot |\.)[\p{L}\p{N}-]+)*(?: dot |\.)\p{L}{2,}(?![\p{L}\p{N}])/giu;
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
