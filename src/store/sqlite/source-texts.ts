import { randomUUID } from 'node:crypto';
import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import { partsOf, readParts } from '../text-parts.js';
import { deleteInStages, inStages } from './staging.js';

// A source's text (text, file and qa sources) is kept in parts (see text-parts.ts). A new text is
// written part by part, each in a transaction of its own, under a fresh version; the write of the
// source's row that sets its text_version makes it current in one step, and only then are the
// parts of the version it displaced deleted, again in stages. Readers follow text_version, so they
// see the old text or the new, never parts of both. source_text_stages names the versions being
// written, so that the repair after a crash can tell a version in flight from debris.

/** The source texts' parts, for the sources repository and the v1 source text. */
export type SqliteSourceTexts = ReturnType<typeof sqliteSourceTexts>;

export function sqliteSourceTexts(db: Database) {
  const beginStage = db.prepare('INSERT INTO source_text_stages (source_id, version, started_at) VALUES (?, ?, ?)');
  const endStage = db.prepare('DELETE FROM source_text_stages WHERE source_id = ? AND version = ?');
  const insertPart = db.prepare('INSERT INTO source_text_parts (chatbot_id, source_id, version, part, text) VALUES (?, ?, ?, ?, ?)');
  const current = db.prepare<[string, string], { text_version: string | null }>(
    'SELECT text_version FROM sources WHERE chatbot_id = ? AND id = ?',
  );
  // substr counts characters, so it may give more UTF-16 code units than asked, never fewer.
  const partStart = db.prepare<[number, string, string, number], { text: string }>(
    'SELECT substr(text, 1, ?) AS text FROM source_text_parts WHERE source_id = ? AND version = ? AND part = ?',
  );
  const deleteParts = db.prepare(
    `DELETE FROM source_text_parts WHERE rowid IN
     (SELECT rowid FROM source_text_parts WHERE source_id = ? AND version = ? LIMIT ?)`,
  );
  // Versions neither current nor being written (a stage younger than the grace): abandoned
  // writes, displaced texts not yet deleted, and the texts of deleted sources.
  const debris = db.prepare<[number], { source_id: string; version: string }>(
    `SELECT DISTINCT part.source_id, part.version FROM source_text_parts part
     LEFT JOIN sources source ON source.id = part.source_id
     WHERE source.text_version IS NOT part.version
       AND NOT EXISTS (SELECT 1 FROM source_text_stages stage
                       WHERE stage.source_id = part.source_id AND stage.version = part.version AND stage.started_at > ?)`,
  );
  const staleStages = db.prepare('DELETE FROM source_text_stages WHERE started_at <= ?');

  async function remove(sourceId: string, version: string | null): Promise<number> {
    if (version === null) return 0;
    const rows = await deleteInStages(deleteParts, [sourceId, version], 1);
    endStage.run(sourceId, version);
    return rows;
  }

  return {
    /**
     * Writes `text` in parts under a fresh version, other requests served between them, and
     * answers it (null for no text). It stays staged until a write of the source's row makes it
     * current and calls `madeCurrent`, or `remove` drops it.
     */
    async write(chatbotId: string, sourceId: string, text: string): Promise<string | null> {
      if (text === '') return null;
      const version = randomUUID();
      beginStage.run(sourceId, version, Date.now());
      try {
        await inStages(partsOf(text), ([part], index) => insertPart.run(chatbotId, sourceId, version, index, part), 1);
      } catch (error) {
        await remove(sourceId, version);
        throw error;
      }
      return version;
    },
    /** Ends the stage of a version that became current: called in the transaction that makes it so. */
    madeCurrent(sourceId: string, version: string | null): void {
      if (version !== null) endStage.run(sourceId, version);
    },
    /** Deletes a version's parts in stages: one displaced, or one that never became current. */
    remove,
    /** The first `limit` characters of the source's current text; undefined when there is no such source. */
    read(chatbotId: string, sourceId: string, limit: number): Promise<string | undefined> {
      return readParts(
        {
          current: async () => {
            const row = current.get(chatbotId, sourceId);
            return row ? row.text_version : undefined;
          },
          // Other requests are served between parts.
          async part(version, part, chars) {
            if (part > 0) await betweenRequests();
            return partStart.get(chars, sourceId, version, part)?.text;
          },
        },
        limit,
      );
    },
    /** Removes what a crash or a deletion left (staged before `stagedBefore`, in ms); answers the rows removed. */
    async removeDebris(stagedBefore: number): Promise<number> {
      let removed = 0;
      for (const { source_id: sourceId, version } of debris.all(stagedBefore)) removed += await remove(sourceId, version);
      staleStages.run(stagedBefore);
      return removed;
    },
  };
}
