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

/** A word broken at a line's end: what stands before its last part in the word, its last part, and the part on the next line. */
const BROKEN_WORD = /(\S*?)(\p{L}+)-\uE002(\p{L}*)/gu;
/** Words, and compounds of them, written on a line: "well-known", "known". */
const WORDS = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
/** Punctuation that may open a word: a word after it is no part of one. */
const OPENING = /^[(["'“‘«]*$/u;

/** The text with each word broken at a line's end made whole: without its hyphen where it is one word, with it where a compound. */
export function withBrokenWordsJoined(text: string): string {
  if (!text.includes(LINE_BREAK_HYPHEN)) return text;
  const words = vocabulary(text);
  const parts = (match: string[]) => [match[1] ?? '', match[2] ?? '', match[3] ?? ''] as const;
  // Its typesetter breaks words between syllables where it broke one the text writes whole elsewhere.
  const syllables = [...text.matchAll(BROKEN_WORD)].some((match) => breakKind(...parts(match), words) === 'word');
  return text.replace(BROKEN_WORD, (...match: string[]) => {
    const [before, first, second] = parts(match);
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
 * The words and compounds the text writes on a line (lower-case). A compound's parts are no words
 * of it: "re" of "re-install" would make "re-" / "spectively" a compound.
 */
function vocabulary(text: string): Set<string> {
  return new Set(Array.from(text.replace(BROKEN_WORD, ' ').toLowerCase().matchAll(WORDS), ([word]) => word));
}
