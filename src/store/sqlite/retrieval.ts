import type { Database } from 'better-sqlite3';
import type { RetrievalRepository, StoredVector } from '../port.js';
import { bytesToVector, vectorToBytes } from '../vector-bytes.js';

// Parts small enough that reading one is a pause of a millisecond or two.
const PART_BYTES = 1024 * 1024;

export function sqliteRetrieval(db: Database): RetrievalRepository {
  const indexVersion = db.prepare<[string], { version: string }>('SELECT version FROM retrieval_indexes WHERE chatbot_id = ?');
  const indexSize = db.prepare<[string], { parts: number; bytes: number | null }>(
    'SELECT COUNT(*) AS parts, SUM(length(data)) AS bytes FROM retrieval_index_parts WHERE chatbot_id = ?',
  );
  const indexPart = db.prepare<[string, number], { data: Buffer }>(
    'SELECT data FROM retrieval_index_parts WHERE chatbot_id = ? AND part = ?',
  );
  const saveVersion = db.prepare(
    `INSERT INTO retrieval_indexes (chatbot_id, version, data) VALUES (?, ?, x'')
     ON CONFLICT (chatbot_id) DO UPDATE SET version = excluded.version`,
  );
  const removeParts = db.prepare('DELETE FROM retrieval_index_parts WHERE chatbot_id = ?');
  const insertPart = db.prepare('INSERT INTO retrieval_index_parts (chatbot_id, part, data) VALUES (?, ?, ?)');
  const saveIndex = db.transaction((chatbotId: string, version: string, data: Uint8Array) => {
    saveVersion.run(chatbotId, version);
    removeParts.run(chatbotId);
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    for (let part = 0; part * PART_BYTES < bytes.byteLength || part === 0; part += 1) {
      insertPart.run(chatbotId, part, bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES));
    }
  });
  /** The stored index's bytes if it is still of this version (a save is one transaction). */
  const isOf = (chatbotId: string, version: string) => indexVersion.get(chatbotId)?.version === version;
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
      if (!isOf(chatbotId, version)) return undefined;
      const { parts, bytes } = indexSize.get(chatbotId) ?? { parts: 0, bytes: 0 };
      const data = new Uint8Array(bytes ?? 0);
      for (let part = 0, offset = 0; part < parts; part += 1) {
        // Other requests are served between the parts.
        if (part > 0) await new Promise(setImmediate);
        const piece = indexPart.get(chatbotId, part)?.data;
        if (!piece || offset + piece.byteLength > data.byteLength) return undefined;
        data.set(piece, offset);
        offset += piece.byteLength;
      }
      // A save meanwhile (another process) replaced the parts: what was read is no index.
      return parts > 0 && isOf(chatbotId, version) ? data : undefined;
    },
    async saveIndex(chatbotId, version, data) {
      saveIndex.immediate(chatbotId, version, data);
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
  };
}
