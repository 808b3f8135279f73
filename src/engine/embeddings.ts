import { createHash } from 'node:crypto';
import type { Chunk, Store } from '../store/port.js';

// Chunk vectors for semantic retrieval. A chunk is embedded once per text: vectors are stored by
// the hash of the chunk's text, so a retrain embeds only the chunks that changed, and an
// interrupted run resumes where it stopped (every batch is saved as it arrives).

/** An embedding model, as configured in MODEL_PROVIDERS (see providers/embedder.ts). */
export type Embedder = {
  /** The provider's model name: vectors of different models are never mixed. */
  model: string;
  /** Retried patiently: it runs outside any request. */
  embedChunks(texts: string[]): Promise<Float32Array[]>;
  /** One try: a chat waits for it. */
  embedQuestion(text: string): Promise<Float32Array>;
};

/** The chunks' unit vectors, one row of `dimensions` numbers per chunk, in chunk order. */
export type VectorTable = { rows: Float32Array; dimensions: number };

const BATCH = 64;

export const contentHash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Embeds the chunks that have no stored vector yet, in batches, and answers all their vectors. */
export async function embedChunks(
  store: Store,
  embedder: Embedder,
  chatbotId: string,
  chunks: Chunk[],
): Promise<VectorTable> {
  const known = new Map(
    (await store.retrieval.vectors(chatbotId, embedder.model)).map(({ hash, vector }) => [hash, vector]),
  );
  const hashes = chunks.map((chunk) => contentHash(chunk.text));
  const missing = [...new Map(chunks.map((chunk, i) => [hashes[i] ?? '', chunk.text])).entries()].filter(
    ([hash]) => !known.has(hash),
  );
  for (let start = 0; start < missing.length; start += BATCH) {
    const batch = missing.slice(start, start + BATCH);
    const vectors = await embedder.embedChunks(batch.map(([, text]) => text));
    const stored = batch.map(([hash], i) => ({ hash, vector: vectors[i] ?? new Float32Array() }));
    await store.retrieval.saveVectors(chatbotId, embedder.model, stored);
    for (const { hash, vector } of stored) known.set(hash, vector);
  }
  return vectorTable(hashes.map((hash) => known.get(hash) ?? new Float32Array()));
}

function vectorTable(vectors: Float32Array[]): VectorTable {
  const dimensions = vectors[0]?.length ?? 0;
  const rows = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, i) => rows.set(normalized(vector), i * dimensions));
  return { rows, dimensions };
}

/** Unit length, so that cosine similarity is a dot product. */
export function normalized(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return vector.map((value) => value / norm);
}

/** Chunk positions by cosine similarity to the (unit) query vector, best first. */
export function nearestChunks(table: VectorTable, query: Float32Array, limit: number): number[] {
  const { rows, dimensions } = table;
  if (dimensions === 0 || query.length !== dimensions) return [];
  const scored: { seq: number; similarity: number }[] = [];
  for (let seq = 0; seq * dimensions < rows.length; seq += 1) {
    let similarity = 0;
    for (let d = 0; d < dimensions; d += 1) similarity += (rows[seq * dimensions + d] ?? 0) * (query[d] ?? 0);
    scored.push({ seq, similarity });
  }
  return scored
    .sort((a, b) => b.similarity - a.similarity || a.seq - b.seq)
    .slice(0, limit)
    .map((hit) => hit.seq);
}
