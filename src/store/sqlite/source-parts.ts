import { randomUUID } from 'node:crypto';
import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { VersionParts } from '../text-parts.js';
import { deleteInStages, inStages } from './staging.js';

// A value of a source too large for one short write (its text, a file's bytes) is kept in parts.
// A new value is written part by part, each in a transaction of its own, under a fresh version;
// the write of the source's row that names that version makes it current in one step, and only
// then are the parts of the version it displaced deleted, again in stages. Readers follow the
// row's version, so they see the old value or the new, never parts of both. source_part_stages
// names the versions being written, so that the repair after a crash can tell a version in flight from
// debris. A part is written before its source's row exists, so it names its chatbot (for the
// cascade), not its source.

/** Where each kind of value is kept: its parts' table and value column, and the sources column naming its current version. */
const KINDS = {
  text: { parts: 'source_text_parts', value: 'text', version: 'text_version' },
  file: { parts: 'source_file_parts', value: 'data', version: 'file_version' },
} as const;

export function sqliteSourceParts<Part extends string | Buffer>(db: Database, kind: keyof typeof KINDS) {
  const { parts, value, version } = KINDS[kind];
  // Versions are unique, so the stages of every kind share a table.
  const stages = 'source_part_stages';
  const beginStage = db.prepare(`INSERT INTO ${stages} (source_id, version, started_at) VALUES (?, ?, ?)`);
  const endStage = db.prepare(`DELETE FROM ${stages} WHERE source_id = ? AND version = ?`);
  const insertPart = db.prepare(`INSERT INTO ${parts} (chatbot_id, source_id, version, part, ${value}) VALUES (?, ?, ?, ?, ?)`);
  const current = db.prepare<[string, string], { version: string | null }>(`SELECT ${version} AS version FROM sources WHERE chatbot_id = ? AND id = ?`);
  // substr counts characters of a text (so it may give more UTF-16 code units than asked, never
  // fewer) and bytes of a blob.
  const partStart = db.prepare<[number, string, string, number], { value: Part }>(
    `SELECT substr(${value}, 1, ?) AS value FROM ${parts} WHERE source_id = ? AND version = ? AND part = ?`,
  );
  const deleteParts = db.prepare(
    `DELETE FROM ${parts} WHERE rowid IN (SELECT rowid FROM ${parts} WHERE source_id = ? AND version = ? LIMIT ?)`,
  );
  // Versions neither current nor being written (a stage younger than the grace): abandoned
  // writes, displaced values not yet deleted, and the values of deleted sources.
  const debris = db.prepare<[number], { source_id: string; version: string }>(
    `SELECT DISTINCT part.source_id, part.version FROM ${parts} part
     LEFT JOIN sources source ON source.id = part.source_id
     WHERE source.${version} IS NOT part.version
       AND NOT EXISTS (SELECT 1 FROM ${stages} stage
                       WHERE stage.source_id = part.source_id AND stage.version = part.version AND stage.started_at > ?)`,
  );
  const staleStages = db.prepare(`DELETE FROM ${stages} WHERE started_at <= ?`);

  async function remove(sourceId: string, staged: string | null): Promise<number> {
    if (staged === null) return 0;
    const rows = await deleteInStages(deleteParts, [sourceId, staged], 1);
    endStage.run(sourceId, staged);
    return rows;
  }

  return {
    /**
     * Writes `values` as the parts of a fresh version, one transaction each, other requests
     * served between them, and answers the version. It stays staged until a write of the
     * source's row makes it current and calls `madeCurrent`, or `remove` drops it.
     */
    async write(chatbotId: string, sourceId: string, values: readonly Part[]): Promise<string> {
      const staged = randomUUID();
      beginStage.run(sourceId, staged, Date.now());
      try {
        await inStages(values, ([part], index) => insertPart.run(chatbotId, sourceId, staged, index, part), 1);
      } catch (error) {
        await remove(sourceId, staged);
        throw error;
      }
      return staged;
    },
    /** Ends the stage of a version that became current: called in the transaction that makes it so. */
    madeCurrent(sourceId: string, staged: string | null): void {
      if (staged !== null) endStage.run(sourceId, staged);
    },
    /** Deletes a version's parts in stages: one displaced, or one that never became current. */
    remove,
    /** The source's current version and its parts, other requests served between parts. */
    of(chatbotId: string, sourceId: string): VersionParts<Part> {
      return {
        current: async () => {
          const row = current.get(chatbotId, sourceId);
          return row ? row.version : undefined;
        },
        async part(staged, index, size) {
          if (index > 0) await betweenRequests();
          return partStart.get(size, sourceId, staged, index)?.value;
        },
      };
    },
    /** Removes what a crash or a deletion left (staged before `stagedBefore`, in ms); answers the rows removed. */
    async removeDebris(stagedBefore: number): Promise<number> {
      let removed = 0;
      for (const { source_id: sourceId, version: stale } of debris.all(stagedBefore)) removed += await remove(sourceId, stale);
      staleStages.run(stagedBefore);
      return removed;
    },
  };
}
