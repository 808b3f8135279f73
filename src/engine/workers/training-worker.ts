import { parentPort } from 'node:worker_threads';
import { chunkText } from '../chunking.js';
import { packIndex } from '../index-layout.js';
import { buildLexicalIndex } from '../lexical-index.js';
import type { TrainingJob } from './training-jobs.js';

// The thread that does training's CPU-heavy work, so the server's event loop never waits on it.
// The index comes back packed (index-layout.ts) in a transferred buffer: its length is the size
// the cache counts, and the same bytes are what the store keeps.

parentPort?.on('message', ({ id, job }: { id: number; job: TrainingJob }) => {
  try {
    if (job.task === 'chunk') {
      parentPort?.postMessage({ id, result: chunkText(job.text) });
    } else if (job.task === 'chunk-sources') {
      const chunks = job.texts.flatMap(({ ref, text }) => chunkText(text).map((chunk) => ({ text: chunk, source: ref })));
      parentPort?.postMessage({ id, result: chunks });
    } else {
      const bytes = packIndex(buildLexicalIndex(job.chunks));
      parentPort?.postMessage({ id, result: bytes }, [bytes.buffer]);
    }
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
