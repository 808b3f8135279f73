import { answerProcessJobs } from '../../process-jobs.js';
import { extractBytes } from './extract.js';
import { ExtractionError } from './errors.js';
// Loaded before the child says it is ready (extract.ts loads them on first use, for the hub's
// sake), so that a file's reading is not charged with the memory of loading its reader.
import './docx.js';
import './pdf.js';
// @ts-expect-error pdf.js ships no types for its worker's module.
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';

// pdf.js reads in this thread (a "fake worker"), whose handler it takes from here rather than
// importing it on the first PDF.
Object.assign(globalThis, { pdfjsWorker });

// The child process that extracts files (processJobs), so a large PDF never holds the server's
// event loop, and a reading stopped for its memory gives it all back. A failure the owner should
// read comes back as its sentence; anything else fails the job as an error.

answerProcessJobs<Uint8Array>(async (bytes) => {
  try {
    return { result: { extracted: await extractBytes(bytes) } };
  } catch (error) {
    if (error instanceof ExtractionError) return { result: { failure: error.message } };
    throw error;
  }
});
