import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { chunkText } from '../chunking.js';
import { buildLexicalIndex } from '../lexical-index.js';
import type { TrainingJob } from './training-jobs.js';

// The thread that does training's CPU-heavy work, so the server's event loop never waits on it.
// The index comes back serialized (v8 format) in a transferred buffer: its length is the size the
// cache counts, and the same bytes are what the store keeps.

parentPort?.on('message', ({ id, job }: { id: number; job: TrainingJob }) => {
  try {
    if (job.task === 'chunk') {
      parentPort?.postMessage({ id, result: chunkText(job.text) });
    } else {
      const bytes = serialize(buildLexicalIndex(job.chunks));
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      parentPort?.postMessage({ id, result: new Uint8Array(buffer) }, [buffer]);
    }
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
