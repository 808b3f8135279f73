import { fenceAfter, joinedTextBlocks } from './structure.js';
import { isWhiteSpace, unixLineBreaks } from './text.js';

// Splits training text into passages small enough to retrieve and quote, keeping paragraphs
// whole where they fit (with their line breaks, which carry lists and headings) and never cutting
// inside a word. Linear in the text's length.

const MAX_CHUNK_CHARS = 1_000;

export function chunkText(text: string, maxChars = MAX_CHUNK_CHARS): string[] {
  return packPieces(textPieces(text, maxChars), maxChars, '\n\n');
}

/** The passages a text's chunks are packed from: chunkText(text) is packChunks(chunkPassages(text)). */
export function chunkPassages(text: string): string[] {
  return textPieces(text, MAX_CHUNK_CHARS);
}

export function packChunks(passages: string[]): string[] {
  return packPieces(passages, MAX_CHUNK_CHARS, '\n\n');
}

/**
 * The blocks (structure.ts) of the chunks the passages are packed into, as
 * joinedTextBlocks(packChunks(passages)) gives them: the chunks joined are the passages joined, so
 * the passages need not be packed.
 */
export function passageBlocks(passages: string[]): string[] {
  return joinedTextBlocks(passages);
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
 * A Markdown heading is a paragraph of its own, not the start of the one below it. In a fenced
 * code block (structure.ts) a line of #, a shell comment, is none.
 */
function headingsApart(text: string): string {
  if (!text.includes('#')) return text;
  if (!text.includes('```') && !text.includes('~~~')) return text.replace(/^(#{1,6}[ \t].*)$/gm, '$1\n');
  let fence = '';
  return text
    .split('\n')
    .map((line) => {
      const inCode = fence;
      fence = fenceAfter(line.trim(), fence);
      return !inCode && !fence && HEADING_LINE.test(line) ? `${line}\n` : line;
    })
    .join('\n');
}

const HEADING_LINE = /^#{1,6}[ \t]/;

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
  // Code is cut between its lines, never joined to the next: a line ending "done." and the fence
  // after it made one line, which closed no code block, and the rest of the text was code.
  if (paragraph.includes('```') || paragraph.includes('~~~')) {
    const lines = paragraph.split('\n').flatMap((line) => (line.length <= maxChars ? [line] : splitWords(line, maxChars)));
    return packPieces(lines, maxChars, '\n');
  }
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
