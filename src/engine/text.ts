import { stemmer } from 'stemmer';

// Word handling shared by the index and the offline responder, so that what retrieval matched
// is what the responder recognises in a sentence.

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into ' +
    'is it its me my of on or our please so than that the their them then there these they this ' +
    'to us was we were what when where which who whom why will with would you your yours about ' +
    'any tell know want need get should may might also just some such very something anything ' +
    'everything nothing someone anyone everyone somebody anybody per via'
  ).split(' '),
);

/** Text with its line breaks as "\n" (from "\r\n" and "\r"). */
export function unixLineBreaks(text: string): string {
  // Searching is much cheaper than a replacement that finds nothing, as in most texts.
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Lower-cased words of a text, letters and digits only (any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/**
 * words(text) found in place, where the text is ASCII (’ aside), as most training text is:
 * `found` gets each word's start and end in the text and its wordHash, so that a reader keeping
 * the words it has seen makes no lower-cased copy and no string a word. Returns false, having
 * found nothing, for other text: lower-casing it may change its length ("İ" → "i̇") or depend on
 * the letters around ("Σ" → "σ" or "ς"), as only words() gets right.
 */
export function findAsciiWords(text: string, found: (start: number, end: number, hash: number) => void): boolean {
  if (NOT_ASCII.test(text)) return false;
  let i = 0;
  while (i < text.length) {
    let code = text.charCodeAt(i);
    if (!isAsciiLetterOrDigit(code)) {
      i += 1;
      continue;
    }
    // Letters and digits, then an apostrophe and the letters after it if there are any: words()'s pattern.
    const start = i;
    let hash = 0;
    for (; isAsciiLetterOrDigit(code); code = text.charCodeAt((i += 1))) hash = nextHash(hash, code);
    if ((code === 0x27 || code === 0x2019) && isAsciiLetter(text.charCodeAt(i + 1))) {
      hash = nextHash(hash, code);
      for (code = text.charCodeAt((i += 1)); isAsciiLetter(code); code = text.charCodeAt((i += 1))) hash = nextHash(hash, code);
    }
    found(start, i, hash);
  }
  return true;
}

/** The hash findAsciiWords gives a word: of its characters lower-cased. */
export function wordHash(word: string): number {
  let hash = 0;
  for (let i = 0; i < word.length; i += 1) hash = nextHash(hash, word.charCodeAt(i));
  return hash;
}

/** Whether text[start, end) lower-cased is the (lower-cased) word. */
export function isWordAt(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i += 1) if (word.charCodeAt(i) !== lowerAscii(text.charCodeAt(start + i))) return false;
  return true;
}

const NOT_ASCII = /[\u0080-\u2018\u201a-\uffff]/;
const isAsciiLetter = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
const isAsciiLetterOrDigit = (code: number) => isAsciiLetter(code) || (code >= 0x30 && code <= 0x39);
const lowerAscii = (code: number) => (code >= 0x41 && code <= 0x5a ? code + 0x20 : code);
// 30 bits: a small integer to V8, which a Map looks up without allocating a number.
const nextHash = (hash: number, code: number) => (Math.imul(hash, 31) + lowerAscii(code)) & 0x3fffffff;

/** The words of a text that carry its content: its words without the stopwords. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => !isStopword(word));
}

/** Whether a (lower-cased) word is one that carries no content ("the", "which"). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** The terms a text is indexed and searched by: content words, stemmed. */
export function terms(text: string): string[] {
  return contentWords(text).map(stem);
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

// Hyphenated compounds ("e-bikes", "Wi-Fi", "second-hand") are indexed whole as well as by their
// parts, so that a question finds them written apart ("electric bikes", "second hand") or together
// ("ebikes", "wifi").

/**
 * Letters and digits joined by hyphens. Only from a word's start: a match can begin nowhere else,
 * and trying each later letter of every word again made the search quadratic in a word's length.
 */
const COMPOUND = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

/** The compounds of a text as terms: parts lower-cased and joined by "-", the last one stemmed. */
export function compoundTerms(text: string): string[] {
  // ASCII text is searched as it is, each compound lower-cased alone: see findAsciiWords.
  if (!NOT_ASCII.test(text)) {
    return (text.match(ASCII_COMPOUND) ?? []).map((compound) => {
      const last = compound.lastIndexOf('-') + 1;
      return compound.slice(0, last).toLowerCase() + stem(compound.slice(last).toLowerCase());
    });
  }
  return (text.toLowerCase().match(COMPOUND) ?? []).map((compound) => {
    const parts = compound.split('-');
    return [...parts.slice(0, -1), stem(parts.at(-1) as string)].join('-');
  });
}

const ASCII_COMPOUND = /(?<![a-zA-Z0-9])[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)+/g;

export type CompoundFinder = (word: string, next: string | undefined, inMaterial: boolean) => string | undefined;

/** A vocabulary's compounds as a finder looks them up, by the keys of compoundKeys. */
export type CompoundLookup = {
  /** The compound whose parts written together stem to this; of several, the last in the vocabulary. */
  joined(key: string): string | undefined;
  /** The two-part compounds with this second part, in vocabulary order. */
  headedBy(head: string): string[];
};

/** What a compound term is looked up by: its parts written together, stemmed, and its second part if it has two. */
export function compoundKeys(term: string): { joined: string; head: string | undefined } | undefined {
  if (!term.includes('-')) return undefined;
  const parts = term.split('-');
  return { joined: stem(term.replace(/-/g, '')), head: parts.length === 2 ? parts[1] : undefined };
}

/**
 * Finds the compound of a vocabulary that a question's words name: one word written together
 * ("ebikes" → e-bike), or two apart whose first matches the compound's first part, or begins
 * with it when that part is an initial ("electric bikes" → e-bike). An initial stands for a word
 * the material does not use itself, so "expensive bikes" stays itself where the text says so.
 */
export function compoundFinder(compounds: CompoundLookup): CompoundFinder {
  return (word, next, inMaterial) => {
    if (next !== undefined) {
      const match = compounds.headedBy(stem(next)).find((term) => {
        const first = term.slice(0, term.indexOf('-'));
        return word === first || (first.length === 1 && !inMaterial && word.startsWith(first));
      });
      if (match) return match;
    }
    return compounds.joined(stem(word));
  };
}
