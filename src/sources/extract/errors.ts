import type { FileKind } from './index.js';

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
