import { htmlFragmentText } from './html.js';
import { noteMark, placeNotes } from './notes.js';
import { oneLine, structuredText, type DomNode } from './structured-text.js';

// A converted DOCX's footnotes and endnotes read into its text, as a Markdown file's are
// (notes.ts). mammoth lists the notes at the end, each an item `<li id="footnote-1">` ending in a
// link back ("↑"), and writes each reference a superscript link to its item ("[1]").

const NOTES = 'li[id^="footnote-"], li[id^="endnote-"]';
const BACK_LINKS = 'a[href^="#footnote-ref-"], a[href^="#endnote-ref-"]';
const REFERENCES = 'a[href^="#footnote-"], a[href^="#endnote-"]';

type Element = DomNode & { id: string; remove(): void; closest(selector: string): Element | null; replaceWith(node: unknown): void };

/**
 * mammoth's HTML of a DOCX as structured text, each note after the paragraph (list, table) first
 * citing it, less its empty list items.
 */
export function docxHtmlText(html: string): string {
  const notes: string[] = [];
  const text = htmlFragmentText(html, (document) => {
    const elements = (selector: string) => Array.from(document.querySelectorAll(selector) as ArrayLike<Element>);
    for (const link of elements(BACK_LINKS)) link.remove();
    const references = elements(REFERENCES);
    for (const note of elements(NOTES)) {
      const mark = noteMark(notes.length);
      for (const reference of references.filter((link) => link.getAttribute?.('href') === `#${note.id}`)) {
        (reference.closest('sup') ?? reference).replaceWith(document.createTextNode(mark));
      }
      notes.push(oneLine(structuredText(note)));
      note.remove();
    }
    // An empty bulleted or numbered paragraph is an empty item, which would be a line "-".
    for (const item of elements('li')) if (!item.textContent?.trim()) item.remove();
  });
  return placeNotes(text, notes);
}
