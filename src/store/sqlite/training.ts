import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Chunk, TrainingMaterial, TrainingRepository } from '../port.js';

export function sqliteTraining(db: Database): TrainingRepository {
  const clearChunks = db.prepare('DELETE FROM training_chunks WHERE chatbot_id = ?');
  const insertChunk = db.prepare('INSERT INTO training_chunks (chatbot_id, seq, text) VALUES (?, ?, ?)');
  const upsertSource = db.prepare(
    `INSERT INTO training_sources (chatbot_id, source_text, version) VALUES (?, ?, ?)
     ON CONFLICT (chatbot_id) DO UPDATE SET source_text = excluded.source_text, version = excluded.version`,
  );
  const chunks = db.prepare<[string], Chunk>(
    'SELECT seq, text FROM training_chunks WHERE chatbot_id = ? ORDER BY seq',
  );
  const source = db.prepare<[string], { source_text: string }>(
    'SELECT source_text FROM training_sources WHERE chatbot_id = ?',
  );
  const version = db.prepare<[string], { version: string }>(
    'SELECT version FROM training_sources WHERE chatbot_id = ?',
  );

  // One transaction: other connections keep reading the old rows (WAL) until it commits.
  const replace = db.transaction((chatbotId: string, material: TrainingMaterial) => {
    clearChunks.run(chatbotId);
    material.chunks.forEach((text, seq) => insertChunk.run(chatbotId, seq, text));
    upsertSource.run(chatbotId, material.sourceText, randomUUID());
  });
  // A read transaction, so the version and the chunks come from the same commit.
  const material = db.transaction((chatbotId: string) => ({
    version: version.get(chatbotId)?.version,
    chunks: chunks.all(chatbotId),
  }));

  return {
    async replace(chatbotId, input) {
      replace.immediate(chatbotId, input);
    },
    async material(chatbotId) {
      return material.deferred(chatbotId);
    },
    async version(chatbotId) {
      return version.get(chatbotId)?.version;
    },
    async sourceText(chatbotId) {
      return source.get(chatbotId)?.source_text;
    },
  };
}
