import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Chunk, SourceRef, SourceText } from '../../store/port.js';
import { workerJobs } from '../../worker-thread.js';
import { runsBySource } from '../lexical-index.js';
import { useVectorTable, type VectorTable } from '../word-vectors.js';
import { packTexts, unpackTexts, type PackedTexts } from './packed-texts.js';

// Training's heavy work (chunking a source, building its lexical index) runs in one worker
// thread shared by the process: a 10 MB source takes seconds of CPU, which on the event loop
// would stall every other request.

export type TrainingJob =
  | { task: 'chunk'; text: string }
  | { task: 'chunk-sources'; texts: SourceText[] }
  | { task: 'material'; material: number; source: string | undefined; texts: PackedTexts }
  | { task: 'index'; material: number; count: number }
  | { task: 'vectors' };

// A material goes to the worker in slices of this many chunks (under a megabyte), other
// requests served between them: posting a large one at once held the event loop while it was
// copied (a fifth of a second for 50 MB). A slice is chunks of one source, packed: ten thousand
// chunk objects took the worker tens of milliseconds to decode, where one string is a copy.
const MATERIAL_SLICE = 1_000;
let materials = 0;

const run = workerJobs(new URL('./training-worker.ts', import.meta.url), 'training worker') as (
  job: TrainingJob,
) => Promise<unknown>;

/** chunkText, on the worker thread. */
export function chunkOffThread(text: string): Promise<string[]> {
  return run({ task: 'chunk', text }) as Promise<string[]>;
}

/** Each source's text chunked, each chunk naming its source, on the worker thread. */
export async function chunkSourcesOffThread(texts: SourceText[]): Promise<{ text: string; source: SourceRef }[]> {
  const chunked = (await run({ task: 'chunk-sources', texts })) as PackedTexts[];
  return chunked.flatMap((packed, k) => unpackTexts(packed).map((text) => ({ text, source: (texts[k] as SourceText).ref })));
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
export async function buildIndexOffThread(chunks: Chunk[]): Promise<Uint8Array> {
  materials += 1;
  const material = materials;
  let posted = 0;
  for (const { source, texts } of runsBySource(chunks)) {
    for (let start = 0; start < texts.length; start += MATERIAL_SLICE) {
      if (posted > 0) await betweenRequests();
      // Its failure (the worker gone) fails the index job that follows.
      run({ task: 'material', material, source, texts: packTexts(texts.slice(start, start + MATERIAL_SLICE)) }).catch(() => {});
      posted += 1;
    }
  }
  return run({ task: 'index', material, count: chunks.length }) as Promise<Uint8Array>;
}
