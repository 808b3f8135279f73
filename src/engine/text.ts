import { stemmer } from 'stemmer';

// Word handling shared by the index and the offline responder, so that what retrieval matched
// is what the responder recognises in a sentence.

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into ' +
    'is it its me my of on or our please so than that the their them then there these they this ' +
    'to us was we were what when where which who whom why will with would you your yours about ' +
    'any tell know want need get should may might also just some such very something anything ' +
    'everything nothing someone anyone everyone somebody anybody per via he him his she her hers ' +
    'myself yourself himself herself itself ourselves themselves ours theirs those whose shall'
  ).split(' '),
);

/** Text with its line breaks as "\n" (from "\r\n" and "\r"). */
export function unixLineBreaks(text: string): string {
  // Searching is much cheaper than a replacement that finds nothing, as in most texts.
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Whether the character at i is white space (\s); ASCII, most of text, is answered without a pattern. */
export function isWhiteSpace(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITE_SPACE.test(text.charAt(i));
}

const WHITE_SPACE = /\s/;

/** Lower-cased words of a text, letters and digits only (any script), folded as matchingCase folds them. */
export function words(text: string): string[] {
  return matchingCase(text).match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/**
 * A text as words are matched in it: lower case, the accents of Latin letters dropped and ß as
 * ss, as people type on a phone ("roscon" for the material's "roscón"). Quotes keep the text as
 * written. Other scripts' marks stay: a Devanagari vowel sign or a Japanese dakuten makes another
 * word, not an accented one.
 */
export function matchingCase(text: string): string {
  const lower = text.toLowerCase();
  if (!NOT_ASCII.test(lower)) return lower;
  return lower.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC').replace(/ß/g, 'ss');
}

const LATIN_MARKS = /(?<=\p{Script=Latin})\p{M}+/gu;

/**
 * A text as its words are read for matching: each e-mail address as the word "email" and each
 * web address as "website". An address's parts are no words of its sentence ("lamps" of
 * hello@lumen-lamps.example would answer questions on lamps with the contact sentence), while
 * what it is answers a question asking for it ("What's your website?"). The text quoted keeps it.
 */
export function addressesNamed(text: string): string {
  // Most sentences hold no "@", "://" or letter right after a dot: a quick search tells.
  return MAY_HOLD_ADDRESS.test(text) ? text.replace(ADDRESSES, (address: string, email: string | undefined) => (email ? ' email ' : ' website ')) : text;
}

/**
 * A top-level domain that is no file name's ending (".md", ".js", ".sh" stay words), in lower case
 * as addresses are written ("ASP.NET" is a name).
 */
const DOMAIN_END = 'com|org|net|edu|gov|info|biz|io|co|ai|app|dev|shop|online|site|eu|uk|us|ca|au|nz|ie|de|nl|be|fr|es|se|dk|fi|ch|example|test';
/**
 * A host name: labels of letters, digits and hyphens joined by dots. Bounded as DNS bounds them
 * (63 characters a label, 127 labels): the pattern is tried after every dot of a text, and
 * unbounded it read on to the end of a run like "a.a.a." at each, so a question of 32,000 such
 * characters took minutes.
 */
const HOST = String.raw`[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,126}`;
/**
 * An e-mail address (captured; its local part at most 64 characters, as the standard has it, for
 * the bound HOST has), or a web address: one with its scheme or "www.", a host name with a path,
 * or one ending in a common top-level domain ("gaietyquay.example").
 */
const ADDRESS_SOURCE = String.raw`(?<![\p{L}\p{N}])(?:([\p{L}\p{N}._%+-]{1,64}@${HOST}\.\p{L}{2,})|(?:https?:\/\/|www\.)\S+|${HOST}\.(?:\p{L}{2,}\/\S*|(?:${DOMAIN_END})(?![\p{L}\p{N}-])(?:\/\S*)?))`;
/** What every address holds: a sentence of words is told to hold none several times faster than by ADDRESS_SOURCE. */
const MAY_HOLD_ADDRESS = /@|:\/\/|\.\p{L}/u;
const ADDRESSES = new RegExp(ADDRESS_SOURCE, 'gu');

/**
 * Words found in a text, for a reader keeping the words it has seen: each one's characters
 * lower-cased, flat, and its wordHash. Typed arrays reused text after text, so that millions of
 * words make no string each and no garbage.
 */
export type FoundWords = {
  count: number;
  /** Where word k's characters start in `chars` (k) and end (k + 1). */
  bounds: Int32Array;
  hashes: Int32Array;
  chars: Uint16Array;
};

export function foundWords(): FoundWords {
  return { count: 0, bounds: new Int32Array(1_025), hashes: new Int32Array(1_024), chars: new Uint16Array(4_096) };
}

/** Found word k as a string. */
export function foundWord(found: FoundWords, k: number): string {
  const end = found.bounds[k + 1] as number;
  let word = '';
  // In pieces: a call takes a bounded number of arguments.
  for (let from = found.bounds[k] as number; from < end; from += 4_096) {
    word += String.fromCharCode.apply(null, found.chars.subarray(from, Math.min(end, from + 4_096)) as unknown as number[]);
  }
  return word;
}

/** The hash of a (lower-cased) word: what findWords gives it. */
export function wordHash(word: string): number {
  let hash = 0;
  for (let i = 0; i < word.length; i += 1) hash = nextHash(hash, word.charCodeAt(i));
  return hash;
}

/** Finds words(text) into `found`. */
export function findWords(text: string, found: FoundWords): void {
  if (!findAsciiWords(text, found)) keepAll(words(text), found);
}

/**
 * words(text) found in place, where the text is ASCII (’ aside), as most training text is: each
 * character is looked at once, with no lower-cased copy of the text or string a word. Returns
 * false for other text, told in the same pass: lower-casing it may change its length
 * ("İ" → "i̇") or depend on the letters around ("Σ" → "σ" or "ς"), as only words() gets right.
 */
function findAsciiWords(text: string, found: FoundWords): boolean {
  const length = text.length;
  // As many characters as the text at most, and a word takes two with what ends it.
  room(found, (length >> 1) + 1, length);
  const { bounds, hashes, chars } = found;
  let count = 0;
  let at = 0;
  let i = 0;
  while (i < length) {
    let code = text.charCodeAt(i);
    let lower = lowerAlnum(code);
    if (lower === 0) {
      if (code >= 0x80 && code !== 0x2019) return false;
      i += 1;
      continue;
    }
    // Letters and digits, then an apostrophe and the letters after it if there are any: words()'s pattern.
    let hash = 0;
    for (; lower !== 0; lower = lowerAlnum((code = text.charCodeAt((i += 1))))) {
      hash = nextHash(hash, lower);
      chars[at++] = lower;
    }
    if ((code === 0x27 || code === 0x2019) && lowerAlnum(text.charCodeAt(i + 1)) >= 0x61) {
      hash = nextHash(hash, code);
      chars[at++] = code;
      for (lower = lowerAlnum(text.charCodeAt((i += 1))); lower >= 0x61; lower = lowerAlnum(text.charCodeAt((i += 1)))) {
        hash = nextHash(hash, lower);
        chars[at++] = lower;
      }
    }
    hashes[count] = hash;
    bounds[(count += 1)] = at;
  }
  found.count = count;
  return true;
}

/** Where nextWordInBytes stopped: at a word (into its WordInBytes), at the bytes' end, or at what only a string reads right. */
export type BytesRead = 'word' | 'end' | 'other';

/** A word found in bytes by nextWordInBytes, or a compound by nextCompoundInBytes. */
export type WordInBytes = {
  /** Where its bytes start, and end: where the next word is looked for. */
  from: number;
  end: number;
  /** How many characters it has: as many as bytes, but for a ’ (three bytes). */
  length: number;
  hash: number;
  /** Where the first hyphen nextWordInBytes passed since the caller set this to -1 is: a text's compounds are found from there. */
  hyphen: number;
};

export function wordInBytes(): WordInBytes {
  return { from: 0, end: 0, length: 0, hash: 0, hyphen: -1 };
}

/**
 * The next of the words findWords finds in the UTF-8 bytes [i, to) of a text, found in place
 * where, as in most training text, they are ASCII (’ aside) and hold nothing addressesNamed would
 * change (no "@", "://" or letter right after a dot, as MAY_HOLD_ADDRESS): a byte is read faster
 * than a string's character. One word a call, so that a reader looks each up as it is found
 * (isWordInBytes), with no copy of its characters. 'other' at the first byte of other text, which
 * is then read as a string. Small, for V8 to inline into the reader's loop: what is rarer is apart.
 */
export function nextWordInBytes(bytes: Uint8Array, i: number, to: number, word: WordInBytes): BytesRead {
  while (i < to) {
    const byte = bytes[i] as number;
    if (lowerByte(byte) !== 0) {
      readWord(bytes, i, to, word);
      return 'word';
    }
    i = byte < 0x80 && !MARKS_LOOKED_AT[byte] ? i + 1 : afterMark(bytes, i, to, word);
    if (i < 0) return 'other';
  }
  return 'end';
}

/** Where the next word may begin after the mark (no letter or digit) at i; -1 where the mark makes the text one to read as a string. */
function afterMark(bytes: Uint8Array, i: number, to: number, word: WordInBytes): number {
  const byte = bytes[i] as number;
  if (byte >= 0x80) return isCurlyApostrophe(bytes, i, to) ? i + 3 : -1;
  if (byte === 0x40 || (byte === 0x3a && bytes[i + 1] === 0x2f && bytes[i + 2] === 0x2f && i + 2 < to)) return -1;
  if (byte === 0x2e && lowerByteAt(bytes, i + 1, to) >= 0x61) return -1;
  if (byte === HYPHEN && word.hyphen < 0) word.hyphen = i;
  return i + 1;
}

/** Reads the word beginning at byte `from` (a letter or digit), as findAsciiWords reads one: letters and digits, then an apostrophe and the letters after it if there are any. */
function readWord(bytes: Uint8Array, from: number, to: number, word: WordInBytes): void {
  let hash = 0;
  let i = from;
  for (let lower = lowerByte(bytes[i] as number); lower !== 0; lower = lowerByteAt(bytes, (i += 1), to)) hash = nextHash(hash, lower);
  word.from = from;
  word.end = i;
  word.length = i - from;
  word.hash = hash;
  if (i < to && (bytes[i] === 0x27 || bytes[i] === 0xe2)) readApostrophe(bytes, to, word);
}

/** Reads on past the end of a word an apostrophe (' or ’) and the letters after it, if there are any. */
function readApostrophe(bytes: Uint8Array, to: number, word: WordInBytes): void {
  let i = word.end;
  const apostrophe = bytes[i] === 0x27 ? 1 : isCurlyApostrophe(bytes, i, to) ? 3 : 0;
  if (apostrophe === 0 || lowerByteAt(bytes, i + apostrophe, to) < 0x61) return;
  let hash = nextHash(word.hash, apostrophe === 1 ? 0x27 : CURLY_APOSTROPHE);
  for (let lower = lowerByteAt(bytes, (i += apostrophe), to); lower >= 0x61; lower = lowerByteAt(bytes, (i += 1), to)) hash = nextHash(hash, lower);
  word.length += 1 + i - (word.end + apostrophe);
  word.end = i;
  word.hash = hash;
}

/** The word nextWordInBytes (or compound nextCompoundInBytes) found, as findWords (findCompounds) gives it. */
export function wordOfBytes(bytes: Uint8Array, found: WordInBytes): string {
  let word = '';
  // Character by character: a few times faster than decoding the bytes, for words this short.
  for (let i = found.from; i < found.end; ) {
    const char = charOfWordByte(bytes[i] as number);
    word += String.fromCharCode(char);
    i += char === CURLY_APOSTROPHE ? 3 : 1;
  }
  return word;
}

/** Whether the word nextWordInBytes found is the `word.length` characters of `chars` from `at`, as findWords gives them. */
export function isWordInBytes(bytes: Uint8Array, word: WordInBytes, chars: Uint16Array, at: number): boolean {
  const end = at + word.length;
  for (let i = word.from; at < end; at += 1, i += 1) {
    const char = chars[at] as number;
    // A letter, digit, apostrophe or hyphen lower-cased by setting one bit, as in ASCII all else has it set.
    if (char === ((bytes[i] as number) | 0x20)) continue;
    if (char !== CURLY_APOSTROPHE || bytes[i] !== 0xe2) return false;
    i += 2;
  }
  return true;
}

/** The byte at i as lowerAlnum reads a character: 0 for any but an ASCII letter or digit, and past `to`. */
const lowerByteAt = (bytes: Uint8Array, i: number, to: number) => (i < to ? lowerByte(bytes[i] as number) : 0);
/** lowerAlnum of a byte. */
const lowerByte = (byte: number) => LOWER_BYTES[byte] as number;
/** lowerByteAt of bytes [from, to): 0 before `from` as well. */
const lowerByteIn = (bytes: Uint8Array, i: number, from: number, to: number) => (i >= from ? lowerByteAt(bytes, i, to) : 0);
const HYPHEN = 0x2d;
const CURLY_APOSTROPHE = 0x2019;

/** Whether the bytes at i are ’ (U+2019) in UTF-8. */
const isCurlyApostrophe = (bytes: Uint8Array, i: number, to: number) => i + 2 < to && bytes[i] === 0xe2 && bytes[i + 1] === 0x80 && bytes[i + 2] === 0x99;

/** Keeps the (lower-cased) words as found. */
function keepAll(list: string[], found: FoundWords): void {
  room(found, list.length, list.reduce((sum, word) => sum + word.length, 0));
  found.count = list.length;
  list.forEach((word, k) => {
    const from = found.bounds[k] as number;
    for (let i = 0; i < word.length; i += 1) found.chars[from + i] = word.charCodeAt(i);
    found.bounds[k + 1] = from + word.length;
    found.hashes[k] = wordHash(word);
  });
}

/** Makes room for this many words and characters. */
function room(found: FoundWords, count: number, chars: number): void {
  if (count >= found.hashes.length) {
    found.hashes = new Int32Array(2 * count);
    found.bounds = new Int32Array(2 * count + 1);
  }
  if (chars > found.chars.length) found.chars = new Uint16Array(2 * chars);
  found.bounds[0] = 0;
}

/** An ASCII letter or digit lower-cased; 0 for any other character (NaN past the text's end included). */
const lowerAlnum = (code: number) => (code < 0x80 ? (LOWER_ALNUM[code] as number) : 0);
const LOWER_ALNUM = Uint8Array.from({ length: 0x80 }, (_, code) =>
  code >= 0x41 && code <= 0x5a ? code + 0x20 : (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? code : 0,
);
const LOWER_BYTES = Uint8Array.from({ length: 0x100 }, (_, byte) => lowerAlnum(byte));
/** The ASCII marks afterMark looks at: those of addresses ("@", "://", "." before a letter), and the hyphen. */
const MARKS_LOOKED_AT = Uint8Array.from({ length: 0x80 }, (_, byte) => Number('@:.-'.includes(String.fromCharCode(byte))));
/** The character a byte of a word or compound found in bytes stands for: lowerAlnum's, an apostrophe or hyphen, and ’ for the first of its three bytes. */
const charOfWordByte = (byte: number) => WORD_BYTE_CHARS[byte] as number;
const WORD_BYTE_CHARS = Uint16Array.from({ length: 0x100 }, (_, byte) =>
  byte === 0x27 || byte === HYPHEN ? byte : byte === 0xe2 ? CURLY_APOSTROPHE : lowerAlnum(byte),
);
const NOT_ASCII = /[\u0080-\u2018\u201a-\uffff]/;
// 30 bits: a small integer to V8.
const nextHash = (hash: number, lowered: number) => (Math.imul(hash, 31) + lowered) & 0x3fffffff;

/**
 * The words of a question (or any text read as one) that carry its content: its words without the
 * stopwords and their contractions ("what's", "don't"), which would otherwise count as words the
 * material lacks. A material's text is indexed by wordTerms (lexicon.ts), which drops stopwords.
 */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => !isStopword(word) && !isContractedStopword(word) && !CHAT_SPELLINGS.has(word) && !PRO_FORMS.has(word));
}

/** Words a question puts for a thing it names elsewhere ("and a delayed one?"), which the material's "one" (a number) does not answer. */
const PRO_FORMS = new Set(['one', 'ones']);

/** Stopwords and their contractions as chat spells them ("r u open", "whats the deposit", "do you guys"). */
const CHAT_SPELLINGS = new Set('u r ur pls plz guys whats wheres hows whens whos thats theres dont doesnt didnt cant wont isnt arent im ive youre'.split(' '));

/** Whether a (lower-cased) word is one that carries no content ("the", "which"). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Words contracted with "'s", "'re", "'ve", "'ll", "'d" or "'m" that carry no content, besides the stopwords. */
const CONTRACTED = new Set(['he', 'she', 'let', 'here']);
/** What "n't" is contracted with ("do" in "don't", "ca" in "can't", "wo" in "won't"). */
const NEGATED = new Set('do does did ca wo is are was were have has had could would should must need'.split(' '));

/**
 * Whether a word is a contraction of ones that carry no content ("what's", "I'm", "don't", "can't"):
 * a question put with one is asked as without it, not taken for a word the material lacks. A
 * possessive ("dog's") is a word of its own.
 */
function isContractedStopword(word: string): boolean {
  const apostrophe = word.search(/['’]/);
  if (apostrophe < 0) return false;
  const base = word.slice(0, apostrophe);
  const ending = word.slice(apostrophe + 1);
  if (ending === 't') return base.endsWith('n') && NEGATED.has(base.slice(0, -1));
  return ['s', 're', 've', 'll', 'd', 'm'].includes(ending) && (STOPWORDS.has(base) || CONTRACTED.has(base));
}

/** The terms a question is searched by: its content words, stemmed (a material's are wordTerms', lexicon.ts). */
export function terms(text: string): string[] {
  return contentWords(text).map(stem);
}

const STEMS_KEPT = 100_000;
const stems = new Map<string, string>();

/** A word's stem, the form every inflection of it shares ("returns", "returned" → "return"). */
export function stem(word: string): string {
  // Porter's rules all take off letters: a word that ends in a digit ("kes4105", a code or a
  // compound written together) is its own stem, lower-cased. Codes are many and rarely repeat.
  if (endsInDigit(word)) return word.toLowerCase();
  // Remembered: a text repeats its words, and training stems every one of them.
  let found = stems.get(word);
  if (found === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    found = stemmer(word.replace(/['’]s$/, ''));
    stems.set(word, found);
  }
  return found;
}

function endsInDigit(word: string): boolean {
  const last = word.charCodeAt(word.length - 1);
  return last >= 0x30 && last <= 0x39;
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
  const found = foundWords();
  findCompounds(text, found);
  return Array.from({ length: found.count }, (_, k) => compoundTerm(foundWord(found, k)));
}

/** A compound's term, from the compound lower-cased: its last part stemmed. */
export function compoundTerm(compound: string): string {
  const last = compound.lastIndexOf('-') + 1;
  return compound.slice(0, last) + stem(compound.slice(last));
}

/** Finds the compounds of a text, lower-cased, into `found`. */
export function findCompounds(text: string, found: FoundWords): void {
  found.count = 0;
  if (!text.includes('-')) return;
  // ASCII text is searched as it is, each compound lower-cased alone: see findAsciiWords.
  if (NOT_ASCII.test(text)) keepAll(matchingCase(text).match(COMPOUND) ?? [], found);
  else findAsciiCompounds(text, found);
}

/**
 * The compounds of ASCII text (’ aside) found in place, as COMPOUND finds them: the string's
 * characters as bytes, "latin1" taking each character's low byte (’ becomes a control byte,
 * which like ’ is neither a letter, a digit nor a hyphen).
 */
function findAsciiCompounds(text: string, found: FoundWords): void {
  const bytes = Buffer.from(text, 'latin1');
  room(found, (text.length >> 1) + 1, text.length);
  let count = 0;
  for (let i = 0; nextCompoundInBytes(bytes, i, 0, text.length, compound); i = compound.end) {
    let at = found.bounds[count] as number;
    for (let k = compound.from; k < compound.end; k += 1) found.chars[at++] = charOfWordByte(bytes[k] as number);
    found.hashes[count] = compound.hash;
    found.bounds[(count += 1)] = at;
  }
  found.count = count;
}

/** The compound findAsciiCompounds found last: one object for every text. */
const compound = wordInBytes();

/**
 * The next compound, after byte i, of the bytes [from, to) of a text: a run of letters and digits
 * joined by single hyphens to others, from a run's start, as COMPOUND finds them, lower-cased as
 * findCompounds finds it. Found from the hyphens, which most words lack, rather than by a pattern
 * tried at every word. False where there is none.
 */
export function nextCompoundInBytes(bytes: Uint8Array, i: number, from: number, to: number, found: WordInBytes): boolean {
  for (let hyphen = i; hyphen < to; hyphen += 1) {
    if (bytes[hyphen] !== HYPHEN || lowerByteIn(bytes, hyphen - 1, from, to) === 0 || lowerByteIn(bytes, hyphen + 1, from, to) === 0) continue;
    let start = hyphen - 1;
    while (lowerByteIn(bytes, start - 1, from, to) !== 0) start -= 1;
    let end = hyphen + 1;
    for (;;) {
      while (lowerByteAt(bytes, end, to) !== 0) end += 1;
      if (end >= to || bytes[end] !== HYPHEN || lowerByteAt(bytes, end + 1, to) === 0) break;
      end += 1;
    }
    let hash = 0;
    for (let k = start; k < end; k += 1) hash = nextHash(hash, charOfWordByte(bytes[k] as number));
    found.from = start;
    found.end = end;
    found.length = end - start;
    found.hash = hash;
    return true;
  }
  return false;
}

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
  // Its hyphens found by position, not by split and a pattern: packing a 10 MB material's index
  // keys every term, tens of thousands of compounds (codes) among them, and those cost a third of it.
  const hyphen = term.indexOf('-');
  if (hyphen < 0) return undefined;
  return { joined: stem(term.replaceAll('-', '')), head: term.includes('-', hyphen + 1) ? undefined : term.slice(hyphen + 1) };
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
