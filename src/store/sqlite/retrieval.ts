import type { Database } from 'better-sqlite3';
import type { RetrievalRepository, StoredVector } from '../port.js';
import { bytesToVector, vectorToBytes } from '../vector-bytes.js';

export function sqliteRetrieval(db: Database): RetrievalRepository {
  const index = db.prepare<[string, string], { data: Buffer }>(
    'SELECT data FROM retrieval_indexes WHERE chatbot_id = ? AND version = ?',
  );
  const saveIndex = db.prepare(
    `INSERT INTO retrieval_indexes (chatbot_id, version, data) VALUES (?, ?, ?)
     ON CONFLICT (chatbot_id) DO UPDATE SET version = excluded.version, data = excluded.data`,
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
      const row = index.get(chatbotId, version);
      return row && new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    },
    async saveIndex(chatbotId, version, data) {
      saveIndex.run(chatbotId, version, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
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
