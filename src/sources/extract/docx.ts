import mammoth from 'mammoth';
import { damaged, ExtractionError } from './errors.js';
import { docxHtmlText } from './docx-notes.js';
import { firstHeading } from './structured-text.js';

// A Word document as structured text: mammoth maps its styles to HTML (Heading 1 → <h1>, lists,
// tables with their header rows), which the HTML writer turns into lines.

/**
 * A document's Title style is its heading too (mammoth maps only Heading 1–6), and its table of
 * contents is no text. A code style's
 * paragraphs, running on, are one preformatted block, their spaces and tabs kept (mammoth matches
 * style names in any case).
 */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  // A table of contents ("toc 1", "toc 2", … and its title, "TOC Heading"): its entries, each a
  // heading and its page after a tab, say nothing an answer should quote.
  "p[style-name^='toc '] => !",
  ...['Code', 'Code Block', 'Source Code', 'HTML Preformatted', 'Macro Text'].map((style) => `p[style-name='${style}'] => pre:separator('\\n')`),
];
/** Images carry no text: mammoth would otherwise inline each one in the HTML as base64. */
const SKIP_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }));

export async function extractDocx(bytes: Uint8Array): Promise<{ title: string | undefined; text: string }> {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // Kept so that a code block's blank lines (its empty paragraphs) stay; docxHtmlText drops
      // the empty list items this gives too.
      { styleMap: STYLE_MAP, convertImage: SKIP_IMAGES, ignoreEmptyParagraphs: false },
    ));
  } catch {
    throw new ExtractionError(damaged('docx'));
  }
  const text = docxHtmlText(html);
  return { title: firstHeading(text), text };
}
