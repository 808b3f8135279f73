import { beginsListLine, isTableRow } from './structure.js';

// Text written to a fixed width (a plain-text file, an e-mail, a README pasted as a source) breaks
// its lines wherever the next word would not fit. Those breaks are not the writer's, yet each line
// of a paragraph is read as a line of its own (lists, hours and addresses are written line by
// line), so "Sale items can only be" was quoted without the "exchanged" on the line after.

/** Narrower paragraphs are lines set by hand (hours, an address), never wrapped prose. */
const MIN_WRAP_WIDTH = 40;

/**
 * The paragraph with the line breaks that wrapped its prose made spaces. A break wrapped the line
 * before it when the next line's first word would not have fitted on that line within the
 * paragraph's widest line, and the next line goes on as prose (it begins with a letter, a digit,
 * a quote or a bracket, and no list, FAQ or table marker). A paragraph is read as wrapped only
 * where one such line goes on in lowercase, mid-sentence: lines that each begin a thought with a
 * capital ("Parking is behind the hall" / "Bicycles go by the door") stay apart.
 */
export function unwrappedLines(paragraph: string): string {
  if (!paragraph.includes('\n')) return paragraph;
  const lines = paragraph.split('\n');
  let width = 0;
  for (const line of lines) width = Math.max(width, line.length);
  if (width < MIN_WRAP_WIDTH) return paragraph;
  const wrapped = lines.map((line, i) => i > 0 && wrappedBefore(lines[i - 1] as string, line, width));
  if (!lines.some((line, i) => wrapped[i] && startsLowercase(line))) return paragraph;
  return lines.reduce((joined, line, i) => (i === 0 ? line : `${joined}${wrapped[i] ? ' ' : '\n'}${line}`), '');
}

/** Whether `line` goes on the one before it, broken there for the width alone. */
function wrappedBefore(before: string, line: string, width: number): boolean {
  // Lines come tidied: no spaces at either end, none doubled.
  const firstWord = line.indexOf(' ') < 0 ? line.length : line.indexOf(' ');
  if (before.length + 1 + firstWord <= width) return false;
  return (
    GOES_ON_AS_PROSE.test(line) &&
    !beginsListLine(line) &&
    !NUMBERED.test(line) &&
    !before.startsWith('|') &&
    !isTableRow(before) &&
    !isTableRow(line)
  );
}

const GOES_ON_AS_PROSE = /^["'‘“(\p{L}\p{N}]/u;
/** A numbered section or entry, "1.2.5. Permissions" (a list's "2. " beginsListLine tells). */
const NUMBERED = /^\d{1,3}(?:\.\d{1,3})+\.?\s/;
const startsLowercase = (line: string) => /^\p{Ll}/u.test(line);
