import { superscriptText } from './superscript.js';

// Writes an HTML element's content as the structured text the chunker reads (src/engine/structure.ts):
// a heading is a Markdown heading on a line of its own, paragraphs are separated by a blank line,
// each list item keeps its line (`- item`, `1. item`), and each table row becomes one line naming
// its column headers (`Room: Kestrel; Floor: 3; Code: KES-4105`), as each term of a description
// list does its descriptions (`Weight: 2 kg`). Preformatted text is a fenced code block, whose
// lines the chunker reads as code: a shell comment (`# install it`) is no heading there; in a
// table cell or a description, which keeps to its row's line, its lines are read without fences.

/** The part of a DOM node this writer reads (linkedom's nodes have it). */
export type DomNode = {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
};

/** A list item's marker, as listLines writes it. */
export const ITEM_MARKER = /^\s*(?:-|\d+\.)\s+/;
/** A code block's fence, as `fenced` writes it. */
const FENCE = /^`{3,}$/;
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'BUTTON', 'SELECT', 'HEAD']);
const BLOCKS = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'ASIDE', 'HEADER', 'FOOTER', 'NAV', 'BLOCKQUOTE', 'FIGURE', 'FIGCAPTION',
  'ADDRESS', 'FORM', 'FIELDSET', 'DETAILS', 'SUMMARY', 'CAPTION', 'BODY', 'HTML', 'CENTER', 'LI', 'DD', 'DT',
]);

/**
 * A block of structured text; `code` when it is a fenced code block, whose lines keep their
 * indentation; `titled` when it is a box's title (a sidebar's, a note's), by its class: `title`,
 * `sidebar-title`, `admonition-title`, as DocBook and Sphinx mark it.
 */
type Block = { text: string; code?: true; titled?: true };
const TITLE_CLASS = /(?:^|\s|-)title(?:\s|$)/i;

/** The structured text of a node's content. */
export function structuredText(root: DomNode): string {
  return structuredBlocks(root)
    .map((block) => block.text)
    .join('\n\n');
}

/** A node's content as blocks of structured text, none empty. */
function structuredBlocks(root: DomNode): Block[] {
  const blocks: Block[] = [];
  const push = (...texts: string[]) => blocks.push(...texts.filter(Boolean).map((text) => ({ text })));
  let inline = '';
  const flush = () => {
    push(tidyLines(inline));
    inline = '';
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      // Line ends in the source are white space; only <br> breaks a line.
      inline += (node.textContent ?? '').replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== ELEMENT_NODE || SKIPPED.has(node.nodeName.toUpperCase())) return;
    const name = node.nodeName.toUpperCase();
    const level = /^H([1-6])$/.exec(name)?.[1];
    if (level) {
      flush();
      const heading = oneLine(structuredText(node));
      if (heading) push(`${'#'.repeat(Number(level))} ${heading}`);
    } else if (name === 'UL' || name === 'OL') {
      flush();
      push(listLines(node, 0).join('\n'));
    } else if (name === 'DL') {
      flush();
      push(descriptionLines(node).join('\n'));
    } else if (name === 'TABLE') {
      flush();
      push(...tableBlocks(node));
    } else if (name === 'PRE') {
      flush();
      const code = preformattedText(node).replace(/\s+$/, '');
      if (code.trim()) blocks.push({ text: fenced(code), code: true });
    } else if (name === 'SUP') {
      const linked = elementChildren(node, 'A').some((link) => link.getAttribute?.('href')?.startsWith('#'));
      inline += superscriptText(inline, oneLine(structuredText(node)), linked);
    } else if (name === 'BR') {
      inline += '\n';
    } else if (name === 'HR') {
      flush();
    } else if (BLOCKS.has(name)) {
      flush();
      const first = blocks.length;
      for (const child of Array.from(node.childNodes)) walk(child);
      flush();
      if (TITLE_CLASS.test(node.getAttribute?.('class') ?? '')) for (const block of blocks.slice(first)) block.titled = true;
    } else {
      for (const child of Array.from(node.childNodes)) walk(child);
    }
  };
  for (const child of Array.from(root.childNodes)) walk(child);
  flush();
  return blocks;
}

/** Preformatted text as a browser shows it: its white space as written, and a line break at each <br>. */
function preformattedText(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return node.textContent ?? '';
  if (node.nodeName.toUpperCase() === 'BR') return '\n';
  return Array.from(node.childNodes, preformattedText).join('');
}

/** Code fenced by more backticks than any run of them in it, which would close a shorter fence. */
export function fenced(code: string): string {
  const longest = (code.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 2);
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${code}\n${fence}`;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Trims the lines a paragraph's <br>s make, dropping empty ones. */
function tidyLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

function elementChildren(node: DomNode, ...names: string[]): DomNode[] {
  return Array.from(node.childNodes).filter((child) => child.nodeType === ELEMENT_NODE && names.includes(child.nodeName));
}

/**
 * A list's lines: `- item` or `1. item`, nested lists indented under their item. An item's code
 * block follows its line, and its text after the code a line of its own under the item; the code
 * stands at the line's start, as its own indentation is all it keeps. So does a box's title in an
 * item, and the text after it ("PERSPECTIVE Beyond software", a DocBook sidebar's, ran into the
 * item's line).
 */
function listLines(list: DomNode, depth: number): string[] {
  const ordered = list.nodeName === 'OL';
  let number = Number(list.getAttribute?.('start') ?? 1) || 1;
  const lines: string[] = [];
  for (const item of elementChildren(list, 'LI')) {
    const own = { nodeType: ELEMENT_NODE, nodeName: 'LI', textContent: null, childNodes: Array.from(item.childNodes).filter((child) => !isList(child)) };
    const blocks = structuredBlocks(own);
    const firstApart = blocks.findIndex((block) => block.code || block.titled);
    const lead = firstApart < 0 ? blocks : blocks.slice(0, firstApart);
    const marker = ordered ? `${number}.` : '-';
    number += 1;
    lines.push(`${'  '.repeat(depth)}${marker} ${oneLine(lead.map((block) => block.text).join(' '))}`.trimEnd());
    for (const block of firstApart < 0 ? [] : blocks.slice(firstApart)) lines.push(block.code ? block.text : `${'  '.repeat(depth + 1)}${oneLine(block.text)}`);
    for (const nested of Array.from(item.childNodes).filter(isList)) lines.push(...listLines(nested, depth + 1));
  }
  return lines;
}

function isList(node: DomNode): boolean {
  return node.nodeType === ELEMENT_NODE && (node.nodeName === 'UL' || node.nodeName === 'OL');
}

/** A table's caption, then one line per row naming the column headers. */
function tableBlocks(table: DomNode): string[] {
  const caption = elementChildren(table, 'CAPTION').map((node) => oneLine(structuredText(node)));
  const sections = elementChildren(table, 'THEAD', 'TBODY', 'TFOOT');
  const head = sections.filter((section) => section.nodeName === 'THEAD').flatMap((section) => elementChildren(section, 'TR'));
  const rows = [...elementChildren(table, 'TR'), ...sections.filter((section) => section.nodeName !== 'THEAD').flatMap((section) => elementChildren(section, 'TR'))];
  const labelled = (rows.every(startsWithHeaderCell) && !isHeaderRow(rows[0] as DomNode)) || rows.every(startsWithLabel);
  if (!head.length && rows.length > 1 && labelled) {
    // A label whose values are empty says nothing, unless the row is the label alone (a heading across the table).
    const said = cellGrid(rows, 0).filter(([, ...values], index) => values.some(Boolean) || elementChildren(rows[index] as DomNode, 'TD', 'TH').length === 1);
    return [...caption, said.map(labelledLine).filter(Boolean).join('\n')].filter(Boolean);
  }
  // The header row: the head's last row, else (header cells or not, as in most word-processor
  // tables) the first row.
  const body = cellGrid(rows, head.length ? 0 : 1);
  const headers = cellGrid(head, head.length).at(-1) ?? body.shift() ?? [];
  const lines = body
    .map((cells) =>
      cells
        .map((value, column) => (value && headers[column] ? `${headers[column]}: ${value}` : value))
        .filter(Boolean)
        .join('; '),
    )
    .filter(Boolean);
  // A table of headers alone still says what it holds.
  if (!lines.length && headers.some(Boolean)) lines.push(headers.filter(Boolean).join('; '));
  return [...caption, lines.join('\n')].filter(Boolean);
}

/**
 * A cell's (or a description's) text on one line, as its row's: its paragraphs, lines and list
 * items joined, " / " parting those that end no sentence ("3 / East wing"; run together, "3 East
 * wing" read as one value), and a colon's line going on after it ("Run it: npm start").
 */
function cellText(cell: DomNode): string {
  const parts = lineParts(structuredText(cell)).filter(Boolean);
  return parts.reduce((joined, part) => (!joined ? part : /[.!?:]$/.test(joined) ? `${joined} ${part}` : `${joined} / ${part}`), '');
}

/**
 * Structured text's lines as parts of one line: a line each, less its list marker, and a code
 * block one part of its lines parted by " / ", without its fences. Not "; ", which parts a row's
 * cells: "Code: npm install; npm start" would no longer read as a row with its headers.
 */
function lineParts(text: string): string[] {
  const parts: string[] = [];
  let code: { fence: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (code && line === code.fence) {
      parts.push(code.lines.filter(Boolean).join(' / '));
      code = undefined;
    } else if (code) code.lines.push(oneLine(line));
    else if (FENCE.test(line)) code = { fence: line, lines: [] };
    else parts.push(oneLine(line.replace(ITEM_MARKER, '')));
  }
  return parts;
}

function startsWithHeaderCell(row: DomNode): boolean {
  return elementChildren(row, 'TD', 'TH')[0]?.nodeName === 'TH';
}

/** A row whose first cell ends in a colon, `Room: | Kestrel`, as a word processor's table of labels and values has them (its cells are all alike). */
function startsWithLabel(row: DomNode): boolean {
  const [label, ...values] = elementChildren(row, 'TD', 'TH');
  return label !== undefined && values.length > 0 && cellText(label).endsWith(':');
}

function isHeaderRow(row: DomNode): boolean {
  return elementChildren(row, 'TD', 'TH').every((cell) => cell.nodeName === 'TH');
}

/**
 * A label and its values on a line: a row of a table whose rows are labelled by their first cell
 * ("Weight | 2 kg"), a description list's term and descriptions: `Weight: 2 kg`, `Colours: red;
 * blue`. A label ending in its own stop (a question) is followed by its values without a colon.
 */
function labelledLine([label = '', ...values]: string[]): string {
  const value = values.filter(Boolean).join('; ');
  if (!label || !value) return label || value;
  return /[.:?!]$/.test(label) ? `${label} ${value}` : `${label}: ${value}`;
}

/** A description list's lines: each group of terms (`Size, Dimensions`) and their descriptions, a line. */
function descriptionLines(list: DomNode): string[] {
  const lines: string[] = [];
  let terms: string[] = [];
  let descriptions: string[] = [];
  const close = () => {
    lines.push(labelledLine([terms.filter(Boolean).join(', '), ...descriptions]));
    [terms, descriptions] = [[], []];
  };
  // Groups may be wrapped in a <div> each, as HTML allows.
  for (const entry of elementChildren(list, 'DT', 'DD', 'DIV').flatMap((child) => (child.nodeName === 'DIV' ? elementChildren(child, 'DT', 'DD') : [child]))) {
    const text = cellText(entry);
    if (entry.nodeName === 'DD') descriptions.push(text);
    else {
      if (descriptions.length) close();
      terms.push(text);
    }
  }
  close();
  return lines.filter(Boolean);
}

/**
 * The rows' cell texts by column, the first `headerRows` of them headers. A cell spanning rows (a
 * merged cell) holds its text in each row it spans, so every row reads whole on its own line; a
 * cell spanning columns names each of them when it is a header.
 */
function cellGrid(rows: DomNode[], headerRows: number): string[][] {
  /** By column, the text of a cell above still spanning down, and the rows it spans yet. */
  const spanning: { text: string; rows: number }[] = [];
  return rows.map((row, index) => {
    const texts: string[] = [];
    const takeSpanning = () => {
      for (let above = spanning[texts.length]; above && above.rows > 0; above = spanning[texts.length]) {
        above.rows -= 1;
        texts.push(above.text);
      }
    };
    for (const cell of elementChildren(row, 'TD', 'TH')) {
      takeSpanning();
      const text = cellText(cell);
      const [columns = 1, rowsDown = 1] = ['colspan', 'rowspan'].map((name) => Math.max(1, Math.min(Number(cell.getAttribute?.(name) ?? 1) || 1, 100)));
      for (let column = 0; column < columns; column += 1) {
        const value = column === 0 || index < headerRows ? text : '';
        if (rowsDown > 1) spanning[texts.length] = { text: value, rows: rowsDown - 1 };
        texts.push(value);
      }
    }
    takeSpanning();
    return texts;
  });
}

/** The text of a structured text's first heading. */
export function firstHeading(text: string): string | undefined {
  return /^#{1,6} (.+)$/m.exec(text)?.[1];
}
