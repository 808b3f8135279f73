import type { Chunk, SourceRef, SourceText } from '../../store/port.js';
import { workerJobs } from '../../worker-thread.js';
import { useVectorTable, type VectorTable } from '../word-vectors.js';

// Training's heavy work (chunking a source, building its lexical index) runs in one worker
// thread shared by the process: a 10 MB source takes seconds of CPU, which on the event loop
// would stall every other request.

export type TrainingJob =
  | { task: 'chunk'; text: string }
  | { task: 'chunk-sources'; texts: SourceText[] }
  | { task: 'index'; chunks: Chunk[] }
  | { task: 'vectors' };

const run = workerJobs(new URL('./training-worker.ts', import.meta.url), 'training worker') as (
  job: TrainingJob,
) => Promise<unknown>;

/** chunkText, on the worker thread. */
export function chunkOffThread(text: string): Promise<string[]> {
  return run({ task: 'chunk', text }) as Promise<string[]>;
}

/** Each source's text chunked, each chunk naming its source, on the worker thread. */
export function chunkSourcesOffThread(texts: SourceText[]): Promise<{ text: string; source: SourceRef }[]> {
  return run({ task: 'chunk-sources', texts }) as Promise<{ text: string; source: SourceRef }[]>;
}

let vectorsLoaded: Promise<void> | undefined;

/**
 * Loads the word vectors (word-vectors.ts) on the worker thread, once per process. Never
 * rejects: without them retrieval matches words and WordNet synonyms only.
 */
export function loadWordVectors(): Promise<void> {
  vectorsLoaded ??= (run({ task: 'vectors' }) as Promise<VectorTable>).then(useVectorTable, () => {});
  return vectorsLoaded;
}

/** The serialized lexical index of the chunks, built on the worker thread. */
export function buildIndexOffThread(chunks: Chunk[]): Promise<Uint8Array> {
  return run({ task: 'index', chunks }) as Promise<Uint8Array>;
}
