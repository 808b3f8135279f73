import mammoth from 'mammoth';
import { damaged, ExtractionError } from './errors.js';
import { htmlFragmentText } from './html.js';
import { firstHeading } from './structured-text.js';

// A Word document as structured text: mammoth maps its styles to HTML (Heading 1 → <h1>, lists,
// tables with their header rows), which the HTML writer turns into lines.

export async function extractDocx(bytes: Uint8Array): Promise<{ title: string | undefined; text: string }> {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }));
  } catch {
    throw new ExtractionError(damaged('docx'));
  }
  const text = htmlFragmentText(html);
  return { title: firstHeading(text), text };
}
