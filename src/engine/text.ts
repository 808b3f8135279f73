import { stemmer } from 'stemmer';

// Word handling shared by the index and the offline responder, so that what retrieval matched
// is what the responder recognises in a sentence.

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into ' +
    'is it its me my of on or our please so than that the their them then there these they this ' +
    'to us was we were what when where which who whom why will with would you your yours about ' +
    'any tell know want need get should may might also just some such very something anything ' +
    'everything nothing someone anyone everyone somebody anybody'
  ).split(' '),
);

/** Lower-cased words of a text, letters and digits only (any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/** The terms a text is indexed and searched by: content words, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}

const STEMS_KEPT = 100_000;
const stems = new Map<string, string>();

/** A word's stem, the form every inflection of it shares ("returns", "returned" → "return"). */
export function stem(word: string): string {
  // Remembered: a text repeats its words, and training stems every one of them.
  let found = stems.get(word);
  if (found === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    found = stemmer(word.replace(/['’]s$/, ''));
    stems.set(word, found);
  }
  return found;
}
