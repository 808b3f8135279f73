import type { SourceRef, TrainedChunk } from '../port.js';

// A material's chunks are kept in pages (training_pages), not a row each: a 10 MB source is about
// 14,500 chunks, and writing as many rows cost the event loop three to four times what writing
// them as fifteen pages does. A page holds consecutive chunks of one source: the seq of its first,
// their texts in UTF-8 one after another in one BLOB (cheaper to write and to read back than one
// TEXT), where each chunk after the first starts (byte offsets into it, as little-endian 32-bit
// integers) and the source's JSON once. The last chunk runs to the BLOB's end, so a page of one
// chunk (as a migration makes) has no offsets.

/** Chunks of a page at most: written in one short transaction, read in one step. */
export const PAGE_CHUNKS = 1024;

/** UTF-8 bytes of a page, about: a page is closed once it holds this many. */
export const PAGE_BYTES = 1024 * 1024;

const OFFSET_BYTES = 4;

export type TrainingPage = { firstSeq: number; text: Buffer; offsets: Buffer; source: string | null };

export type PageChunk = { seq: number; text: string };

/**
 * The chunks in pages: consecutive ones of the same source, up to PAGE_CHUNKS or about PAGE_BYTES.
 * Each page is made (its chunks encoded) as it is asked for, so that writing pages one at a time
 * never holds the event loop for all of them: a 10 MB source's fifteen took 15–30 ms at once.
 */
export function* pagesOf(chunks: readonly TrainedChunk[]): Generator<TrainingPage> {
  // A source's chunks share its object: written as JSON once each time it changes, not once a chunk.
  let ref: SourceRef | undefined;
  let source: string | null = null;
  let texts: string[] = [];
  let bytes = 0;
  let firstSeq = 0;
  for (const chunk of chunks) {
    const { text, source: chunkRef } = typeof chunk === 'string' ? { text: chunk, source: undefined } : chunk;
    let json: string | null = source;
    if (chunkRef !== ref) {
      ref = chunkRef;
      json = chunkRef ? JSON.stringify(chunkRef) : null;
    }
    if (texts.length > 0 && (json !== source || texts.length === PAGE_CHUNKS || bytes >= PAGE_BYTES)) {
      yield pageOf(firstSeq, texts, bytes, source);
      firstSeq += texts.length;
      texts = [];
      bytes = 0;
    }
    source = json;
    texts.push(text);
    bytes += Buffer.byteLength(text);
  }
  if (texts.length > 0) yield pageOf(firstSeq, texts, bytes, source);
}

function pageOf(firstSeq: number, texts: readonly string[], bytes: number, source: string | null): TrainingPage {
  const text = Buffer.allocUnsafe(bytes);
  const offsets = Buffer.allocUnsafe((texts.length - 1) * OFFSET_BYTES);
  let at = 0;
  texts.forEach((chunk, index) => {
    if (index > 0) offsets.writeUInt32LE(at, (index - 1) * OFFSET_BYTES);
    at += text.write(chunk, at);
  });
  return { firstSeq, text, offsets, source };
}

/** The seq after the page's last chunk. */
export function pageEnd({ firstSeq, offsets }: TrainingPage): number {
  return firstSeq + offsets.length / OFFSET_BYTES + 1;
}

/** The chunks of a page, from seq `start` up to `end`. */
export function chunksOfPage(page: TrainingPage, start: number, end: number): PageChunk[] {
  const { firstSeq, text, offsets } = page;
  const count = pageEnd(page) - firstSeq;
  const from = Math.max(start - firstSeq, 0);
  const to = Math.min(end - firstSeq, count);
  const chunks: PageChunk[] = [];
  for (let index = from; index < to; index += 1) {
    const begin = index === 0 ? 0 : offsets.readUInt32LE((index - 1) * OFFSET_BYTES);
    const finish = index === count - 1 ? text.length : offsets.readUInt32LE(index * OFFSET_BYTES);
    chunks.push({ seq: firstSeq + index, text: text.toString('utf8', begin, finish) });
  }
  return chunks;
}

/** Decodes a page's source JSON (null for none), each distinct one once: a material names a handful of sources, or a website's pages. */
export function sourceDecoder(): (source: string | null) => SourceRef | null {
  const refs = new Map<string, SourceRef>();
  return (source) => {
    if (source === null) return null;
    const ref = refs.get(source) ?? (JSON.parse(source) as SourceRef);
    refs.set(source, ref);
    return ref;
  };
}
