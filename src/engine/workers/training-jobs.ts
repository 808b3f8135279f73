import { randomUUID } from 'node:crypto';
import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Chunk, MaterialRun, SourceChunk, SourceText } from '../../store/port.js';
import { workerJobs } from '../../worker-thread.js';
import { runsBySource } from '../lexical-index.js';
import { useVectorTable, type VectorTable } from '../word-vectors.js';
import { packTexts, unpackTexts, type PackedTexts } from './packed-texts.js';

// Training's heavy work (chunking a source, building its lexical index) runs in one worker
// thread shared by the process: a 10 MB source takes seconds of CPU, which on the event loop
// would stall every other request. The chunks the worker makes are named (SourceRun.chunksId)
// and it keeps what it reads of them under that name: the material's runs name them, so an index
// of chunks it holds is built from their names, without posting 10 MB of chunks back to it.

export type TrainingJob =
  | { task: 'chunk'; text: string }
  | { task: 'chunk-sources'; texts: SourceText[]; chunksId: string }
  | { task: 'material'; material: number; source: string | undefined; chunksId: string | undefined; texts: PackedTexts }
  | { task: 'index'; material: number; count: number }
  | { task: 'kept-index'; chunksIds: string[] }
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

/** A source's chunks and their name (SourceRun.chunksId). */
export type NamedChunks = { chunksId: string; chunks: SourceChunk[] };

/** A source's texts chunked, each chunk naming its text's source (or page), on the worker thread, which reads them for the index meanwhile. */
export async function chunkSourcesOffThread(texts: SourceText[]): Promise<NamedChunks> {
  const chunksId = randomUUID();
  const chunked = (await run({ task: 'chunk-sources', texts, chunksId })) as PackedTexts[];
  return { chunksId, chunks: chunksNamingSources(texts, chunked.map(unpackTexts)) };
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

/**
 * The serialized lexical index of a material whose runs all name their chunks, built on the worker
 * thread from what it kept of them; undefined when it holds no reading of some (then
 * buildIndexOffThread).
 */
export async function keptIndexOffThread(runs: readonly MaterialRun[]): Promise<Uint8Array | undefined> {
  const chunksIds = runs.flatMap(({ chunksId }) => (chunksId === undefined ? [] : [chunksId]));
  if (runs.length === 0 || chunksIds.length < runs.length) return undefined;
  // A reading that failed is read again from the chunks.
  return (run({ task: 'kept-index', chunksIds }) as Promise<Uint8Array | undefined>).catch(() => undefined);
}

/**
 * The serialized lexical index of the chunks, built on the worker thread. Given the material's
 * `runs`, what the worker kept of the chunks they name is used, and what it reads kept.
 */
export async function buildIndexOffThread(chunks: Chunk[], runs: readonly MaterialRun[] = []): Promise<Uint8Array> {
  materials += 1;
  const material = materials;
  let posted = 0;
  for (const { chunksId, source, texts } of namedRunsBySource(chunks, runs)) {
    for (let start = 0; start < texts.length; start += MATERIAL_SLICE) {
      if (posted > 0) await betweenRequests();
      // Its failure (the worker gone) fails the index job that follows.
      run({ task: 'material', material, source, chunksId, texts: packTexts(texts.slice(start, start + MATERIAL_SLICE)) }).catch(() => {});
      posted += 1;
    }
  }
  return run({ task: 'index', material, count: chunks.length }) as Promise<Uint8Array>;
}

/** runsBySource of each run's chunks, with its name: unnamed when the runs do not cover the chunks (material trained before runs were recorded). */
function namedRunsBySource(chunks: Chunk[], runs: readonly MaterialRun[]) {
  if (runs.at(-1)?.end !== chunks.length) return runsBySource(chunks).map((bySource) => ({ ...bySource, chunksId: undefined }));
  return runs.flatMap(({ start, end, chunksId }) => runsBySource(chunks.slice(start, end)).map((bySource) => ({ ...bySource, chunksId })));
}

/**
 * The chunks of each text, in order, each naming its text's source: with a loop, not flatMap,
 * which took 2 ms of the 15,000 chunks of a 10 MB source (on the event loop, on the main thread).
 */
function chunksNamingSources(texts: SourceText[], chunked: string[][]): SourceChunk[] {
  const chunks: SourceChunk[] = [];
  texts.forEach(({ ref }, k) => {
    for (const text of chunked[k] as string[]) chunks.push({ text, source: ref });
  });
  return chunks;
}
