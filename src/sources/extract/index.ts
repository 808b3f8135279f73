import { workerJobs } from '../../worker-thread.js';
import { ExtractionError } from './errors.js';
import type { FileKind } from './sniff.js';

// File extraction for knowledge sources: the type judged from the content, the text written with
// its structure (Markdown headings, one line per list item and table row) for the chunker. Pure:
// it knows nothing of the store or HTTP. The work runs on a worker thread of its own.

export type { FileKind } from './sniff.js';
export type Extracted = { kind: FileKind; contentType: string; title: string | undefined; text: string };

export { ExtractionError, isExtractionError } from './errors.js';
export { extractHtml } from './html.js';
export { CONTENT_TYPES, sniffFileKind } from './sniff.js';
export { unpackedXmlBytes } from './unpacked-size.js';

type Outcome = { extracted: Extracted } | { failure: string };

const runOnWorker = workerJobs(new URL('./extract-worker.ts', import.meta.url), 'extraction worker') as (
  bytes: Uint8Array,
) => Promise<Outcome>;

/** Extracts structured text. Throws ExtractionError whose message is one plain sentence. */
export async function extractFile(bytes: Uint8Array): Promise<Extracted> {
  const outcome = await runOnWorker(bytes);
  if ('failure' in outcome) throw new ExtractionError(outcome.failure);
  return outcome.extracted;
}

