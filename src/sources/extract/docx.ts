import mammoth from 'mammoth';
import { damaged, ExtractionError } from './errors.js';
import { docxHtmlText } from './docx-notes.js';
import { firstHeading } from './structured-text.js';

// A Word document as structured text: mammoth maps its styles to HTML (Heading 1 → <h1>, lists,
// tables with their header rows), which the HTML writer turns into lines.

/** A document's Title style is its heading too (mammoth maps only Heading 1–6). */
const TITLE_STYLE = ["p[style-name='Title'] => h1:fresh"];
/** Images carry no text: mammoth would otherwise inline each one in the HTML as base64. */
const SKIP_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }));

export async function extractDocx(bytes: Uint8Array): Promise<{ title: string | undefined; text: string }> {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { styleMap: TITLE_STYLE, convertImage: SKIP_IMAGES },
    ));
  } catch {
    throw new ExtractionError(damaged('docx'));
  }
  const text = docxHtmlText(html);
  return { title: firstHeading(text), text };
}
