import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

// A page's main content as text: Readability (Firefox's reader view) picks the content and drops
// navigation, headers, footers and scripts; headings become `#` lines and every block its own
// line. A page too short for Readability's judgement (it scores paragraphs of 25 characters and
// more, and would take a long header line for the content) keeps its body without those parts.

const BLOCKS = new Set(['address', 'article', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'form', 'li', 'main', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul']);
const DROPPED = new Set(['head', 'title', 'script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'aside', 'svg', 'iframe']);

const [ELEMENT, TEXT, DOCUMENT] = [1, 3, 9];

/** The little of the DOM walked here (the project compiles without the DOM's types). */
type DomNode = { nodeType: number; textContent: string | null; localName?: string; childNodes: Iterable<DomNode> };

export function pageText(html: string): string {
  const { document } = parseHTML(html);
  const article = isProbablyReaderable(document)
    ? new Readability(document, { serializer: (node) => node as unknown as DomNode }).parse()
    : undefined;
  const lines: string[] = [];
  let line = '';
  const endLine = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === TEXT) line += node.textContent ?? '';
    if (node.nodeType !== ELEMENT && node.nodeType !== DOCUMENT) return;
    const name = node.localName ?? '';
    if (DROPPED.has(name)) return;
    const heading = /^h([1-6])$/.exec(name);
    const block = heading || BLOCKS.has(name) || name === 'br';
    if (block) endLine();
    if (heading) line = `${'#'.repeat(Number(heading[1]))} `;
    for (const child of node.childNodes) walk(child);
    if (block) endLine();
  };
  // The whole document, not its body: linkedom leaves the body empty when the HTML has no <body>.
  walk(article?.content ?? (document as unknown as DomNode));
  endLine();
  return lines.join('\n');
}
