import iconv from 'iconv-lite';

// The type of a file from its bytes, never its name: PDF and DOCX by their signatures (a DOCX is
// a zip holding word/document.xml), then text, which must decode, told apart by its structure:
// HTML by its document tags, Markdown by its headings, fences, tables and links; other markup
// (XML, SVG) is not read.

export type FileKind = 'pdf' | 'docx' | 'markdown' | 'html' | 'text';

/** The media type of each kind, as a file source shows it from its upload on. */
export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  markdown: 'text/markdown',
  html: 'text/html',
  text: 'text/plain',
};

/** How much of a text file is read to judge it. */
const TEXT_PREFIX = 64 * 1024;
const PDF_SIGNATURE = Buffer.from('%PDF-');
const ZIP_LOCAL = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_CENTRAL = Buffer.from('PK\x01\x02', 'latin1');
const DOCX_BODY = 'word/document.xml';
const UNICODE = new Set(['utf-8', 'utf8', 'utf-16le', 'utf-16be']);

const HTML_DOCUMENT = /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html|<(?:html|head|body)[\s>]/i;
const HTML_LEADING_TAG =
  /^(?:<!--[\s\S]*?-->\s*)*<(?:div|p|h[1-6]|table|ul|ol|section|article|main|header|nav|meta|link|title|script|style|span|a|form|img)[\s>/]/i;
const OTHER_MARKUP = /^<(?:\?xml|!doctype|[a-z][\w:-]*[\s>/])/i;
const MARKDOWN_SIGNS = [
  /^#{1,6}[ \t]+\S/m, // ATX heading
  /^(?:```|~~~)/m, // fenced code
  /^\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$/m, // table delimiter row
  /^\S.*\n(?:={3,}|-{3,})[ \t]*$/m, // setext heading
  /\[[^\]\n]+\]\([^)\s]+\)/, // link
  /(?:\*\*|__)[^*_\n]+(?:\*\*|__)/, // strong emphasis
];
// C0 controls other than tab, line feed, form feed and carriage return, DEL, and C1 controls.
const CONTROL = /[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]/g; // eslint-disable-line no-control-regex
/** `<meta charset="…">` or `<meta http-equiv="Content-Type" content="text/html; charset=…">`. */
const DECLARED_CHARSET = /<meta[^>]+charset=["']?([\w-]+)/i;

export function sniffFileKind(bytes: Uint8Array): FileKind | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // A PDF's header may follow a little junk (the spec allows it within the first KB).
  if (buffer.subarray(0, 1024).includes(PDF_SIGNATURE)) return 'pdf';
  if (buffer.subarray(0, 4).equals(ZIP_LOCAL)) return zipEntryNames(buffer).has(DOCX_BODY) ? 'docx' : undefined;
  const text = decodeText(buffer.subarray(0, TEXT_PREFIX), buffer.length > TEXT_PREFIX);
  return text === undefined ? undefined : textKind(text);
}

/**
 * The names in a zip's local and central headers. Both are read so that a truncated DOCX, which
 * has lost its central directory, is still known for one (and then reported as damaged).
 */
function zipEntryNames(buffer: Buffer): Set<string> {
  const names = new Set<string>();
  for (const [signature, lengthAt, nameAt] of [[ZIP_LOCAL, 26, 30], [ZIP_CENTRAL, 28, 46]] as const) {
    for (let at = buffer.indexOf(signature); at >= 0; at = buffer.indexOf(signature, at + 4)) {
      if (at + nameAt > buffer.length) break;
      const length = buffer.readUInt16LE(at + lengthAt);
      names.add(buffer.toString('latin1', at + nameAt, Math.min(at + nameAt + length, buffer.length)));
    }
  }
  return names;
}

/**
 * The file's text, if it is text: decoded by its byte-order mark (UTF-16), else as UTF-8 when its
 * start is UTF-8, else by the charset an HTML file declares, else as Windows-1252 (Latin-1's
 * superset); and without binary controls. `prefix`: the bytes are the file's start only.
 */
export function decodeText(bytes: Uint8Array, prefix = false): string | undefined {
  const encoding = encodingOf(bytes.subarray(0, TEXT_PREFIX));
  let text: string;
  if (UNICODE.has(encoding)) {
    try {
      // A cut prefix may end inside a character: `stream` leaves that last one out.
      text = new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: prefix });
    } catch {
      return undefined;
    }
  } else {
    // iconv-lite, not TextDecoder: Node 20's TextDecoder reads Windows-1252 as Latin-1 (no €).
    text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
  }
  const controls = text.match(CONTROL)?.length ?? 0;
  return text.includes('\0') || controls > text.length / 100 ? undefined : text;
}

function encodingOf(start: Uint8Array): string {
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le';
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(start, { stream: true });
    return 'utf-8';
  } catch {
    const declared = DECLARED_CHARSET.exec(Buffer.from(start).toString('latin1'))?.[1];
    return declared && iconv.encodingExists(declared) && !UNICODE.has(declared.toLowerCase()) ? declared : 'windows-1252';
  }
}

function textKind(text: string): FileKind | undefined {
  const start = text.trimStart();
  if (HTML_DOCUMENT.test(start.slice(0, 4096))) return 'html';
  // Before a leading tag: many a README opens with <p align="center"> and goes on in Markdown.
  if (MARKDOWN_SIGNS.some((sign) => sign.test(text))) return 'markdown';
  if (HTML_LEADING_TAG.test(start)) return 'html';
  // Other markup (an SVG, a feed, any XML) is not a document we read.
  return OTHER_MARKUP.test(start) ? undefined : 'text';
}
