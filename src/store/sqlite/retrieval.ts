import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { RetrievalRepository, StoredVector } from '../port.js';
import { bytesToVector, vectorToBytes } from '../vector-bytes.js';
import { deleteInStages, inStages } from './staging.js';

// Parts small enough that reading one is a pause of a millisecond or two.
const PART_BYTES = 1024 * 1024;

export function sqliteRetrieval(db: Database) {
  const indexVersion = db.prepare<[string], { version: string }>('SELECT version FROM retrieval_indexes WHERE chatbot_id = ?');
  const indexSize = db.prepare<[string, string], { parts: number; bytes: number | null }>(
    'SELECT COUNT(*) AS parts, SUM(length(data)) AS bytes FROM retrieval_index_parts WHERE chatbot_id = ? AND version = ?',
  );
  const indexPart = db.prepare<[string, string, number], { data: Buffer }>(
    'SELECT data FROM retrieval_index_parts WHERE chatbot_id = ? AND version = ? AND part = ?',
  );
  // Two processes may build and save the same version at once: the same bytes, so either wins.
  const savePart = db.prepare('INSERT OR REPLACE INTO retrieval_index_parts (chatbot_id, version, part, data) VALUES (?, ?, ?, ?)');
  const saveVersion = db.prepare(
    `INSERT INTO retrieval_indexes (chatbot_id, version, data) VALUES (?, ?, x'')
     ON CONFLICT (chatbot_id) DO UPDATE SET version = excluded.version`,
  );
  const removePart = db.prepare(
    `DELETE FROM retrieval_index_parts WHERE rowid IN
     (SELECT rowid FROM retrieval_index_parts WHERE chatbot_id = ? AND version = ? LIMIT ?)`,
  );
  /** Makes `version` the kept index; answers the version it displaced. */
  const keepVersion = db.transaction((chatbotId: string, version: string) => {
    const previous = indexVersion.get(chatbotId)?.version;
    saveVersion.run(chatbotId, version);
    return previous;
  });
  // Parts of an index that is not kept, of material that is no longer current: an index in
  // flight is always of the current material, so it is never taken for debris.
  const debris = db.prepare<[], { chatbot_id: string; version: string }>(
    `SELECT DISTINCT part.chatbot_id, part.version FROM retrieval_index_parts part
     LEFT JOIN retrieval_indexes kept ON kept.chatbot_id = part.chatbot_id
     LEFT JOIN training_sources source ON source.chatbot_id = part.chatbot_id
     WHERE kept.version IS NOT part.version AND source.version IS NOT part.version`,
  );
  const vectors = db.prepare<[string, string], { hash: string; vector: Buffer }>(
    'SELECT hash, vector FROM retrieval_vectors WHERE chatbot_id = ? AND model = ? ORDER BY hash',
  );
  const saveVector = db.prepare(
    `INSERT INTO retrieval_vectors (chatbot_id, hash, model, vector) VALUES (?, ?, ?, ?)
     ON CONFLICT (chatbot_id, hash, model) DO UPDATE SET vector = excluded.vector`,
  );
  const saveVectors = db.transaction((chatbotId: string, model: string, stored: StoredVector[]) => {
    for (const { hash, vector } of stored) saveVector.run(chatbotId, hash, model, vectorToBytes(vector));
  });
  // The hashes to keep go in as one JSON array, however many there are.
  const pruneVectors = db.prepare(
    'DELETE FROM retrieval_vectors WHERE chatbot_id = ? AND hash NOT IN (SELECT value FROM json_each(?))',
  );

  return {
    async index(chatbotId, version) {
      const { parts, bytes } = indexSize.get(chatbotId, version) ?? { parts: 0, bytes: 0 };
      if (parts === 0 || indexVersion.get(chatbotId)?.version !== version) return undefined;
      const data = new Uint8Array(bytes ?? 0);
      for (let part = 0, offset = 0; part < parts; part += 1) {
        // Other requests are served between the parts.
        if (part > 0) await betweenRequests();
        const piece = indexPart.get(chatbotId, version, part)?.data;
        // A newer save (in any process) deleted this version meanwhile: what was read is no index.
        if (!piece || offset + piece.byteLength > data.byteLength) return undefined;
        data.set(piece, offset);
        offset += piece.byteLength;
      }
      return data;
    },
    async saveIndex(chatbotId, version, data) {
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const parts = Array.from({ length: Math.max(1, Math.ceil(bytes.byteLength / PART_BYTES)) }, (_, part) =>
        bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES),
      );
      await inStages(parts, ([piece], part) => savePart.run(chatbotId, version, part, piece), 1);
      const previous = keepVersion.immediate(chatbotId, version);
      if (previous !== undefined && previous !== version) await deleteInStages(removePart, [chatbotId, previous], 1);
    },
    async vectors(chatbotId, model) {
      return vectors.all(chatbotId, model).map((row) => ({ hash: row.hash, vector: bytesToVector(row.vector) }));
    },
    async saveVectors(chatbotId, model, stored) {
      saveVectors.immediate(chatbotId, model, stored);
    },
    async pruneVectors(chatbotId, keep) {
      pruneVectors.run(chatbotId, JSON.stringify(keep));
    },
    /** Removes index parts a crash left behind (see `debris`); answers the rows removed. */
    async removeDebris(): Promise<number> {
      let removed = 0;
      for (const { chatbot_id: chatbotId, version } of debris.all()) removed += await deleteInStages(removePart, [chatbotId, version], 1);
      return removed;
    },
  } satisfies RetrievalRepository & { removeDebris(): Promise<number> };
}
