import mammoth from 'mammoth';
import { damaged, ExtractionError } from './errors.js';
import { htmlFragmentText } from './html.js';
import { firstHeading } from './structured-text.js';

// A Word document as structured text: mammoth maps its styles to HTML (Heading 1 → <h1>, lists,
// tables with their header rows), which the HTML writer turns into lines.

/** A document's Title style is its heading too (mammoth maps only Heading 1–6). */
const TITLE_STYLE = ["p[style-name='Title'] => h1:fresh"];
/** The link back from a footnote or endnote to where it is referred to: an arrow, "↑", no text. */
const NOTE_BACK_LINK = / ?<a href="#(?:footnote|endnote)-ref-[\w-]+">↑<\/a>/g;
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
  const text = htmlFragmentText(html.replace(NOTE_BACK_LINK, ''));
  return { title: firstHeading(text), text };
}
