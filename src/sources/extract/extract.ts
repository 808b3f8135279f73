import { withoutContents } from './contents.js';
import { damaged, ExtractionError, NO_TEXT, UNSUPPORTED } from './errors.js';
import { extractHtml } from './html.js';
import type { Extracted, FileKind } from './index.js';
import { extractMarkdown } from './markdown.js';
import { plainText } from './plain-text.js';
import { CONTENT_TYPES, decodeText, sniffFileKind } from './sniff.js';

// Extraction itself, on whichever thread calls it (the extraction worker, in the hub).

export async function extractBytes(bytes: Uint8Array): Promise<Extracted> {
  const kind = sniffFileKind(bytes);
  if (!kind) throw new ExtractionError(UNSUPPORTED);
  const { title, text: read } = await extractKind(kind, bytes);
  // An HTML page's contents go in extractHtml, as a crawled page's do.
  const text = kind === 'html' ? read : withoutContents(read);
  if (!/[\p{L}\p{N}]/u.test(text)) throw new ExtractionError(NO_TEXT);
  return { kind, contentType: CONTENT_TYPES[kind], title, text };
}

async function extractKind(kind: FileKind, bytes: Uint8Array): Promise<{ title: string | undefined; text: string }> {
  // PDF.js and mammoth load on first use: a worker that reads only web pages never needs them.
  if (kind === 'pdf') return (await import('./pdf.js')).extractPdf(bytes);
  if (kind === 'docx') return (await import('./docx.js')).extractDocx(bytes);
  // The sniffer read the start; the whole must decode too.
  const text = decodeText(bytes);
  if (text === undefined) throw new ExtractionError(damaged(kind));
  if (kind === 'html') return extractHtml(text);
  if (kind === 'markdown') return extractMarkdown(text);
  return { title: undefined, text: plainText(text) };
}
