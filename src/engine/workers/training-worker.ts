import { setImmediate as afterAnswering } from 'node:timers/promises';
import { answerJobs } from '../../worker-thread.js';
import { chunkPassages, chunkText, packChunks, passageBlocks } from '../chunking.js';
import { createByteCache } from '../index-cache.js';
import { packIndex } from '../index-layout.js';
import { mergeIndexParts, type IndexPart } from '../index-parts.js';
import { readVectorTable } from '../word-vectors.js';
import { packTexts, unpackTexts } from './packed-texts.js';
import { handOutPieces, readHandedOut, startReadingHelpers, type SourceTexts } from './read-in-pieces.js';
import type { SourceText } from '../../store/port.js';
import type { TrainingJob } from './training-jobs.js';

// The thread that does training's CPU-heavy work, so the server's event loop never waits on it.
// The index comes back packed (index-layout.ts) in a transferred buffer: its length is the size
// the cache counts, and the same bytes are what the store keeps. What it reads of named chunks
// (training-jobs.ts) is kept under their name within a budget: the parts of the index of their
// source, or of each page of a website (index-parts.ts). Chunks are read as soon as they are made,
// while the event loop stores them; an index of a material whose runs all name chunks it kept
// merges their parts, and a change to one source of a large chatbot reads that source alone. A
// large source is read in pieces on several threads (read-in-pieces.ts).

const PARTS_BUDGET_BYTES = 256 * 1024 * 1024;
const kept = createByteCache<Promise<IndexPart[]>>(PARTS_BUDGET_BYTES);
/** Named chunks being read. */
const reading = new Map<string, Promise<IndexPart[]>>();
startReadingHelpers();

/** What is read of one source (one website page), the source as JSON (runsBySource): its chunks, or their blocks. */
type Run = { source: string | undefined } & SourceTexts;

/** What is read, or being read, of the chunks named `chunksId`, if anything. */
function readingOf(chunksId: string): Promise<IndexPart[]> | undefined {
  return reading.get(chunksId) ?? kept.get(chunksId);
}

/** What was read of the chunks named `chunksId`, read once: a job arriving while they are read waits for that reading. */
function partsOf(chunksId: string | undefined, runs: Run[]): Promise<IndexPart[]> {
  if (chunksId === undefined) return readParts(runs);
  const known = readingOf(chunksId);
  if (known) return known;
  const parts = readParts(runs);
  reading.set(chunksId, parts);
  parts.then(
    (read) => {
      reading.delete(chunksId);
      kept.set(chunksId, parts, read.reduce((sum, part) => sum + weight(part), 0));
    },
    () => reading.delete(chunksId),
  );
  return parts;
}

/**
 * Each run's part. Reading is long, and the answer need not wait for it: the first run's pieces go
 * to the reading helpers at once, and this thread reads once this job is answered.
 */
async function readParts(runs: Run[]): Promise<IndexPart[]> {
  const parts: IndexPart[] = [];
  for (const [k, run] of runs.entries()) {
    const handedOut = handOutPieces(run);
    if (k === 0) await afterAnswering();
    parts.push({ source: run.source, ...(await readHandedOut(handedOut)) });
  }
  return parts;
}

/** About what a part holds in memory: its strings (two bytes a character), its sentences' bytes and its numbers. */
function weight(part: IndexPart): number {
  const chars = [part.vocabulary, part.keys].reduce((sum, list) => list.reduce((total, text) => total + text.length, sum), 0);
  const numbers = part.sectionStart.length + part.sentences.starts.length + part.keyTerms.length + part.keyTermStart.length + part.sentenceTerms.length + part.sentenceTermStart.length;
  return 2 * chars + part.sentences.bytes.byteLength + 4 * numbers;
}

function packed(parts: IndexPart[][]) {
  const bytes = packIndex(mergeIndexParts(parts.flat()));
  return { result: bytes, transfer: [bytes.buffer] };
}

/** A run of a material's chunks, with the chunks' name. */
type ChunkRun = { source: string | undefined; chunks: string[]; chunksId: string | undefined };

/** Materials arriving in slices (training-jobs.ts), by number, until their index is asked for: their runs of chunks of one source, with the chunks' name. */
const arriving = new Map<number, ChunkRun[]>();

answerJobs<TrainingJob>(async (job) => {
  if (job.task === 'chunk') return { result: chunkText(job.text) };
  if (job.task === 'chunk-sources') {
    // The index of these chunks is asked for next, once the event loop has stored them: the texts
    // are read meanwhile, so that the two overlap, and reading, which takes longest, starts first (a
    // large text's pieces go to the reading helpers before its chunks are packed here). Chunks and
    // blocks are made from the same passages, found once.
    const passages = job.texts.map(({ text }) => chunkPassages(text));
    partsOf(job.chunksId, runsOfTexts(job.texts, passages)).catch(() => {});
    return { result: passages.map((list) => packTexts(packChunks(list))) };
  }
  if (job.task === 'vectors') {
    const table = readVectorTable();
    return { result: table, transfer: [table.values.buffer] };
  }
  if (job.task === 'kept-index') {
    const known = job.chunksIds.map(readingOf);
    if (known.some((parts) => parts === undefined)) return { result: undefined };
    return packed(await Promise.all(known as Promise<IndexPart[]>[]));
  }
  if (job.task === 'material') {
    const runs = arriving.get(job.material) ?? [];
    const last = runs.at(-1);
    const texts = unpackTexts(job.texts);
    if (last && last.source === job.source && last.chunksId === job.chunksId) for (const text of texts) last.chunks.push(text);
    else runs.push({ source: job.source, chunksId: job.chunksId, chunks: texts });
    arriving.set(job.material, runs);
    return { result: undefined };
  }
  const runs = arriving.get(job.material) ?? [];
  arriving.delete(job.material);
  // Slices posted to a worker that died since are lost with it: no index of part of a material.
  if (runs.reduce((sum, run) => sum + run.chunks.length, 0) !== job.count) throw new Error(`material ${job.material} arrived incomplete`);
  return packed(await Promise.all(byName(runs).map(({ chunksId, runs: named }) => partsOf(chunksId, named))));
});

/** The runs runsBySource finds in the texts' chunks, each with the blocks of the texts' passages. */
function runsOfTexts(texts: SourceText[], passages: string[][]): Run[] {
  const runs: { source: string; blocks: string[] }[] = [];
  texts.forEach(({ ref }, k) => {
    const own = passages[k] as string[];
    // A text of nothing but white space makes no chunk.
    if (own.length === 0) return;
    const source = JSON.stringify(ref);
    const blocks = passageBlocks(own);
    const last = runs.at(-1);
    if (last?.source === source) for (const block of blocks) last.blocks.push(block);
    else runs.push({ source, blocks });
  });
  return runs;
}

/** Consecutive runs of the same chunks' name together (each unnamed run on its own). */
function byName(runs: ChunkRun[]): { chunksId: string | undefined; runs: Run[] }[] {
  const named: { chunksId: string | undefined; runs: Run[] }[] = [];
  for (const { chunksId, source, chunks } of runs) {
    const last = named.at(-1);
    if (chunksId !== undefined && last?.chunksId === chunksId) last.runs.push({ source, chunks });
    else named.push({ chunksId, runs: [{ source, chunks }] });
  }
  return named;
}
