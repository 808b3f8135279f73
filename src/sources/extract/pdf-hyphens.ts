// A word a PDF breaks at a line's end with a hyphen ("Print-" / "ing") is one word again once its
// lines are joined: "Printing". A compound ("Command-" / "line", "well-" / "known") keeps its
// hyphen. Which is which, the document itself tells: the word as it writes it elsewhere, on one
// line, hyphenated or solid. Else it depends on its typesetter: a word processor breaks lines at
// a compound's hyphen only, while TeX also breaks words between syllables, which a document shows
// by a broken word it writes solid elsewhere; there, a broken word whose part after the break the
// document writes nowhere on its own ("tempera-" / "ture") is one word, and one whose part it does
// ("self-" / "service") a compound. TeX breaks a word with a hyphen or a digit in it only at its
// hyphen, so a part after one (a package's name, "fonts-crosextra-" / "caladea") keeps its hyphen.

/** Where a line ending in a hyphen after a letter was joined to the next: in the text until the hyphens are read. */
export const LINE_BREAK_HYPHEN = '-\uE002';

/**
 * A word broken at a line's end: what stands before its last part in the word, its last part, and
 * the part on the next line. It is read back from the mark, its last part letter by letter: the
 * pattern (\S*?)(\p{L}+)-mark(\p{L}*) tried every start in a word and every length at each, and
 * took 15 seconds over a run of 1,000 letters.
 */
type Broken = { from: number; to: number; before: string; first: string; second: string };

const LETTER = /^\p{L}$/u;
/** The letters after a mark, read where the mark ends (sticky). */
const SECOND_PART = /\p{L}*/uy;

/** The words broken at a line's end, in order; each from the start of its word (or the end of the one before) to the end of its part after the break. */
function brokenWords(text: string): Broken[] {
  const broken: Broken[] = [];
  let wordStart = 0;
  for (let at = text.indexOf(LINE_BREAK_HYPHEN); at >= 0; at = text.indexOf(LINE_BREAK_HYPHEN, at + LINE_BREAK_HYPHEN.length)) {
    const from = Math.max(wordStart, text.lastIndexOf(' ', at) + 1, text.lastIndexOf('\n', at) + 1, text.lastIndexOf('\t', at) + 1);
    // No letters before the mark (it ends a word broken just before): a compound's hyphen, as breakKind reads it.
    const firstStart = lettersEndingAt(text, from, at);
    SECOND_PART.lastIndex = at + LINE_BREAK_HYPHEN.length;
    const second = SECOND_PART.exec(text)?.[0] ?? '';
    const to = at + LINE_BREAK_HYPHEN.length + second.length;
    broken.push({ from, to, before: text.slice(from, firstStart), first: text.slice(firstStart, at), second });
    wordStart = to;
  }
  return broken;
}

/** Where the letters that end text[from, end) begin (end where none does), a letter outside the Basic Multilingual Plane as one. */
function lettersEndingAt(text: string, from: number, end: number): number {
  let start = end;
  for (;;) {
    const width = start - 2 >= from && /[\uDC00-\uDFFF]/.test(text.charAt(start - 1)) ? 2 : 1;
    if (start - width < from || !LETTER.test(text.slice(start - width, start))) return start;
    start -= width;
  }
}

/** The text with each broken word replaced by `rewrite` of it. */
function rewritten(text: string, broken: Broken[], rewrite: (word: Broken) => string): string {
  let written = '';
  let last = 0;
  for (const word of broken) {
    written += text.slice(last, word.from) + rewrite(word);
    last = word.to;
  }
  return written + text.slice(last);
}
/** Words, and compounds of them, written on a line: "well-known", "known". */
const WORDS = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
/** Punctuation that may open a word: a word after it is no part of one. */
const OPENING = /^[(["'“‘«]*$/u;

/** The text with each word broken at a line's end made whole: without its hyphen where it is one word, with it where a compound. */
export function withBrokenWordsJoined(text: string): string {
  if (!text.includes(LINE_BREAK_HYPHEN)) return text;
  const broken = brokenWords(text);
  const words = vocabulary(rewritten(text, broken, () => ' '));
  // Its typesetter breaks words between syllables where it broke one the text writes whole elsewhere.
  const syllables = broken.some(({ before, first, second }) => breakKind(before, first, second, words) === 'word');
  return rewritten(text, broken, ({ before, first, second }) => {
    const unknown = () => (syllables && !words.has(second.toLowerCase()) ? 'word' : 'compound');
    return `${before}${first}${(breakKind(before, first, second, words) ?? unknown()) === 'compound' ? '-' : ''}${second}`;
  });
}

/** Whether the text tells a broken word a compound (written so, or a name with a hyphen or a digit before), one word (written so), or not. */
function breakKind(before: string, first: string, second: string, words: Set<string>): 'compound' | 'word' | undefined {
  if (!/^\p{Ll}/u.test(second) || !OPENING.test(before)) return 'compound';
  const [start, end] = [first.toLowerCase(), second.toLowerCase()];
  if (words.has(`${start}-${end}`)) return 'compound';
  return words.has(`${start}${end}`) ? 'word' : undefined;
}

/**
 * The words and compounds the text writes on a line (lower-case), its broken words taken out. A compound's parts are no words
 * of it: "re" of "re-install" would make "re-" / "spectively" a compound.
 */
function vocabulary(text: string): Set<string> {
  return new Set(Array.from(text.toLowerCase().matchAll(WORDS), ([word]) => word));
}
