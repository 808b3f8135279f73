import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { damaged, ENCRYPTED_PDF, ExtractionError, NO_TEXT_LAYER, overfullPage } from './errors.js';
import { withBullets } from './pdf-bullets.js';
import { columnRuns } from './pdf-columns.js';
import { indexEntries } from './pdf-entries.js';
import { LINE_BREAK_HYPHEN, withBrokenWordsJoined } from './pdf-hyphens.js';
import { withoutFurniture } from './pdf-furniture.js';
import { CELL_GAP, PARAGRAPH_GAP, placed, rowsOf, rowSize, type Placed } from './pdf-rows.js';
import type { TableRow } from './pdf-table.js';
import { firstHeading } from './structured-text.js';

// A PDF's text layer as structured text. A PDF has no structure, only text placed on pages: text
// items at one height make a line (so a table row stays on one line), a wider gap than the line
// spacing starts a paragraph, and a line set larger than the body text is a heading, its level by
// its size. A line that runs to the right margin, or stops short of it because the next line's
// first word would not fit, continues on the next, as wrapped prose does, unless it is an entry of
// an index or a table of contents (pdf-entries.ts). A page in two columns is read a column at a
// time (pdf-columns.ts), and a table of two columns whose cells wrap their text a row a line
// (pdf-table.ts). Running headers and footers are dropped, a line at a time, and a page number at
// the top or bottom of any page (pdf-furniture.ts).

/**
 * A line of text, from its baseline `y` down to its last one's, `bottom` (a table row's cells may
 * wrap); `margin` is the right edge of its column on a page in columns (else the page's is).
 */
type Line = { text: string; y: number; bottom: number; size: number; left: number; right: number; columns: boolean; tableRow: boolean; margin?: number };

/**
 * A section number of two parts or more at a line's start, run into the title after it: LaTeX
 * sets a contents entry's title in a box after its number, and a number wider than the box
 * ("10.10") overflows it to within a fraction of a point of the title, which PDF.js then reads as
 * one word ("10.10List of tools"). A capital after the number, then a small letter, starts a title.
 */
const GLUED_SECTION_NUMBER = /^((?:\d{1,3}|\p{Lu})(?:\.\d{1,3})+)(?=\p{Lu}\p{Ll})/u;

/** A line this much larger than the body text is a heading. */
const HEADING_SCALE = 1.15;
const MAX_HEADING_CHARS = 120;
/**
 * Characters a page holds at most: a dense page holds a few thousand. A content stream of a
 * megabyte can unpack to hundreds of megabytes of text (a bomb of 1 MB held the extraction worker
 * for two minutes and 2.6 GB): a page's text is read as it is parsed, and parsing stops past this.
 */
const MAX_PAGE_CHARS = 200_000;

// PDF.js reads text in CJK fonts through Adobe's predefined CMaps, and measures the 14 standard
// fonts with their data: in Node it reads both from these folders of its package.
const PDFJS_ROOT = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_DATA = { cMaps: join(PDFJS_ROOT, 'cmaps/'), standardFonts: join(PDFJS_ROOT, 'standard_fonts/') };

export async function extractPdf(bytes: Uint8Array): Promise<{ title: string | undefined; text: string }> {
  // Without %%EOF near the end the file was cut short: PDF.js would read what is left, but half a
  // document is not one to train on.
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-2048).includes('%%EOF')) {
    throw new ExtractionError(damaged('pdf'));
  }
  // PDF.js takes the buffer it is given (detaching it) and refuses a Node Buffer, which is what the
  // store reads a file back as: it gets a copy, as a plain Uint8Array.
  const task = getDocument({
    data: new Uint8Array(bytes),
    cMapUrl: PDFJS_DATA.cMaps,
    standardFontDataUrl: PDFJS_DATA.standardFonts,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const document = await task.promise.catch((error: unknown) => {
      const name = (error as { name?: string } | undefined)?.name;
      throw new ExtractionError(name === 'PasswordException' ? ENCRYPTED_PDF : damaged('pdf'));
    });
    const pages: Line[][] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      pages.push(await withBullets(page, linesOf(await pageText(page, number))));
      page.cleanup();
    }
    const text = writeLines(pages);
    if (!/[\p{L}\p{N}]/u.test(text)) throw new ExtractionError(NO_TEXT_LAYER);
    const { info } = (await document.getMetadata()) as { info: { Title?: unknown } };
    const metadataTitle = typeof info.Title === 'string' ? info.Title.trim() : '';
    return { title: metadataTitle || firstHeading(text), text };
  } catch (error) {
    throw error instanceof ExtractionError ? error : new ExtractionError(damaged('pdf'));
  } finally {
    await task.destroy();
  }
}

/** A page's text items that hold text, read as they are parsed: a page past MAX_PAGE_CHARS stops its parsing and the file's reading. */
async function pageText(page: PDFPageProxy, number: number): Promise<TextItem[]> {
  const items: TextItem[] = [];
  let chars = 0;
  const reader = page.streamTextContent().getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    for (const item of (read.value as { items: (TextItem | object)[] }).items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      items.push(item);
      chars += item.str.length;
    }
    if (chars > MAX_PAGE_CHARS) {
      const overfull = new ExtractionError(overfullPage(number, MAX_PAGE_CHARS));
      // PDF.js wants a reason to stop parsing.
      await reader.cancel(overfull);
      throw overfull;
    }
  }
  return items;
}

/** A page's lines in reading order: top to bottom, a column at a time on a page in two columns. */
function linesOf(items: TextItem[]): Line[] {
  const rows = rowsOf(placed(items));
  const runs = columnRuns(rows);
  if (!runs) return rows.map((row) => lineOf(row));
  return runs.flatMap((run) => ('table' in run ? run.table.map(tableRowLine) : run.rows.map((row) => lineOf(row, run.margin))));
}

function lineOf(row: Placed[], margin?: number): Line {
  const size = rowSize(row);
  let text = '';
  let columns = false;
  let end = -Infinity;
  for (const { item, x } of row) {
    const gap = x - end;
    if (gap > CELL_GAP * size) columns = text !== '';
    // Items touching each other are one word split by the PDF's writer.
    if (text && gap > size * 0.1 && !text.endsWith(' ') && !item.str.startsWith(' ')) text += ' ';
    text += item.str;
    end = x + item.width;
  }
  const y = row[0]?.y ?? 0;
  return { text: text.replace(/\s+/g, ' ').trim().replace(GLUED_SECTION_NUMBER, '$1 '), y, bottom: y, size, left: row[0]?.x ?? 0, right: end, columns, tableRow: false, margin };
}

/** A table row as one line: each cell's lines joined as wrapped prose is, then the cells one after the other. */
function tableRowLine(cells: TableRow): Line {
  const cellLines = cells.map((cell) => cell.map((row) => lineOf(row)));
  const lines = cellLines.flat();
  const text = cellLines
    .map((cell) => cell.reduce((cellText, { text: line }) => (cellText ? joined(cellText, line) : line), ''))
    .filter(Boolean)
    .join(' ');
  const ys = lines.map(({ y }) => y);
  return {
    text,
    y: Math.max(...ys),
    bottom: Math.min(...ys),
    size: Math.max(...lines.map(({ size }) => size)),
    left: Math.min(...lines.map(({ left }) => left)),
    right: Math.max(...lines.map(({ right }) => right)),
    columns: true,
    tableRow: true,
  };
}

/** All pages' lines as structured text: headings by size, paragraphs by spacing, wrapped lines joined. */
function writeLines(allPages: Line[][]): string {
  const pages = withoutFurniture(allPages);
  const lines = pages.flat();
  const body = bodySize(lines);
  const headingSizes = [...new Set(lines.filter((line) => isHeading(line, body)).map((line) => Math.round(line.size)))].sort((a, b) => b - a);
  const entries = indexEntries(lines, (line) => isHeading(line, body));
  const blocks: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(paragraph.join('\n'));
    paragraph = [];
  };
  /** The last line of the page before, and that page's margin. */
  let pageEnd: { line: Line; margin: number } | undefined;
  for (const page of pages) {
    const margin = Math.max(...page.map((line) => line.right));
    for (const [index, line] of page.entries()) {
      const previous = page[index - 1];
      if (isHeading(line, body)) {
        flush();
        blocks.push(`${'#'.repeat(Math.min(headingSizes.indexOf(Math.round(line.size)) + 1, 6))} ${line.text}`);
        continue;
      }
      const before = previous ? { line: previous, margin: previous.margin ?? margin } : pageEnd;
      // A page's first line, or a column's (above the line before), goes on from the page or
      // column before where a sentence runs on over the break.
      const below = previous !== undefined && previous.y >= line.y;
      // A table's rows, apart as far as their cells are tall, are one block as short rows are.
      const startsParagraph = below
        ? !(previous.tableRow && line.tableRow) &&
          (isHeading(previous, body) || previous.bottom - line.y > PARAGRAPH_GAP * Math.max(line.size, previous.size))
        : !(before && runsOn(before.line, line, before.margin));
      if (startsParagraph) flush();
      const last = paragraph.length - 1;
      const entry = entries.has(line) || (before !== undefined && entries.has(before.line));
      if (before && last >= 0 && !entry && wraps(before.line, line, before.margin)) paragraph[last] = joined(paragraph[last] ?? '', line.text);
      else paragraph.push(line.text);
    }
    const lastLine = page.at(-1);
    pageEnd = lastLine && { line: lastLine, margin: lastLine.margin ?? margin };
  }
  flush();
  return withBrokenWordsJoined(blocks.join('\n\n'));
}

/** The size most of the text is set in. */
function bodySize(lines: Line[]): number {
  const chars = new Map<number, number>();
  for (const line of lines) chars.set(Math.round(line.size), (chars.get(Math.round(line.size)) ?? 0) + line.text.length);
  return [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

function isHeading(line: Line, body: number): boolean {
  return !line.tableRow && Math.round(line.size) >= body * HEADING_SCALE && line.text.length <= MAX_HEADING_CHARS && /\p{L}/u.test(line.text);
}

/**
 * Whether `line` continues `previous`: prose (not table cells) in the same size, where `previous`
 * ran to the right margin, or stopped short of it only because the first word of `line` (a long
 * word, an address) would not have fitted after it.
 */
function wraps(previous: Line, line: Line, margin: number): boolean {
  const reachesMargin = previous.right >= margin - previous.size * 4;
  const charWidth = (line.right - line.left) / Math.max(line.text.length, 1);
  const firstWord = line.text.split(' ', 1)[0] ?? '';
  const nextWordOverflows = previous.right + charWidth * (firstWord.length + 1) > margin;
  const startsItem = /^(?:[-*•–]|\d{1,3}[.)])\s/.test(line.text);
  return (reachesMargin || nextWordOverflows) && !startsItem && !previous.columns && !line.columns && Math.round(previous.size) === Math.round(line.size);
}

/**
 * Whether a page's last line goes on in the next page's first: it wraps there, and its sentence
 * has not ended (a page ending a sentence at the margin may as well end its paragraph).
 */
const runsOn = (previous: Line, line: Line, margin: number): boolean => wraps(previous, line, margin) && !/[.!?:]["'’”)\]]*$/u.test(previous.text);

/** A wrapped line joined to the one before: a word broken at its hyphen is joined without a space, its hyphen read once the whole text is (pdf-hyphens.ts). */
const joined = (previous: string, line: string): string => (/\p{L}-$/u.test(previous) ? `${previous.slice(0, -1)}${LINE_BREAK_HYPHEN}${line}` : `${previous} ${line}`);
