import { joinedTextBlocks } from './structure.js';
import { isWhiteSpace, unixLineBreaks } from './text.js';

// Splits training text into passages small enough to retrieve and quote, keeping paragraphs
// whole where they fit (with their line breaks, which carry lists and headings) and never cutting
// inside a word. Linear in the text's length.

const MAX_CHUNK_CHARS = 1_000;

export function chunkText(text: string, maxChars = MAX_CHUNK_CHARS): string[] {
  return packPieces(textPieces(text, maxChars), maxChars, '\n\n');
}

/**
 * The blocks (structure.ts) of the text's chunks, as joinedTextBlocks(chunkText(text)) gives them:
 * the chunks joined are the pieces joined, so the pieces need not be packed into chunks.
 */
export function chunkBlocks(text: string): string[] {
  return joinedTextBlocks(textPieces(text, MAX_CHUNK_CHARS));
}

/** The passages chunks are packed from: the text's paragraphs tidied, each long one split. */
function textPieces(text: string, maxChars: number): string[] {
  // A loop, not map, filter and flatMap: flatMap alone took 2 ms of a 10 MB text's 17,000 paragraphs.
  const pieces: string[] = [];
  for (const paragraph of paragraphs(headingsApart(unixLineBreaks(text)))) {
    const tidied = tidy(paragraph);
    if (tidied) for (const piece of splitLong(tidied, maxChars)) pieces.push(piece);
  }
  return pieces;
}

/**
 * The first place at or after `from` where a text (with Unix line breaks) parts into two whose
 * chunkBlocks are the whole's, in turn; -1 if there is none. That is the start of a paragraph, as
 * `paragraphs` parts them: each paragraph's last piece ends in other than white space, so the
 * blank line joining it to the next piece is where the blocks part in either.
 */
export function partingPoint(text: string, from: number): number {
  const blank = blankLineAfter(text, from);
  if (!blank) return -1;
  // A blank line at the text's end parts nothing off.
  NOT_WHITE_SPACE.lastIndex = blank[1];
  return NOT_WHITE_SPACE.test(text) ? blank[1] : -1;
}

const NOT_WHITE_SPACE = /\S/g;

/** A Markdown heading is a paragraph of its own, not the start of the one below it. */
function headingsApart(text: string): string {
  return text.includes('#') ? text.replace(/^(#{1,6}[ \t].*)$/gm, '$1\n') : text;
}

/**
 * A text's paragraphs: its parts between line breaks with nothing but white space between, as
 * split(/\n\s*\n/) parts them (a blank line ends at the last line break of its white space).
 * Found from the line breaks, at a fraction of the pattern's cost.
 */
function paragraphs(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (let blank = blankLineAfter(text, 0); blank; blank = blankLineAfter(text, blank[1])) {
    found.push(text.slice(start, blank[0]));
    start = blank[1];
  }
  found.push(text.slice(start));
  return found;
}

/**
 * The first blank line at or after `from`: the line break it begins with (which ends the paragraph
 * before it) and where the paragraph after it begins (past the last line break of its white space).
 */
function blankLineAfter(text: string, from: number): [number, number] | undefined {
  for (let lineBreak = text.indexOf('\n', from); lineBreak >= 0; ) {
    let lastBreak = -1;
    let end = lineBreak + 1;
    for (; end < text.length && isWhiteSpace(text, end); end += 1) if (text.charCodeAt(end) === 0x0a) lastBreak = end;
    if (lastBreak >= 0) return [lineBreak, lastBreak + 1];
    lineBreak = text.indexOf('\n', end);
  }
  return undefined;
}

/** A paragraph with its runs of spaces and tabs one space, none beside a line break, trimmed. */
function tidy(paragraph: string): string {
  // Each replacement is a pass over the paragraph: skipped when a search shows it would change nothing.
  let tidied = paragraph;
  if (tidied.includes('  ') || tidied.includes('\t')) tidied = tidied.replace(/[ \t]+/g, ' ');
  if (tidied.includes('\n')) tidied = tidied.replace(/ ?\n ?/g, '\n');
  return tidied.trim();
}

function splitLong(paragraph: string, maxChars: number): string[] {
  if (paragraph.length <= maxChars) return [paragraph];
  // A sentence ends at . ! or ? followed by a space, so "5.95" and "a.b@c.example" stay whole.
  const sentences = paragraph.split(/(?<=[.!?])\s+/);
  const parts = sentences
    .map((sentence) => sentence.trim())
    .filter(Boolean)
    .flatMap((sentence) => (sentence.length <= maxChars ? [sentence] : splitWords(sentence, maxChars)));
  return packPieces(parts, maxChars, ' ');
}

function splitWords(sentence: string, maxChars: number): string[] {
  const words = sentence
    .split(' ')
    .flatMap((word) => word.match(new RegExp(`.{1,${maxChars}}`, 'gs')) ?? []);
  return packPieces(words, maxChars, ' ');
}

/** Joins consecutive pieces while the result stays within maxChars. */
function packPieces(pieces: string[], maxChars: number, separator: string): string[] {
  const packed: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + separator.length + piece.length > maxChars) {
      packed.push(current);
      current = piece;
    } else {
      current = current ? current + separator + piece : piece;
    }
  }
  if (current) packed.push(current);
  return packed;
}
