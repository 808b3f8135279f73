import { answerJobs } from '../../worker-thread.js';
import { chunkText } from '../chunking.js';
import { createByteCache } from '../index-cache.js';
import { packIndex } from '../index-layout.js';
import { indexPart, mergeIndexParts, type IndexPart } from '../index-parts.js';
import { readVectorTable } from '../word-vectors.js';
import { packTexts, unpackTexts } from './packed-texts.js';
import { readSourceInHalves, startReadingHelper } from './read-in-halves.js';
import type { TrainingJob } from './training-jobs.js';

// The thread that does training's CPU-heavy work, so the server's event loop never waits on it.
// The index comes back packed (index-layout.ts) in a transferred buffer: its length is the size
// the cache counts, and the same bytes are what the store keeps. The parts of the indexes it
// built (each source read, index-parts.ts) are kept, by their source and text, within a budget:
// a change to one source of a large chatbot reads that source alone again. A large source is read
// in halves on two threads (read-in-halves.ts).

const PARTS_BUDGET_BYTES = 256 * 1024 * 1024;
const parts = createByteCache<KeptPart>(PARTS_BUDGET_BYTES);
/** Parts being read. */
const reading = new Map<string, KeptPart>();
startReadingHelper();

type KeptPart = { texts: string[]; part: Promise<IndexPart> };

/**
 * The source's part, read once for these texts: looked up by the source and the texts' number and
 * length, and kept with the texts, which a lookup compares (a tenth of what hashing them cost). A
 * part is kept from the start of its reading, so that a job arriving meanwhile waits for it.
 */
function partOf(source: string | undefined, texts: string[]): Promise<IndexPart> {
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  const key = `${texts.length}:${chars}:${source ?? ''}`;
  const known = reading.get(key) ?? parts.get(key);
  // The key holds their number: the same texts are the same at each place.
  if (known?.texts.every((text, k) => text === texts[k])) return known.part;
  const part = readPart(source, texts);
  const keeping = { texts, part };
  reading.set(key, keeping);
  const kept = (read?: IndexPart) => {
    if (reading.get(key) !== keeping) return;
    reading.delete(key);
    if (read) parts.set(key, keeping, weight(read) + 2 * chars);
  };
  part.then(kept, () => kept());
  return part;
}

async function readPart(source: string | undefined, texts: string[]): Promise<IndexPart> {
  const { sections, terms } = await readSourceInHalves(texts);
  return indexPart(source, sections, terms);
}

/** About what a part holds in memory: its strings (two bytes a character) and its numbers. */
function weight(part: IndexPart): number {
  const chars = [part.vocabulary, part.keys, part.sentences].reduce((sum, list) => list.reduce((total, text) => total + text.length, sum), 0);
  const numbers = part.sectionStart.length + part.keyTerms.length + part.keyTermStart.length + part.sentenceTerms.length + part.sentenceTermStart.length;
  return 2 * chars + 4 * numbers;
}

/** Materials arriving in slices (training-jobs.ts), by number, until their index is asked for: their runs of chunks of one source. */
const arriving = new Map<number, { source: string | undefined; texts: string[] }[]>();

answerJobs<TrainingJob>(async (job) => {
  if (job.task === 'chunk') return { result: chunkText(job.text) };
  if (job.task === 'chunk-sources') {
    const chunked = job.texts.map(({ text }) => chunkText(text));
    // The index of these chunks is asked for next, once the event loop has stored them: their
    // parts are read meanwhile, so that the two overlap (a job arriving meanwhile waits for this).
    setImmediate(() => job.texts.forEach(({ ref }, k) => partOf(JSON.stringify(ref), chunked[k] as string[]).catch(() => {})));
    return { result: chunked.map(packTexts) };
  }
  if (job.task === 'vectors') {
    const table = readVectorTable();
    return { result: table, transfer: [table.values.buffer] };
  }
  if (job.task === 'material') {
    const runs = arriving.get(job.material) ?? [];
    const last = runs.at(-1);
    const texts = unpackTexts(job.texts);
    if (last && last.source === job.source) for (const text of texts) last.texts.push(text);
    else runs.push({ source: job.source, texts });
    arriving.set(job.material, runs);
    return { result: undefined };
  }
  const runs = arriving.get(job.material) ?? [];
  arriving.delete(job.material);
  // Slices posted to a worker that died since are lost with it: no index of part of a material.
  if (runs.reduce((sum, run) => sum + run.texts.length, 0) !== job.count) throw new Error(`material ${job.material} arrived incomplete`);
  const bytes = packIndex(mergeIndexParts(await Promise.all(runs.map(({ source, texts }) => partOf(source, texts)))));
  return { result: bytes, transfer: [bytes.buffer] };
});
