// A PDF's running headers and footers and its page numbers, which are no text of its own: a line
// at a page's top or bottom that recurs on the other pages, as it is or with a number that counts
// the pages, arabic or roman (a book's front matter numbers its pages "ii", "xxvi").

/** A line of a page: its text, and whether its words stand apart in cells. */
type Edged = { text: string; columns: boolean };

/** Lines at a page's top or at its bottom that a running header or footer takes at most. */
const MAX_RUNNING_LINES = 3;

/** A lower-case roman numeral below 400, as a book's front matter numbers its pages: "ii", "xxvi". */
const ROMAN = String.raw`(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})`;
/** A number in a line that may count the pages: arabic, or a roman numeral standing as a word. */
const NUMBERS = new RegExp(String.raw`\d{1,4}|\b${ROMAN}\b`, 'g');
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/**
 * A line that is only a page number marker: "Page 3 of 9", "Page 3", "3 of 9", "3 / 9", "- 3 -",
 * a lone number of up to three digits (a year, "2026", may be content) or a lone roman numeral.
 */
const PAGE_NUMBER = /^(?:page\s+\d{1,4}(?:\s+of\s+\d{1,4})?|\d{1,4}\s*(?:of|\/)\s*\d{1,4}|[-–—]\s*\d{1,4}\s*[-–—]|\d{1,3})$/i;
const ROMAN_PAGE_NUMBER = new RegExp(`^${ROMAN}$`);

/**
 * A key a line at a page's edge is counted by: it recurs where the key is at the edge of half the
 * pages, and of two at least, or where it `counts` the pages, of MIN_COUNTED_PAGES at least.
 */
type Recurrence = { key: string; counts?: true };

/** Pages a number that counts them is at the edge of, at least, to number them: a book's front matter may be a tenth of it. */
const MIN_COUNTED_PAGES = 3;

/**
 * The pages without their running headers and footers, peeled from a page's edges a line at a
 * time (a header may be two lines): a page's first or last line that recurs at the edge of half
 * the pages, and of two at least, as it is or, in a PDF of three pages or more, but for a number
 * that counts the pages ("Page 3 of 9", a lone "3", "Handbook xxvi"), on three pages at least, as
 * the roman numbers of a book's front matter do (a table's rows, whose numbers do not, stay). Under
 * a running line, a row of cells (a table's header, repeated atop each page) is no running line
 * unless it numbers the page. A page number at a page's top or bottom goes too, whatever the page
 * count.
 */
export function withoutFurniture<Line extends Edged>(pages: Line[][]): Line[][] {
  let kept = pages.map(withoutPageNumber);
  for (let depth = 0; depth < MAX_RUNNING_LINES && pages.length >= 2; depth += 1) {
    const peeled = withoutRecurringEdges(kept, (line, page) => [
      ...(depth > 0 && line.columns ? [] : [{ key: `=${line.text}` }]),
      ...(pages.length >= 3 ? pageCountingKeys(line.text, page) : []),
    ]).map(withoutPageNumber);
    if (peeled.every((page, index) => page.length === kept[index]?.length)) break;
    kept = peeled;
  }
  return kept;
}

/**
 * For each number in a line, the line with that number as `#` and how far the number is from the
 * page's index: the same on every page (of the front matter, of the body) for a page number.
 */
function pageCountingKeys(text: string, page: number): Recurrence[] {
  return [...text.matchAll(NUMBERS)].map(({ 0: number, index }) => ({ key: `#${text.slice(0, index)}#${text.slice(index + number.length)}@${numberValue(number) - page}`, counts: true }));
}

function numberValue(numeral: string): number {
  if (/^\d+$/.test(numeral)) return Number(numeral);
  const values = [...numeral].map((letter) => ROMAN_VALUES[letter] ?? 0);
  // A letter before a larger one takes its value away: "iv", "xl".
  return values.reduce((total, value, index) => total + (value < (values[index + 1] ?? 0) ? -value : value), 0);
}

/** The pages without the first or last lines one of whose keys recurs (Recurrence). */
function withoutRecurringEdges<Line extends Edged>(pages: Line[][], keys: (line: Line, page: number) => Recurrence[]): Line[][] {
  const atEdge = (page: Line[], index: number) => index === 0 || index === page.length - 1;
  const counted = new Map<string, number>();
  for (const [number, page] of pages.entries()) {
    const edgeKeys = page.filter((_, index) => atEdge(page, index)).flatMap((line) => keys(line, number).map(({ key }) => key));
    for (const key of new Set(edgeKeys)) counted.set(key, (counted.get(key) ?? 0) + 1);
  }
  const recurs = Math.max(2, pages.length / 2);
  const recurring = (line: Line, page: number) => keys(line, page).some(({ key, counts }) => (counted.get(key) ?? 0) >= (counts ? Math.min(recurs, MIN_COUNTED_PAGES) : recurs));
  return pages.map((page, number) => page.filter((line, index) => !(atEdge(page, index) && recurring(line, number))));
}

/**
 * A page without a page number marker as its first or last line, whatever the page count: a
 * document of one or two pages has no running lines to find by repetition. Other lines stay.
 */
function withoutPageNumber<Line extends Edged>(page: Line[]): Line[] {
  return page.filter((line, index) => !((index === 0 || index === page.length - 1) && (PAGE_NUMBER.test(line.text) || ROMAN_PAGE_NUMBER.test(line.text))));
}
