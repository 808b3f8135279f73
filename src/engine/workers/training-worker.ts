import { answerJobs } from '../../worker-thread.js';
import { chunkText } from '../chunking.js';
import { packIndex } from '../index-layout.js';
import { buildLexicalIndex } from '../lexical-index.js';
import { readVectorTable } from '../word-vectors.js';
import type { TrainingJob } from './training-jobs.js';

// The thread that does training's CPU-heavy work, so the server's event loop never waits on it.
// The index comes back packed (index-layout.ts) in a transferred buffer: its length is the size
// the cache counts, and the same bytes are what the store keeps.

answerJobs<TrainingJob>(async (job) => {
  if (job.task === 'chunk') return { result: chunkText(job.text) };
  if (job.task === 'chunk-sources') {
    return { result: job.texts.flatMap(({ ref, text }) => chunkText(text).map((chunk) => ({ text: chunk, source: ref }))) };
  }
  if (job.task === 'vectors') {
    const table = readVectorTable();
    return { result: table, transfer: [table.values.buffer] };
  }
  const bytes = packIndex(buildLexicalIndex(job.chunks));
  return { result: bytes, transfer: [bytes.buffer] };
});
