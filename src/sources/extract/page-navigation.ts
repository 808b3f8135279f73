import type { ParsedDocument } from './html.js';

// A web page's navigation that no <nav> element marks: a documentation generator's links to the
// page before and after ("Prev", "Up", "Home", "Next", as DocBook's `docnav` lists set them, at
// the page's top and again at its foot) and its table of contents (a book's index page lists every
// section as links, read as one long line of each chapter's sections). A crawl reads each page
// they link to on its own; their text in a page says nothing an answer should quote.

/** A table of contents, by the class or id documentation generators give it (DocBook, MkDocs, Pandoc, Wikipedia). */
const CONTENTS = '.toc, #toc, #TOC, .table-of-contents';
/**
 * A link's text that moves through a document: "Prev", "Next", "Up", "Home", an arrow. A word
 * may run into the title after it ("PrevChapter 1"), never into a small letter ("Upgrade").
 */
const MOVES = /^(?:[«‹←→›»]|(?:[Pp]rev(?:ious)?|[Nn]ext|[Uu]p|[Hh]ome|[Bb]ack|[Tt]op)(?![a-z]))/;
/** Items a pager has at least: the first page's has a "Next" beside the document's title, or an empty "Prev". */
const MIN_ITEMS = 2;
/** An item of a list of links longer than this is content, not a link in a pager. */
const MAX_ITEM_CHARS = 100;

type Element = { textContent: string | null; remove(): void; querySelectorAll(selector: string): ArrayLike<Element>; children: ArrayLike<Element & { nodeName: string }> };

/**
 * Removes the page's tables of contents and its pagers: lists of MIN_ITEMS short items at least
 * whose links, one an item at most and one at least in all, all move through the document.
 */
export function dropPageNavigation(document: ParsedDocument): void {
  const elements = (root: { querySelectorAll(selector: string): unknown }, selector: string) => Array.from(root.querySelectorAll(selector) as ArrayLike<Element>);
  for (const contents of elements(document, CONTENTS)) contents.remove();
  for (const list of elements(document, 'ul, ol')) {
    const items = Array.from(list.children).filter((child) => child.nodeName === 'LI');
    const links = items.flatMap((item) => elements(item, 'a'));
    const short = items.every((item) => elements(item, 'a').length <= 1 && (item.textContent ?? '').trim().length <= MAX_ITEM_CHARS);
    if (items.length >= MIN_ITEMS && links.length > 0 && short && links.every((link) => MOVES.test((link.textContent ?? '').trim()))) list.remove();
  }
}
