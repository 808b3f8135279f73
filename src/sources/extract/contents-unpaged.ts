import { CONTENTS_TITLE, MIN_ENTRIES } from './contents-title.js';

// A table of contents without pages, as a book written as text (or dumped from its web edition)
// lists its sections: "1.1. Console basics", "1.1.1. The shell prompt". Its entries are told by
// what they name, the document's own headings: each stands again elsewhere as a line of its own
// ("1.1. Console basics"), or after a word ("Chapter 1. GNU/Linux tutorials", "Table 1.1. …"),
// or over two lines where one wrapped it. Without the recurrence, a list under a "Contents" title
// (what a box holds) is content and stays.

/** The share of a contents' lines at least that stand again elsewhere: a list of tables may wrap an entry where its table's caption does not. */
const MIN_RECURRING = 3 / 4;
/** An entry's section number: "1.", "2.4.1.", "A.3". */
const NUMBERED = /^(?:[\p{Lu}\d]{1,3}\.)+\d*\s/u;

/**
 * The text without each paragraph of MIN_ENTRIES lines at least right under a paragraph that is a
 * contents title, half of them at least numbered and MIN_RECURRING of them standing again
 * elsewhere in the text, and without that title.
 */
export function withoutUnpagedContents(text: string): string {
  const paragraphs = text.split('\n\n');
  const titles = paragraphs.flatMap((paragraph, index) => (CONTENTS_TITLE.test(paragraph.trim()) ? [index] : []));
  if (!titles.length) return text;
  const counts = lineCounts(text);
  const dropped = new Set(titles.filter((index) => isContents(paragraphs[index + 1]?.split('\n') ?? [], counts)).flatMap((index) => [index, index + 1]));
  return dropped.size ? paragraphs.filter((_, index) => !dropped.has(index)).join('\n\n') : text;
}

function isContents(paragraph: string[], counts: Map<string, number>): boolean {
  const lines = paragraph.map(spaced);
  // A line stands again as it is (once more than in the contents), or joined to the line after it
  // or before it, as one wrapped entry.
  const joined = (first: string | undefined, second: string | undefined) => first !== undefined && second !== undefined && counts.has(`${first} ${second}`);
  const recurring = lines.filter((line, index) => (counts.get(line) ?? 0) >= 2 || joined(line, lines[index + 1]) || joined(lines[index - 1], line));
  return lines.length >= MIN_ENTRIES && recurring.length >= lines.length * MIN_RECURRING && lines.filter((line) => NUMBERED.test(line)).length * 2 >= lines.length;
}

/** How often each line stands in the text, as it is or after its first word, its spaces one each. */
function lineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (line: string) => counts.set(line, (counts.get(line) ?? 0) + 1);
  for (const line of text.split('\n')) {
    const trimmed = spaced(line);
    count(trimmed);
    const space = trimmed.indexOf(' ');
    if (space > 0) count(trimmed.slice(space + 1));
  }
  return counts;
}

/** A line with its white space one space each: a heading's number may stand before a no-break space ("1.1.\u00a0Console basics"). */
const spaced = (line: string): string => line.replace(/\s+/g, ' ').trim();
