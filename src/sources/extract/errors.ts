import type { FileKind } from './sniff.js';

// Why a file yielded no text, as one plain sentence the owner can act on: it becomes the source's
// `error`.

export class ExtractionError extends Error {
  override name = 'ExtractionError';
}

export function isExtractionError(error: unknown): error is ExtractionError {
  return error instanceof ExtractionError;
}

export const UNSUPPORTED =
  'Unsupported file type: upload a PDF, DOCX, Markdown, HTML or plain text file (the type is judged from the content, not the name).';
export const ENCRYPTED_PDF = 'The PDF is encrypted with a password; remove the password (the encryption) and upload it again.';
export const NO_TEXT_LAYER = 'The PDF has no text layer: no text found; is it a scan?';
export const NO_TEXT = 'The file contains no text.';
/** The process reading the file ended before it finished (it crashed, or something outside the hub stopped it). */
export const READING_ENDED = 'The reading of the file stopped before it finished, so it is not read: upload it again, and if it stops again the file may be damaged.';

/** A page of a PDF holding more text than a page can: its content unpacks to millions of characters, as a zip bomb's does. */
export function overfullPage(page: number, limit: number): string {
  return `Page ${page} of the PDF holds more than ${limit.toLocaleString('en-US')} characters of text, more than a page can, so the file is not read.`;
}

/** A file whose reading took more memory than the hub allows one file: most likely one made to unpack to far more than its size. */
/** A file whose reading ran past the time the hub allows one (SOURCES_MAX_READ_SECONDS). */
export function tooLong(limitMs: number): string {
  const seconds = Math.round(limitMs / 1000).toLocaleString('en-US');
  return `Reading the file took longer than the ${seconds} seconds the hub allows one file, so it is not read: it may be damaged, or made to take far longer than its size.`;
}

export function tooMuchMemory(limitBytes: number): string {
  const megabytes = Math.round(limitBytes / 1024 / 1024).toLocaleString('en-US');
  return `Reading the file took more than the ${megabytes} MB of memory the hub allows one file, so it is not read: it may be damaged, or made to unpack to far more than its size.`;
}

const NAMES: Record<FileKind, string> = {
  pdf: 'a PDF',
  docx: 'a DOCX file',
  markdown: 'a Markdown file',
  html: 'an HTML file',
  text: 'a text file',
};

export function damaged(kind: FileKind): string {
  return `The file looks like ${NAMES[kind]} but is damaged or incomplete, so it could not be read.`;
}
