import { CONTENTS_TITLE, MIN_ENTRIES } from './contents-title.js';
import { withoutUnpagedContents } from './contents-unpaged.js';

// A table of contents (or a list of tables or figures) in a file's text: its entries, a title, dot
// leaders and a page number each ("4.7.1 sudo . . . . . 94"), say nothing an answer should quote,
// and hundreds of them crowd out a book's real sections. They are dropped from every kind of file.
// A price list may set its prices after leaders too ("Haircut ..... 25"): contents are told from it
// by their title ("Contents", "List of Tables") and by their pages, which never go down the list.
// A menu's prices may rise down it as pages do ("Small ..... 2", "Large ..... 4"), so the title
// decides: dropping a price list would cost an owner answers, keeping contents only crowds them.

/** Dot leaders running to a page: "Returns ........ 12", "Preface . . . . vii". */
const LEADERS_TO_PAGE = /(?:[.·…]\s?){3,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})$/i;
/** A line of words ending in page references: "Shipping 4", "Returns 12–14", "Lamps 4, 7", "Lamps sold before 2024 15". */
const ENDS_IN_PAGES = /\p{L}.*\s\d{1,4}(?:[–-]\d{1,4})?(?:,\s?\d{1,4}(?:[–-]\d{1,4})?)*$/u;
/**
 * An entry is a line of a page's width at most. The patterns above try each place a line may
 * begin a match: on a longer line, which is no entry, they took time growing with its square
 * (a line of 64,000 characters, seconds).
 */
const MAX_ENTRY_CHARS = 300;

/** Whether a line runs to its page after dot leaders. */
export const leadsToPage = (line: string): boolean => line.length <= MAX_ENTRY_CHARS && LEADERS_TO_PAGE.test(line);

/** Whether a line ends in page references, with or without leaders. */
export const endsInPages = (line: string): boolean => line.length <= MAX_ENTRY_CHARS && (LEADERS_TO_PAGE.test(line) || ENDS_IN_PAGES.test(line));

const FENCE = /^`{3,}/;
const HEADING = /^#{1,6} /;

/**
 * The text without its contents: each run under a contents title of MIN_ENTRIES lines at least
 * (blank lines aside, a heading or any other line ending it) that end in a page, half of them at least after leaders,
 * whose arabic page numbers never go down, with the first line of an entry whose title wraps over
 * two, and the title. A code block's lines stay as they are.
 */
export function withoutContents(text: string): string {
  const blocks = text.split('\n\n').map((block) => block.split('\n').map((line) => ({ line })));
  const dropped = new Set<{ line: string }>();
  let run: { line: string }[] = [];
  let wrapped: { line: string }[] = [];
  // The last line before the run that is none of its entries: the run's title, if it has one,
  // which goes with its entries, as a title over nothing says nothing ("# List of Tables").
  let title = { line: '' };
  const close = () => {
    if (CONTENTS_TITLE.test(title.line.trim()) && isContents(run.map(({ line }) => line))) for (const entry of [title, ...run, ...wrapped]) dropped.add(entry);
    [run, wrapped] = [[], []];
  };
  let code = false;
  for (const block of blocks) {
    for (const [index, entry] of block.entries()) {
      const { line } = entry;
      if (FENCE.test(line)) code = !code;
      const body = !code && !HEADING.test(line);
      if (body && endsInPages(line)) run.push(entry);
      // An entry's title wrapped over two lines: its first, above the one with its leaders.
      else if (body && leadsToPage(block[index + 1]?.line ?? '')) wrapped.push(entry);
      else if (code || line.trim() !== '') {
        close();
        title = entry;
      }
    }
  }
  close();
  if (!dropped.size) return withoutUnpagedContents(text);
  // A block of entries alone goes, and its blank line with it; an empty block (a code block's blank lines) stays.
  return withoutUnpagedContents(
    blocks
      .filter((block) => !block.every((entry) => dropped.has(entry)))
      .map((block) => block.filter((entry) => !dropped.has(entry)).map(({ line }) => line).join('\n'))
      .join('\n\n'),
  );
}

function isContents(entries: string[]): boolean {
  if (entries.length < MIN_ENTRIES || entries.filter(leadsToPage).length * 2 < entries.length) return false;
  const pages = entries.map((entry) => /(\d{1,4})$/.exec(entry)?.[1]).filter((page) => page !== undefined).map(Number);
  return pages.every((page, index) => index === 0 || page >= (pages[index - 1] ?? 0));
}
