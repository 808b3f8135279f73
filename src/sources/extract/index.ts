import { measureExtractionMemory } from '../../metrics.js';
import { ChildEnded, processJobs } from '../../process-jobs.js';
import { JobOverTime, WorkerOverMemory, type JobLimits } from '../../worker-thread.js';
import { ExtractionError, READING_ENDED, tooLong, tooMuchMemory } from './errors.js';
import type { FileKind } from './sniff.js';

// File extraction for knowledge sources: the type judged from the content, the text written with
// its structure (Markdown headings, one line per list item and table row) for the chunker. Pure:
// it knows nothing of the store or HTTP. The work runs in a child process of its own, so that a
// reading stopped for its memory gives every byte of it back.

export type { FileKind } from './sniff.js';
export type Extracted = { kind: FileKind; contentType: string; title: string | undefined; text: string };

export { ExtractionError, isExtractionError } from './errors.js';
export { extractHtml } from './html.js';
export { CONTENT_TYPES, sniffFileKind } from './sniff.js';
export { unpackedXmlBytes } from './unpacked-size.js';

type Outcome = { extracted: Extracted } | { failure: string };

const reading = processJobs(new URL('./extract-worker.ts', import.meta.url), 'extraction process');
const runInChild = reading as (bytes: Uint8Array, limits: JobLimits) => Promise<Outcome>;
measureExtractionMemory(reading.residentBytes);

/**
 * The memory reading one file may take, as its reading process's growth meanwhile (SOURCES_MAX_READ_MEMORY_MB):
 * a 10 MB PDF of text takes about 600 MB, while a few kilobytes compressed can unpack to gigabytes.
 */
export const DEFAULT_MAX_READ_MEMORY_MB = 3_072;

/**
 * How long reading one file may take (SOURCES_MAX_READ_SECONDS): `npm run bench -- extraction`
 * reads PDFs at about 0.3 MB/s on two busy cores (a 20 MB PDF of text in about a minute, a
 * text-dense DOCX slower), while a file made to make a reader's work grow with its square would
 * hold the reading process, and every file queued behind it, for hours.
 */
export const DEFAULT_MAX_READ_SECONDS = 1_800;

/**
 * Extracts structured text, its reading stopped once it takes more memory than `maxReadMemoryBytes`
 * or longer than `maxReadMs`. Throws ExtractionError whose message is one plain sentence.
 */
export async function extractFile(
  bytes: Uint8Array,
  maxReadMemoryBytes = DEFAULT_MAX_READ_MEMORY_MB * 1024 * 1024,
  maxReadMs = DEFAULT_MAX_READ_SECONDS * 1000,
): Promise<Extracted> {
  const outcome = await runInChild(bytes, { maxMemoryGrowthBytes: maxReadMemoryBytes, maxMs: maxReadMs }).catch((error: unknown) => {
    if (error instanceof WorkerOverMemory) throw new ExtractionError(tooMuchMemory(maxReadMemoryBytes));
    if (error instanceof JobOverTime) throw new ExtractionError(tooLong(maxReadMs));
    if (error instanceof ChildEnded) throw new ExtractionError(READING_ENDED);
    throw error;
  });
  if ('failure' in outcome) throw new ExtractionError(outcome.failure);
  return outcome.extracted;
}

