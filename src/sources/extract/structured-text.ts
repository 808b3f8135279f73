// Writes an HTML element's content as the structured text the chunker reads (src/engine/structure.ts):
// a heading is a Markdown heading on a line of its own, paragraphs are separated by a blank line,
// each list item keeps its line (`- item`, `1. item`), and each table row becomes one line naming
// its column headers (`Room: Kestrel; Floor: 3; Code: KES-4105`).

/** The part of a DOM node this writer reads (linkedom's nodes have it). */
export type DomNode = {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
};

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'BUTTON', 'SELECT', 'HEAD']);
const BLOCKS = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'ASIDE', 'HEADER', 'FOOTER', 'NAV', 'BLOCKQUOTE', 'FIGURE', 'FIGCAPTION',
  'ADDRESS', 'FORM', 'FIELDSET', 'DETAILS', 'SUMMARY', 'CAPTION', 'BODY', 'HTML', 'CENTER', 'LI', 'DD', 'DT',
]);

/** The structured text of a node's content. */
export function structuredText(root: DomNode): string {
  const blocks: string[] = [];
  let inline = '';
  const flush = () => {
    const paragraph = tidyLines(inline);
    if (paragraph) blocks.push(paragraph);
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
      if (heading) blocks.push(`${'#'.repeat(Number(level))} ${heading}`);
    } else if (name === 'UL' || name === 'OL') {
      flush();
      blocks.push(listLines(node, 0).join('\n'));
    } else if (name === 'TABLE') {
      flush();
      blocks.push(...tableBlocks(node));
    } else if (name === 'PRE') {
      flush();
      const code = (node.textContent ?? '').replace(/\s+$/, '');
      if (code.trim()) blocks.push(code);
    } else if (name === 'BR') {
      inline += '\n';
    } else if (name === 'HR') {
      flush();
    } else if (BLOCKS.has(name)) {
      flush();
      for (const child of Array.from(node.childNodes)) walk(child);
      flush();
    } else {
      for (const child of Array.from(node.childNodes)) walk(child);
    }
  };
  for (const child of Array.from(root.childNodes)) walk(child);
  flush();
  return blocks.filter(Boolean).join('\n\n');
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

/** A list's lines: `- item` or `1. item`, nested lists indented under their item. */
function listLines(list: DomNode, depth: number): string[] {
  const ordered = list.nodeName === 'OL';
  let number = Number(list.getAttribute?.('start') ?? 1) || 1;
  const lines: string[] = [];
  for (const item of elementChildren(list, 'LI')) {
    const own = { nodeType: ELEMENT_NODE, nodeName: 'LI', textContent: null, childNodes: Array.from(item.childNodes).filter((child) => !isList(child)) };
    const marker = ordered ? `${number}.` : '-';
    number += 1;
    lines.push(`${'  '.repeat(depth)}${marker} ${oneLine(structuredText(own))}`.trimEnd());
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
  if (!head.length && rows.length > 1 && rows.every(startsWithHeaderCell) && !isHeaderRow(rows[0] as DomNode)) {
    return [...caption, rows.map(labelledRowLine).filter(Boolean).join('\n')].filter(Boolean);
  }
  // The header row: the head's last row, else (header cells or not, as in most word-processor
  // tables) the first row.
  const headerRow = head.at(-1) ?? rows.shift();
  const headers = headerRow ? cellTexts(headerRow, true) : [];
  const lines = rows
    .map((row) =>
      cellTexts(row, false)
        .map((value, column) => (value && headers[column] ? `${headers[column]}: ${value}` : value))
        .filter(Boolean)
        .join('; '),
    )
    .filter(Boolean);
  // A table of headers alone still says what it holds.
  if (!lines.length && headers.some(Boolean)) lines.push(headers.filter(Boolean).join('; '));
  return [...caption, lines.join('\n')].filter(Boolean);
}

function startsWithHeaderCell(row: DomNode): boolean {
  return elementChildren(row, 'TD', 'TH')[0]?.nodeName === 'TH';
}

function isHeaderRow(row: DomNode): boolean {
  return elementChildren(row, 'TD', 'TH').every((cell) => cell.nodeName === 'TH');
}

/** A row of a table whose rows are labelled by their first cell ("Weight | 2 kg"): `Weight: 2 kg`. */
function labelledRowLine(row: DomNode): string {
  const [label = '', ...values] = cellTexts(row, false);
  const value = values.filter(Boolean).join('; ');
  return label && value ? `${label}: ${value}` : label || value;
}

/** A row's cell texts by column; a cell spanning columns names each of them when it is a header. */
function cellTexts(row: DomNode, header: boolean): string[] {
  return elementChildren(row, 'TD', 'TH').flatMap((cell) => {
    const text = oneLine(structuredText(cell));
    const span = Math.max(1, Math.min(Number(cell.getAttribute?.('colspan') ?? 1) || 1, 100));
    return [text, ...Array<string>(span - 1).fill(header ? text : '')];
  });
}

/** The text of a structured text's first heading. */
export function firstHeading(text: string): string | undefined {
  return /^#{1,6} (.+)$/m.exec(text)?.[1];
}
