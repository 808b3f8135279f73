import type { Database } from 'better-sqlite3';
import type { Chunk, TrainingMaterial, TrainingRepository } from '../port.js';

export function sqliteTraining(db: Database): TrainingRepository {
  const clearChunks = db.prepare('DELETE FROM training_chunks WHERE chatbot_id = ?');
  const insertChunk = db.prepare('INSERT INTO training_chunks (chatbot_id, seq, text) VALUES (?, ?, ?)');
  const upsertSource = db.prepare(
    `INSERT INTO training_sources (chatbot_id, source_text) VALUES (?, ?)
     ON CONFLICT (chatbot_id) DO UPDATE SET source_text = excluded.source_text`,
  );
  const chunks = db.prepare<[string], Chunk>(
    'SELECT seq, text FROM training_chunks WHERE chatbot_id = ? ORDER BY seq',
  );
  const source = db.prepare<[string], { source_text: string }>(
    'SELECT source_text FROM training_sources WHERE chatbot_id = ?',
  );

  // One transaction: other connections keep reading the old rows (WAL) until it commits.
  const replace = db.transaction((chatbotId: string, material: TrainingMaterial) => {
    clearChunks.run(chatbotId);
    material.chunks.forEach((text, seq) => insertChunk.run(chatbotId, seq, text));
    upsertSource.run(chatbotId, material.sourceText);
  });

  return {
    async replace(chatbotId, material) {
      replace.immediate(chatbotId, material);
    },
    async chunks(chatbotId) {
      return chunks.all(chatbotId);
    },
    async sourceText(chatbotId) {
      return source.get(chatbotId)?.source_text;
    },
  };
}
