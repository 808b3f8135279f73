import { fenceAfter, hasFence, joinedTextBlocks } from './structure.js';
import { isWhiteSpace, unixLineBreaks } from './text.js';
import { unwrappedLines } from './wrapped-lines.js';

// Splits training text into passages small enough to retrieve and quote, keeping paragraphs
// whole where they fit (with their line breaks, which carry lists and headings) and never cutting
// inside a word. Linear in the text's length.

const MAX_CHUNK_CHARS = 1_000;

export function chunkText(text: string, maxChars = MAX_CHUNK_CHARS): string[] {
  return packPassages(textPieces(text, maxChars), maxChars);
}

/** The passages a text's chunks are packed from: chunkText(text) is packChunks(chunkPassages(text)). */
export function chunkPassages(text: string): string[] {
  return textPieces(text, MAX_CHUNK_CHARS);
}

export function packChunks(passages: string[]): string[] {
  return packPassages(passages, MAX_CHUNK_CHARS);
}

/**
 * The blocks (structure.ts) of the passages, which read as those of the chunks they are packed
 * into, joinedTextBlocks(packChunks(passages)): the chunks joined are the passages joined but for
 * the fences closing and opening again a code block where chunks part at a blank line in it, which
 * read as that blank line (packPassages). So the passages need not be packed to be read.
 */
export function passageBlocks(passages: string[]): string[] {
  return joinedTextBlocks(passages);
}

/** The passages chunks are packed from: the text's paragraphs tidied, each long one split. */
function textPieces(text: string, maxChars: number): string[] {
  // A loop, not map, filter and flatMap: flatMap alone took 2 ms of a 10 MB text's 17,000 paragraphs.
  const pieces: string[] = [];
  // The fence of the code block open (structure.ts) at the paragraph's start: one spans blank lines.
  let fence = '';
  for (const paragraph of paragraphs(headingsApart(unixLineBreaks(text)))) {
    if (fence === '' && !hasFence(paragraph)) {
      const tidied = unwrappedLines(tidy(paragraph));
      if (tidied) for (const piece of splitLong(tidied, maxChars)) pieces.push(piece);
      continue;
    }
    const openBefore = fence;
    let tidied: string;
    ({ tidied, fence } = tidyWithCode(paragraph, fence));
    if (tidied) for (const piece of splitCode(tidied, maxChars, openBefore, fence)) pieces.push(piece);
  }
  return pieces;
}

/**
 * A Markdown heading is a paragraph of its own, not the start of the one below it. In a fenced
 * code block (structure.ts) a line of #, a shell comment, is none.
 */
function headingsApart(text: string): string {
  if (!text.includes('#')) return text;
  if (!hasFence(text)) return text.replace(/^(#{1,6}[ \t].*)$/gm, '$1\n');
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

/**
 * A paragraph that holds fenced code or lies in it, tidied as tidy() does but for its lines of
 * code, which keep their indentation and the runs of white space within them (indentation is
 * meaning in Python or YAML), and the fence open after it.
 */
function tidyWithCode(paragraph: string, openFence: string): { tidied: string; fence: string } {
  let fence = openFence;
  let startsWithCode = false;
  const lines = paragraph.split('\n').map((line, i) => {
    const inCode = fence;
    fence = fenceAfter(line.trim(), fence);
    if (!inCode || !fence) return tidyLine(line);
    if (i === 0) startsWithCode = true;
    return line.trimEnd();
  });
  const joined = lines.join('\n');
  return { tidied: startsWithCode ? joined.trimEnd() : joined.trim(), fence };
}

/** A line of text as tidy() leaves it within its paragraph: runs of spaces and tabs one space, none at either end. */
function tidyLine(line: string): string {
  const spaced = line.replace(/[ \t]+/g, ' ');
  const from = spaced.startsWith(' ') ? 1 : 0;
  return spaced.endsWith(' ') ? spaced.slice(from, -1) : spaced.slice(from);
}

/**
 * A paragraph that holds fenced code or lies in it (in the code block of `fence`, if any; `after`
 * the one open after it), cut between its lines where too long, a line too long itself cut at
 * white space. Never joined to the next line: a line ending "done." and the fence after it made
 * one line, which closed no code block, and the rest of the text was code. A piece that ends in a
 * code block closes it, and the next opens it again: each reads as code on its own, and the cut
 * as none of the code's blank lines. Each piece leaves room for the fences packPassages adds where
 * a chunk begins or ends with it in a code block.
 */
function splitCode(paragraph: string, maxChars: number, fence: string, after: string): string[] {
  let reopening = reopeningLength(fence);
  if (reopening + paragraph.length + closingLength(after) <= maxChars) return [paragraph];
  const pieces: string[] = [];
  let open = fence;
  let piece = '';
  for (const whole of paragraph.split('\n')) {
    // Room for the fences of a piece that begins and ends in the code block (the first piece's
    // opening fence is packPassages', with a blank line after it).
    const room = Math.max(1, maxChars - 2 * closingLength(open) - (reopening ? 1 : 0));
    for (const line of whole.length <= room ? [whole] : splitCodeLine(whole, room)) {
      const openAfter = fenceAfter(line.trim(), open);
      if (piece && reopening + piece.length + 1 + line.length + closingLength(openAfter) > maxChars) {
        pieces.push(open ? `${piece}\n${open}` : piece);
        piece = open;
        reopening = 0;
      }
      piece = piece ? `${piece}\n${line}` : line;
      open = openAfter;
    }
  }
  pieces.push(piece);
  return pieces;
}

/** The length of the line closing the code block of `fence` at a piece's end ('' for none: 0). */
const closingLength = (fence: string) => (fence ? fence.length + 1 : 0);
/** The length of the fence and blank line opening again the code block of `fence` at a chunk's start. */
const reopeningLength = (fence: string) => (fence ? fence.length + 2 : 0);

/**
 * A paragraph too long for a piece, cut between its lines (a list's items, a table's rows), and a
 * line too long itself between its sentences: cut only at sentences, a long list's items ending in
 * stops were joined by spaces into one line, which read as one sentence.
 */
function splitLong(paragraph: string, maxChars: number): string[] {
  if (paragraph.length <= maxChars) return [paragraph];
  if (!paragraph.includes('\n')) return splitLine(paragraph, maxChars);
  const lines: string[] = [];
  for (const line of paragraph.split('\n')) for (const piece of splitLine(line, maxChars)) lines.push(piece);
  return packPieces(lines, maxChars, '\n');
}

/** A line of text cut between its sentences where too long, a sentence too long itself between its words. */
function splitLine(line: string, maxChars: number): string[] {
  if (line.length <= maxChars) return [line];
  // A sentence ends at . ! or ? followed by a space, so "5.95" and "a.b@c.example" stay whole.
  const sentences = line.split(/(?<=[.!?])\s+/);
  const parts = sentences
    .map((sentence) => sentence.trim())
    .filter(Boolean)
    .flatMap((sentence) => (sentence.length <= maxChars ? [sentence] : splitWords(sentence, maxChars)));
  return packPieces(parts, maxChars, ' ');
}

/**
 * A line too long for a piece, cut at white space (where there is none, at maxChars) into lines
 * of a piece each: the first keeps the line's indentation, and each the runs of white space within
 * it, as a code line is kept (tidyWithCode); splitWords would drop them.
 */
function splitCodeLine(line: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > maxChars) {
    const indentation = rest.length - rest.trimStart().length;
    const space = Math.max(rest.lastIndexOf(' ', maxChars), rest.lastIndexOf('\t', maxChars));
    const cut = space > indentation ? space : maxChars;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  pieces.push(rest);
  return pieces.filter(Boolean);
}

function splitWords(sentence: string, maxChars: number): string[] {
  const words = sentence
    .split(' ')
    .flatMap((word) => word.match(new RegExp(`.{1,${maxChars}}`, 'gs')) ?? []);
  return packPieces(words, maxChars, ' ');
}

/**
 * Passages packed into chunks as packPieces packs them, a blank line between; but where chunks
 * part at a blank line in a code block, the chunk before closes the block with its fence and the
 * next opens it again before the blank line: each reads as code on its own (a vector hit, a
 * passage in a model's prompt), and read together the fences are the blank line (structure.ts,
 * codeClosed), as it is read between the passages. Each chunk keeps room for a fence closing it.
 */
function packPassages(passages: string[], maxChars: number): string[] {
  const chunks: string[] = [];
  let current = '';
  // The fence of the code block open after the passages so far ('' outside one).
  let fence = '';
  for (const passage of passages) {
    const before = fence;
    if (fence || hasFence(passage)) for (const line of passage.split('\n')) fence = fenceAfter(line.trim(), fence);
    if (current && current.length + 2 + passage.length + closingLength(fence) > maxChars) {
      chunks.push(before ? `${current}\n${before}` : current);
      current = before ? `${before}\n\n${passage}` : passage;
    } else {
      current = current ? `${current}\n\n${passage}` : passage;
    }
  }
  if (current) chunks.push(current);
  return chunks;
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
