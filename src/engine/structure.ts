import { isWhiteSpace, unixLineBreaks } from './text.js';

// Reads training text the way a person skims it: headings and FAQ questions are the keys of the
// text beneath them, and the text is a run of sentences. A heading or a question is never an
// answer by itself; FAQ markers ("Q1.", "A:") are not sentences; abbreviations, decimals, URLs
// and email addresses do not end one. A list item keeps its marker ("- ", "3. ") and a table
// row becomes one sentence naming each cell by its column's header ("Drink: Espresso; Small:
// €2.40"), so that a row is quoted whole and a list is recognisable as one. A fenced code block
// (``` or ~~~) is code: each of its lines is a line of the section it is in, never a heading,
// question or table row (a shell comment, "# install it", is not a Markdown heading there).

export type Section = {
  /** The heading or question the section answers, with its parent heading ("Returns › Can I…?"). */
  key: string;
  /**
   * The section's sentences in reading order. One that begins a line of the text, after the
   * section's first, starts with a line break (LINE): lists and table rows stay one a line.
   */
  sentences: string[];
};

/** Marks a sentence that begins a line of its own. */
export const LINE = '\n';

/**
 * Sentences joined back into text: a space between, a line break before one that begins a line
 * and after one that ends none (a table row, an item without a stop), which a sentence apart from
 * it in the text may follow in an answer ("Members: Up to 50" then "We accept Visa…").
 */
export function joinSentences(sentences: string[]): string {
  let text = '';
  let previous = '';
  for (const sentence of sentences) {
    if (!text || sentence.startsWith(LINE)) text += sentence;
    else text += (endsSentence(previous) ? ' ' : LINE) + sentence;
    previous = sentence;
  }
  // Only line breaks go from the start: other white space there is a code line's indentation.
  let start = 0;
  while (text.charCodeAt(start) === 0x0a) start += 1;
  return text.slice(start).trimEnd();
}

/** Whether a sentence ends as one: a stop, a question or exclamation mark, or a colon, before any closing quote or bracket. */
function endsSentence(sentence: string): boolean {
  // Only its last characters are looked at: sentences are joined for every passage of every search.
  return ENDS_SENTENCE.test(sentence.slice(-8));
}

const ENDS_SENTENCE = /[.!?:…][)"'’”\]]*\s*$/;

/** Whether a sentence is a list item ("- Premium plan", "2. Millbeck"). */
export function isListItem(sentence: string): boolean {
  return ITEM_MARKER.test(sentence.trimStart());
}

/** Whether a line begins a list item or a FAQ question or answer ("- ", "2) ", "Q: ", "Answer 3."). */
export function beginsListLine(line: string): boolean {
  return LIST_MARKER.test(line);
}

/**
 * A pattern for a line, run only where the line may match by its beginning: most lines are told
 * apart at their first character, and a pattern costs a call even when it fails there.
 */
type LinePattern = { test(line: string): boolean; exec(line: string): RegExpExecArray | null; strip(line: string): string };

function linePattern(pattern: RegExp, mayMatch: (line: string) => boolean): LinePattern {
  return {
    test: (line) => mayMatch(line) && pattern.test(line),
    exec: (line) => (mayMatch(line) ? pattern.exec(line) : null),
    strip: (line) => (mayMatch(line) ? line.replace(pattern, '') : line),
  };
}

/** Lines that begin with one of these characters, or with white space (before any). */
const beginning = (firsts: string) => (line: string) => firsts.includes(line.charAt(0)) || isWhiteSpace(line, 0);

/** LIST_MARKER's lines: all but those that begin with a letter, not Q or A, followed by neither "." nor ")". */
function mayBeginList(line: string): boolean {
  const lowered = line.charCodeAt(0) | 0x20;
  if (lowered < 0x61 || lowered > 0x7a) return true;
  return lowered === 0x71 || lowered === 0x61 || '.)'.includes(line.charAt(1));
}

const MARKDOWN_HEADING = linePattern(/^#{1,6}\s+(.*?)\s*#*$/, beginning('#'));
const UNDERLINE = linePattern(/^\s*(?:={3,}|-{3,})\s*$/, beginning('=-'));
const LIST_MARKER = linePattern(/^\s*(?:[-*•+–]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)](?=\s)|(?:Q|A|Question|Answer)\s*\d*\s*[.:)-])\s+/i, mayBeginList);
/** A bullet or a number: the list markers kept with their item (FAQ markers are not). */
const ITEM_MARKER = linePattern(/^(?:[-*•+–]|\d{1,3}[.)])\s+/, beginning('-*•+–0123456789'));
/** A code fence: three or more backticks (an info string after them without one) or tildes. */
const FENCE = linePattern(/^(?:`{3,}(?=[^`]*$)|~{3,})/, beginning('`~'));
const TABLE_ROW = linePattern(/^\|(.*)\|$/, beginning('|'));
const TABLE_RULE = linePattern(/^\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/, beginning('|:-'));
/** "See also: …", "Tags: a, b": a label with its list, not a title. */
const LABELLED_LIST = /^(?:see also|related|tags)\b|^[^:]{1,30}:\s+\S+(?:\s+\S+)*,\s/i;
const QUESTION = /^(.{3,200}\?)["')\]]*$/;
const ANSWER_MARKER = linePattern(/^(?:A|Answer)\s*\d*\s*[.:)-]\s*/i, beginning('Aa'));
const MAX_TITLE_WORDS = 8;
/** "**The screen is blank.** Check the batteries.": a troubleshooting entry, keyed by its bold lead. */
const BOLD_LEAD_IN = linePattern(/^(?:\*\*|__)(.+?)(?:\*\*|__)\s+(\S.*)$/, beginning('*_'));
/** "**Payment:**": a heading. */
const BOLD_HEADING = linePattern(/^(?:\*\*|__)(.+?)(?:\*\*|__):?$/, beginning('*_'));

// Words whose period is not a sentence end. A language's abbreviations, not the material's.
const ABBREVIATIONS = new Set(
  ('mr mrs ms dr prof st sr jr vs etc e.g i.e eg ie approx incl excl no nr tel fig ca cf dept est ' +
    'min max jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun inc ltd co corp ' +
    'ave blvd rd u.s a.m p.m am pm ext resp').split(' '),
);

/** The sections of a text, in order; each paragraph before the first heading is a section with no key. */
export function readSections(text: string): Section[] {
  return readBlockSections(textBlocks(text));
}

/** The sections of a text's blocks (textBlocks). */
export function readBlockSections(blocks: string[]): Section[] {
  const { sections, state } = readBlocks(blocks, 0, blocks.length);
  return closeSections(sections, state);
}

/**
 * A text's blocks: its paragraphs, apart at blank lines (a line break, spaces or tabs, a line
 * break), as split(/\n[ \t]*\n/) parts them. Found from the line breaks, at a fraction of the
 * pattern's cost.
 */
export function textBlocks(text: string): string[] {
  const unix = unixLineBreaks(text);
  const blocks: string[] = [];
  let start = 0;
  for (let lineBreak = unix.indexOf('\n'); lineBreak >= 0; ) {
    let end = lineBreak + 1;
    while (unix.charCodeAt(end) === 0x20 || unix.charCodeAt(end) === 0x09) end += 1;
    const blank = unix.charCodeAt(end) === 0x0a;
    if (blank) {
      blocks.push(unix.slice(start, lineBreak));
      start = end + 1;
    }
    // On past the blank line, or past the spaces after a line break that began none.
    lineBreak = unix.indexOf('\n', blank ? start : end);
  }
  blocks.push(unix.slice(start));
  return blocks;
}

/**
 * The blocks of texts read as one, a blank line between each and the next:
 * textBlocks(texts.join('\n\n')). Where each text but the last ends with other than white space
 * (a line break, space or tab), as chunks do, no blank line runs on from one into the line breaks
 * joining it to the next, and the blocks are each text's in turn: the texts are not copied into one.
 */
export function joinedTextBlocks(texts: string[]): string[] {
  if (texts.length === 0 || !texts.slice(0, -1).every(endsApart)) return textBlocks(texts.join('\n\n'));
  const blocks: string[] = [];
  for (const text of texts) for (const block of textBlocks(text)) blocks.push(block);
  return blocks;
}

const endsApart = (text: string) => text === '' || !' \t\r\n'.includes(text.charAt(text.length - 1));

/**
 * Where reading stands between two blocks: all that the reading of the blocks after depends on.
 * `fence`: the fence of the code block open (its backticks or tildes), '' outside one.
 * `codeClosed`: the block before ended closing a code block, which one at the next block's start
 * goes on in its section (chunking closes a long one where it cuts it, and opens it again).
 * `section`: the marked heading of the section read (sectionHeading), '' under a text's title or none;
 * `titled`: a title line was keyed under it, as the title lines after in its section are.
 */
export type ReadingState = {
  heading: string;
  section: string;
  titled: boolean;
  current: Section;
  leadInOpen: boolean;
  fence: string;
  codeClosed: boolean;
};

const textStart = (): ReadingState => ({
  heading: '',
  section: '',
  titled: false,
  current: { key: '', sentences: [] },
  leadInOpen: false,
  fence: '',
  codeClosed: false,
});

/** The sections read, the section still open at the end closed. */
export function closeSections(sections: Section[], { current }: ReadingState): Section[] {
  if (current.sentences.length > 0) sections.push(current);
  return sections;
}

/**
 * Which blocks after this state read as they would at a text's start, so that a text's blocks can
 * be read in two runs at once, the second from the start (readBlocks), and the runs' sections
 * joined: 'all' when no heading is over them and no question or heading's section is open to run
 * on into them; else 'headed', those whose first line is a heading (`beganWithHeading`); 'none'
 * inside a fenced code block, where no line is a heading, and in a section whose title lines are
 * keyed under its heading (readBlocks).
 */
export type ReadsOn = 'all' | 'headed' | 'none';

export function readsOnAsAtStart(state: ReadingState): ReadsOn {
  const { heading, current, leadInOpen, fence, codeClosed } = state;
  if (fence || keysTitlesUnder(state)) return 'none';
  return heading === '' && (current.key === '' || leadInOpen) && !codeClosed ? 'all' : 'headed';
}

/**
 * The sections of blocks [from, to) read from `state` (a text's start unless given), but for the
 * one still open at the end, which the state after holds (closeSections closes it). The blocks
 * after `to` are looked at only to tell whether text follows a block; `followed` tells it of the
 * last block, when they are part of a text whose other blocks are not given. `beganWithHeading`:
 * the first block's first line is a heading.
 */
export function readBlocks(
  blocks: string[],
  from: number,
  to: number,
  state = textStart(),
  followed = false,
): { sections: Section[]; state: ReadingState; beganWithHeading: boolean } {
  const sections: Section[] = [];
  let { heading, section, titled, current, leadInOpen, fence, codeClosed } = state;
  let beganWithHeading = false;
  const open = (key: string) => {
    if (current.sentences.length > 0) sections.push(current);
    current = { key, sentences: [] };
  };

  /** Adds the sentences of one line of text, the first marked as beginning a line. */
  const addLine = (sentences: string[]) =>
    sentences.forEach((sentence, i) => current.sentences.push(i === 0 && current.sentences.length > 0 ? LINE + sentence : sentence));
  // Made once a call, not once a block: a function made is also named (tsx keeps names), which
  // took a tenth of reading a 10 MB text's 34,000 blocks.
  /**
   * Adds a code block's lines as one sentence, if it has any: a line of punctuation is code too
   * (a lone "}" closing a block), where a sentence of text without a letter or digit is none.
   */
  const addCode = (code: string[]) => {
    if (code.some(Boolean)) addLine([code.join('\n')]);
  };

  for (let blockIndex = from; blockIndex < to; blockIndex += 1) {
    const block = blocks[blockIndex] as string;
    const lines = nonEmptyLines(block);
    // Without a heading over it, a paragraph is a unit of its own; a paragraph after a bold
    // lead-in entry belongs to the heading again. A code block's paragraphs stay together.
    if (!fence && !(codeClosed && FENCE.test(lines[0] ?? ''))) {
      if (!current.key || leadInOpen) open(heading);
      leadInOpen = false;
    }
    // A code line is kept as written, but for white space at its end: its indentation is meaning.
    const written = fence || hasFence(block) ? nonEmptyLinesAsWritten(block) : lines;
    const textFollows = blockIndex + 1 < blocks.length ? NOT_WHITE_SPACE.test(blocks[blockIndex + 1] as string) : followed;
    let headers: string[] = [];
    // A code block's paragraph is one sentence, its lines kept: a comment is quoted with its code.
    // One the code block ran into from the block before begins with the blank line between them.
    let code: string[] = fence ? [''] : [];
    codeClosed = false;
    for (const [lineIndex, line] of lines.entries()) {
      const inCode = fence;
      fence = fenceAfter(line, fence);
      if (inCode || fence) {
        if (!inCode) continue;
        if (fence) code.push(written[lineIndex] as string);
        else {
          addCode(code);
          code = [];
          codeClosed = lineIndex === lines.length - 1;
        }
        continue;
      }
      const next = lines[lineIndex + 1];
      if (UNDERLINE.test(line) || TABLE_RULE.test(line)) continue;
      const cells = TABLE_ROW.exec(line)?.[1]?.split('|').map((cell) => cell.trim());
      if (cells) {
        // The row above a rule is the header row: its cells name the columns of every row below.
        if (next !== undefined && TABLE_RULE.test(next)) headers = cells;
        else addLine([tableRow(cells, headers)]);
        continue;
      }
      // A short line is a title when text follows it, but not when it introduces a list ("Then:").
      const leadsText =
        lines.length === 1 ? textFollows : lineIndex === 0 && endsWithOneOf(next ?? '', '.!?:') && !LIST_MARKER.test(next ?? '');
      const marked = markedHeading(line, next);
      const found = marked ?? titleLine(line, leadsText);
      if (found !== undefined) {
        // A title line that opens a heading's section is keyed under that heading, whose words
        // name the section too: keyed alone, the heading's section was left empty and dropped. A
        // lead-in ("Check the signature in Python:") is, under any heading; one without a colon
        // ("Summer season" under "## Opening hours") only under a section's heading, as the line
        // after a text's title ("Shop guide", "# Shop guide") begins a section of its own, and
        // so are the title lines after it in that section ("Winter season").
        const leadIn = marked === undefined && line.endsWith(':');
        let title = found;
        if (marked !== undefined) {
          section = sectionHeading(line, next) ? found : '';
          titled = false;
        } else if (leadIn && opensSection(heading, current)) title = keyUnder(heading, found);
        else if (keysTitlesUnder({ heading, section, titled, current }) && (titled || !leadIn)) {
          title = keyUnder(section, found);
          titled = true;
        }
        // A lead-in is read so only after a heading: it is no heading a piece of a text may be
        // read from (read-in-pieces.ts); nor is a title line in a section keyed under its heading
        // (readsOnAsAtStart).
        if (blockIndex === from && lineIndex === 0 && !leadIn) beganWithHeading = true;
        heading = title;
        open(title);
        leadInOpen = false;
        continue;
      }
      const leadIn = BOLD_LEAD_IN.exec(line);
      if (leadIn) {
        open(heading ? keyUnder(heading, leadIn[1] as string) : (leadIn[1] as string));
        current.sentences.push(...splitSentences(leadIn[2] as string));
        leadInOpen = true;
        continue;
      }
      const sentences = lineSentences(markerless(line, awaitsAnswer(current)));
      const first = sentences[0] ?? '';
      // Searched for its question mark first: the pattern tries every length up to 200 without one.
      const question = first.includes('?') ? QUESTION.exec(first)?.[1] : undefined;
      if (question && (sentences.length > 1 || next !== undefined || textFollows)) {
        open(heading ? keyUnder(heading, question) : question);
        current.sentences.push(...sentences.slice(1));
        continue;
      }
      const marker = ITEM_MARKER.exec(line)?.[0].trim();
      const item = marker ? `${/\d/.test(marker) ? marker : '-'} ` : '';
      addLine(item ? sentences.map((sentence, i) => (i === 0 ? item + sentence : sentence)) : sentences);
    }
    addCode(code);
  }
  return { sections, state: { heading, section, titled, current, leadInOpen, fence, codeClosed }, beganWithHeading };
}

/**
 * The fence open after a (trimmed) line, `fence` the one open before it ('' for none): a fence
 * line opens a code block, and a line of its characters alone, as many at least, closes it.
 */
/** Whether a text may hold a code fence: most hold neither "```" nor "~~~", and skip the line-by-line look. */
export const hasFence = (text: string) => text.includes('```') || text.includes('~~~');

export function fenceAfter(line: string, fence: string): string {
  if (!fence) return FENCE.exec(line)?.[0] ?? '';
  return closesFence(line, fence) ? '' : fence;
}

function closesFence(line: string, fence: string): boolean {
  let end = 0;
  while (line.charAt(end) === fence.charAt(0)) end += 1;
  return end >= fence.length && end === line.length;
}

/** The lines of a block, trimmed, without the empty ones. */
function nonEmptyLines(block: string): string[] {
  // Most blocks are one paragraph on one line.
  if (!block.includes('\n')) {
    const line = block.trim();
    return line ? [line] : [];
  }
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The lines nonEmptyLines gives of a block, in turn, but with the white space at their start kept. */
function nonEmptyLinesAsWritten(block: string): string[] {
  return block
    .split('\n')
    .filter((line) => NOT_WHITE_SPACE.test(line))
    .map((line) => line.trimEnd());
}

/** Whether a sentence is a table row read with its headers ("Room: Kestrel; Floor: 3"). */
export function isTableRow(sentence: string): boolean {
  return HEADED_ROW.test(sentence);
}

/**
 * Cells "Header: value" parted by "; ". A value may hold a semicolon that begins no cell, as a
 * cell's code does (`Code: cd app; make`), where [^;]* took it for a cell without its header.
 */
const HEADED_CELL = String.raw`[^;:]{1,60}: (?:[^;]|;(?! [^;:]{1,60}: ))*`;
const HEADED_ROW = new RegExp(`^${HEADED_CELL}(?:; ${HEADED_CELL})+$`);

/** A table row as one sentence: each cell after its column's header ("Size: Large"), empty cells left out. */
function tableRow(cells: string[], headers: string[]): string {
  if (headers.length === 0) return cells.filter(Boolean).join(' | ');
  return cells
    .map((cell, i) => (cell && headers[i] ? `${headers[i]}: ${cell}` : cell))
    .filter(Boolean)
    .join('; ');
}

/** The heading a line is marked as, if it is one: Markdown, underlined or bold. */
function markedHeading(line: string, next: string | undefined): string | undefined {
  const markdown = MARKDOWN_HEADING.exec(line);
  if (markdown) return stripEmphasis(markdown[1] ?? '');
  if (next !== undefined && UNDERLINE.test(next)) return stripEmphasis(line);
  return BOLD_HEADING.exec(line)?.[1]?.replace(/:$/, '');
}

/** The key of a section under a heading, which names it too: "Returns › Can I return it?". */
const keyUnder = (heading: string, title: string) => `${heading}${KEY_PARTS}${title}`;
const KEY_PARTS = ' › ';

/** The heading a key names its section under ("Opening hours" of "Opening hours › Summer season"); undefined for a key of one part. */
export function keyHeading(key: string): string | undefined {
  const at = key.lastIndexOf(KEY_PARTS);
  return at < 0 ? undefined : key.slice(0, at);
}

/** A key's own title, without the heading it is under ("Summer season" of "Opening hours › Summer season"). */
export const keyTitle = (key: string): string => key.slice(key.lastIndexOf(KEY_PARTS) + KEY_PARTS.length);

/** Whether the section open is a heading's, nothing read under it yet. */
function opensSection(heading: string, current: Section): boolean {
  return heading !== '' && current.key === heading && current.sentences.length === 0;
}

/** Whether a title line read next is keyed under the section's heading: right under it, or after one that was. */
function keysTitlesUnder({ heading, section, titled, current }: Pick<ReadingState, 'heading' | 'section' | 'titled' | 'current'>): boolean {
  return section !== '' && (titled || (heading === section && opensSection(heading, current)));
}

/** Whether a marked heading heads a section rather than titling a text: below the first level ("# ", "==="). */
function sectionHeading(line: string, next: string | undefined): boolean {
  return !/^#\s/.test(line) && !(next !== undefined && /^\s*=/.test(next));
}

/** The heading a short title-like line is, standing alone before text; undefined for another line. */
function titleLine(line: string, aloneBeforeText: boolean): string | undefined {
  if (!aloneBeforeText) return undefined;
  // The word count last: most lines fail a cheaper test first.
  const titleLike =
    !endsWithOneOf(line, '.!?;,') &&
    /^[\p{Lu}\p{N}]/u.test(line) &&
    !LIST_MARKER.test(line) &&
    !LABELLED_LIST.test(line) &&
    line.split(/\s+/).length <= MAX_TITLE_WORDS &&
    // A table's row read with its headers ("Room: Kestrel; Floor: 3") is a row, never a title.
    !isTableRow(line);
  return titleLike ? line.replace(/:$/, '') : undefined;
}

function endsWithOneOf(line: string, lasts: string): boolean {
  return line.length > 0 && lasts.includes(line.charAt(line.length - 1));
}

function stripEmphasis(text: string): string {
  return text.replace(/^[*_]+|[*_]+$/g, '').trim();
}

/**
 * Sentences of one line of text. A sentence ends at . ! or ? followed by white space and a
 * capital, digit or quote, unless the word before the period is a known abbreviation or a
 * single initial; so "5.95", "example.com/a.b", "a.b@c.example" and "e.g. this" stay whole.
 */
export function splitSentences(line: string): string[] {
  const sentences: string[] = [];
  // The marks are found by searching for each, a fraction of a pattern's cost.
  let period = line.indexOf('.');
  let exclamation = line.indexOf('!');
  let question = line.indexOf('?');
  let start = 0;
  for (let mark = firstOf(period, exclamation, question); mark >= 0; mark = firstOf(period, exclamation, question)) {
    const end = sentenceEnd(line, mark);
    const next = end < 0 ? mark + 1 : end;
    if (period >= 0 && period < next) period = line.indexOf('.', next);
    if (exclamation >= 0 && exclamation < next) exclamation = line.indexOf('!', next);
    if (question >= 0 && question < next) question = line.indexOf('?', next);
    if (end < 0 || (line.charCodeAt(mark) === PERIOD && !periodEnds(line, start, mark))) continue;
    addSentence(sentences, line, start, end);
    start = end;
  }
  addSentence(sentences, line, start, line.length);
  return sentences;
}

/**
 * The sentences of a line of text, but a table row read with its headers (HTML's and DOCX's, as
 * extraction writes them) is one, whatever stops its cells hold ("Step: 1; Command: cd app. Then
 * run make"): parted, the row's end was quoted without its headers.
 */
function lineSentences(line: string): string[] {
  const sentences = splitSentences(line);
  // A row is looked for only in a line of sentences and cells: most lines are one sentence.
  return sentences.length > 1 && line.includes('; ') && isTableRow(line) ? [line] : sentences;
}

/**
 * A line without its FAQ or list marker ("A: ", "Q1. ", "- "), but a table row read with its
 * headers whose first header is one ("Q: Do you deliver?; Answer: Yes"): stripped, the row lost
 * that header and was read as a question or an answer. A line right after a question, before
 * anything answers it, is its answer, its marker no header ("Q: Are you open on weekends?", then
 * "A: Yes; Sundays: closed", which reads as a row too).
 */
function markerless(line: string, answering: boolean): string {
  const stripped = LIST_MARKER.strip(ANSWER_MARKER.strip(line));
  return stripped !== line && !answering && FAQ_HEADER.test(line) && isTableRow(line) ? line : stripped;
}

/** Whether the section open is a question's, nothing read under it yet: the next line answers it. */
const awaitsAnswer = (current: Section): boolean => current.key.endsWith('?') && current.sentences.length === 0;

const FAQ_HEADER = /^(?:Q|A|Question|Answer): /i;

/** Adds line[start, end) trimmed, if it has a letter or digit. */
function addSentence(sentences: string[], line: string, start: number, end: number): void {
  const sentence = trimmed(line, start, end);
  if (LETTER_OR_DIGIT.test(sentence)) sentences.push(sentence);
}

const PERIOD = 0x2e;

/** The first of the positions found (-1 for none). */
function firstOf(a: number, b: number, c: number): number {
  let first = a;
  if (b >= 0 && (first < 0 || b < first)) first = b;
  if (c >= 0 && (first < 0 || c < first)) first = c;
  return first;
}

/**
 * Where the sentence whose mark (. ! ?) is at `mark` ends, past closing quotes and brackets and
 * the white space after them, if a capital, digit or opening quote before one follows; else -1.
 */
function sentenceEnd(line: string, mark: number): number {
  let end = mark + 1;
  while (end < line.length && CLOSING.includes(line.charAt(end))) end += 1;
  const spaceFrom = end;
  while (end < line.length && isWhiteSpace(line, end)) end += 1;
  if (end === spaceFrom) return -1;
  const opening = end < line.length && OPENING.includes(line.charAt(end)) ? 1 : 0;
  return isCapitalOrDigit(line, end + opening) ? end : -1;
}

const CLOSING = '"\')]';
/** Opening quotes and brackets: before a sentence's first letter, or a period's word. */
const OPENING = '"\'([';

function isCapitalOrDigit(line: string, i: number): boolean {
  const code = line.charCodeAt(i);
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
  CAPITAL_OR_DIGIT.lastIndex = i;
  return CAPITAL_OR_DIGIT.test(line);
}

const CAPITAL_OR_DIGIT = /[\p{Lu}\p{N}]/uy;

/** Whether a period ends its sentence: the word before it is not a known abbreviation or initials. */
function periodEnds(line: string, start: number, period: number): boolean {
  let from = wordStart(line, start, period);
  while (from < period && OPENING.includes(line.charAt(from))) from += 1;
  // A word longer than every abbreviation (lower-casing never shortens one) and without a period
  // is neither: no string is made of it.
  if (period - from > LONGEST_ABBREVIATION && line.indexOf('.', from) === period) return true;
  const word = line.slice(from, period).toLowerCase();
  return !ABBREVIATIONS.has(word) && !isInitials(word);
}

const LONGEST_ABBREVIATION = Math.max(...[...ABBREVIATIONS].map((word) => word.length));

/** line[start, end) without white space at either end. */
function trimmed(line: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && isWhiteSpace(line, from)) from += 1;
  while (to > from && isWhiteSpace(line, to - 1)) to -= 1;
  return line.slice(from, to);
}

/** A letter ("J") or letters between periods ("U.S", "e.g"): initials, whose period ends no sentence. */
function isInitials(word: string): boolean {
  // Its length or a period looked at first: most words are neither.
  return (word.length <= 2 && LETTER.test(word)) || (word.includes('.') && LETTERS_BETWEEN_PERIODS.test(word));
}

const LETTER = /^\p{L}$/u;
const LETTERS_BETWEEN_PERIODS = /^(?:\p{L}\.)+\p{L}$/u;

/**
 * Where the word that ends at a period starts: back to white space or the sentence's start.
 * Scanned back from the period, where a regex over the sentence would read all of it at each one.
 */
function wordStart(line: string, start: number, period: number): number {
  let from = period;
  while (from > start && !isWhiteSpace(line, from - 1)) from -= 1;
  return from;
}

const NOT_WHITE_SPACE = /\S/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
