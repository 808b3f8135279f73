import { randomUUID } from 'node:crypto';
import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import { placeRuns } from '../material-runs.js';
import { apiTextSourceId, type Chunk, type CurrentRuns, type MaterialRun, type SourceChunk, type SourceRef, type TrainingRepository } from '../port.js';
import { partsOf } from '../text-parts.js';
import type { SqliteSourceTexts } from './source-texts.js';
import { deleteInStages, inStages } from './staging.js';
import { chunksOfPage, PAGE_BYTES, PAGE_CHUNKS, pageEnd, pagesOf, sourceDecoder, type PageChunk, type TrainingPage } from './training-pages.js';

// A retrain writes the new material in stages under a fresh version (see staging.ts), then one
// short transaction makes that version current and only then is the version it displaced deleted,
// again in stages. Readers follow the version training_sources names, so they see the old material
// or the new, never a mix. training_stages names the versions being written, so that a repair
// after a crash can tell a version in flight from debris. training_sources also holds the current
// version's runs (material-runs.ts), as JSON: they are made current with it in one write. The
// chunks are kept in pages (training-pages.ts), written one a transaction and read a page's worth
// at a time.

export function sqliteTraining(db: Database, sourceTexts: SqliteSourceTexts) {
  const beginStage = db.prepare('INSERT INTO training_stages (chatbot_id, version, started_at) VALUES (?, ?, ?)');
  const endStage = db.prepare('DELETE FROM training_stages WHERE chatbot_id = ? AND version = ?');
  const insertPage = db.prepare('INSERT INTO training_pages (chatbot_id, version, first_seq, text, offsets, source) VALUES (?, ?, ?, ?, ?, ?)');
  const insertSourcePart = db.prepare('INSERT INTO training_source_parts (chatbot_id, version, part, text) VALUES (?, ?, ?, ?)');
  const setVersion = db.prepare(
    `INSERT INTO training_sources (chatbot_id, version, runs) VALUES (?, ?, ?)
     ON CONFLICT (chatbot_id) DO UPDATE SET version = excluded.version, runs = excluded.runs`,
  );
  const setRevision = db.prepare(
    `INSERT INTO training_revisions (chatbot_id, revision) VALUES (?, ?)
     ON CONFLICT (chatbot_id) DO UPDATE SET revision = excluded.revision`,
  );
  const version = db.prepare<[string], { version: string; revision: number | null }>(
    `SELECT source.version, revision.revision FROM training_sources source
     LEFT JOIN training_revisions revision ON revision.chatbot_id = source.chatbot_id
     WHERE source.chatbot_id = ?`,
  );
  const runs = db.prepare<[string], { version: string; revision: number | null; runs: string | null }>(
    `SELECT source.version, revision.revision, source.runs FROM training_sources source
     LEFT JOIN training_revisions revision ON revision.chatbot_id = source.chatbot_id
     WHERE source.chatbot_id = ?`,
  );
  // The page holding seq `start` (the last to begin at or before it) and those after, up to `end`.
  const pagesFrom = db.prepare<{ chatbotId: string; version: string; start: number; end: number }, TrainingPage>(
    `SELECT first_seq AS firstSeq, text, offsets, source FROM training_pages
     WHERE chatbot_id = @chatbotId AND version = @version AND first_seq < @end
       AND first_seq >= coalesce((SELECT max(first_seq) FROM training_pages
                                  WHERE chatbot_id = @chatbotId AND version = @version AND first_seq <= @start), @start)
     ORDER BY first_seq`,
  );
  const sourceParts = db.prepare<[string], { text: string }>(
    `SELECT part.text FROM training_source_parts part
     JOIN training_sources source ON source.chatbot_id = part.chatbot_id AND source.version = part.version
     WHERE part.chatbot_id = ? ORDER BY part.part`,
  );
  // The pages that begin within PAGE_CHUNKS seqs of the version's first left: a page or two of
  // about a megabyte at most, or as many chunks of migrated pages of one.
  const deleteFirstPages = db.prepare<{ chatbotId: string; version: string; chunks: number }>(
    `DELETE FROM training_pages WHERE chatbot_id = @chatbotId AND version = @version
       AND first_seq < (SELECT min(first_seq) FROM training_pages WHERE chatbot_id = @chatbotId AND version = @version) + @chunks`,
  );
  const deleteSourceParts = db.prepare(
    `DELETE FROM training_source_parts WHERE rowid IN
     (SELECT rowid FROM training_source_parts WHERE chatbot_id = ? AND version = ? LIMIT ?)`,
  );
  // Versions with rows that are neither current nor being written (a stage younger than the grace).
  const debris = db.prepare<[number], { chatbot_id: string; version: string }>(
    `SELECT DISTINCT kept.chatbot_id, kept.version
     FROM (SELECT chatbot_id, version FROM training_pages UNION SELECT chatbot_id, version FROM training_source_parts) AS kept
     LEFT JOIN training_sources source ON source.chatbot_id = kept.chatbot_id
     WHERE source.version IS NOT kept.version
       AND NOT EXISTS (SELECT 1 FROM training_stages stage
                       WHERE stage.chatbot_id = kept.chatbot_id AND stage.version = kept.version AND stage.started_at > ?)`,
  );
  const staleStages = db.prepare('DELETE FROM training_stages WHERE started_at <= ?');

  /**
   * Makes `staged` current unless material of `revision` or later is; answers the version that is
   * to be deleted: the one displaced, or `staged` itself when refused.
   */
  const makeCurrent = db.transaction((chatbotId: string, staged: string, revision: number | undefined, placed: string | null) => {
    const previous = version.get(chatbotId);
    endStage.run(chatbotId, staged);
    if (revision !== undefined && (previous?.revision ?? 0) >= revision) return { current: false, remove: staged };
    setVersion.run(chatbotId, staged, placed);
    if (revision !== undefined) setRevision.run(chatbotId, revision);
    return { current: true, remove: previous?.version };
  });
  async function removeVersion(chatbotId: string, removed: string): Promise<number> {
    const rows = (await deletePagesInStages(chatbotId, removed)) + (await deleteInStages(deleteSourceParts, [chatbotId, removed], 1));
    endStage.run(chatbotId, removed);
    return rows;
  }
  async function deletePagesInStages(chatbotId: string, removed: string): Promise<number> {
    for (let deleted = 0; ; await betweenRequests()) {
      const { changes } = deleteFirstPages.run({ chatbotId, version: removed, chunks: PAGE_CHUNKS });
      if (changes === 0) return deleted;
      deleted += changes;
    }
  }
  /**
   * The chunks of `version` from seq `start` up to `end`, about a page's worth at a time (PAGE_CHUNKS
   * or PAGE_BYTES) with other requests served between (a version's pages never change: the
   * caller checks it is still current after); pages of one chunk (migrated ones) many at a time.
   */
  async function readChunks<T>(chatbotId: string, current: string, start: number, end: number, as: (chunk: PageChunk, source: SourceRef | null) => T): Promise<T[]> {
    const read: T[] = [];
    const refOf = sourceDecoder();
    for (let from = start; ; ) {
      let next: number | undefined;
      let [chunks, bytes] = [0, 0];
      for (const page of pagesFrom.iterate({ chatbotId, version: current, start: from, end })) {
        const source = refOf(page.source);
        const inRange = chunksOfPage(page, from, end);
        for (const chunk of inRange) read.push(as(chunk, source));
        chunks += inRange.length;
        bytes += page.text.length;
        if (chunks >= PAGE_CHUNKS || bytes >= PAGE_BYTES) {
          next = pageEnd(page);
          break;
        }
      }
      if (next === undefined || next >= end) return read;
      from = next;
      await betweenRequests();
    }
  }

  /** The current version, the revision it was trained from and its runs: none for material trained before runs were recorded. */
  function currentRuns(chatbotId: string): CurrentRuns {
    const current = runs.get(chatbotId);
    return {
      version: current?.version,
      revision: current?.revision ?? undefined,
      runs: current?.runs ? (JSON.parse(current.runs) as MaterialRun[]) : [],
    };
  }

  return {
    async replace(chatbotId, { sourceText, chunks, revision, runs: sourceRuns }) {
      const staged = randomUUID();
      beginStage.run(chatbotId, staged, Date.now());
      try {
        await inStages(
          pagesOf(chunks),
          (pages) => pages.forEach(({ firstSeq, text, offsets, source }) => insertPage.run(chatbotId, staged, firstSeq, text, offsets, source)),
          1,
        );
        if (sourceText !== undefined) {
          await inStages(partsOf(sourceText), ([text], part) => insertSourcePart.run(chatbotId, staged, part, text), 1);
        }
      } catch (error) {
        await removeVersion(chatbotId, staged);
        throw error;
      }
      const placed = sourceRuns ? JSON.stringify(placeRuns(sourceRuns)) : null;
      const { current, remove } = makeCurrent.immediate(chatbotId, staged, revision, placed);
      if (remove !== undefined) await removeVersion(chatbotId, remove);
      return current;
    },
    async material(chatbotId) {
      // A version's rows are deleted only once it is displaced: if it is still current after the
      // last page, no page missed a row; otherwise a retrain landed meanwhile, and its version is
      // read instead.
      for (let current = version.get(chatbotId)?.version; ; ) {
        if (current === undefined) return { version: undefined, chunks: [] };
        const read = await readChunks(chatbotId, current, 0, Number.MAX_SAFE_INTEGER, toChunk);
        const after = version.get(chatbotId)?.version;
        if (after === current) return { version: current, chunks: read };
        current = after;
      }
    },
    async version(chatbotId) {
      return version.get(chatbotId)?.version;
    },
    async sourceText(chatbotId) {
      const apiText = await sourceTexts.read(chatbotId, apiTextSourceId(chatbotId), Number.MAX_SAFE_INTEGER);
      if (apiText !== undefined) return apiText;
      const parts = sourceParts.all(chatbotId);
      if (parts.length > 0) return parts.map((part) => part.text).join('');
      return version.get(chatbotId) ? '' : undefined;
    },
    async runs(chatbotId) {
      return currentRuns(chatbotId);
    },
    currentRuns,
    /** The chunks of a run of `version`: the caller checks the version is still current after. */
    async readRun(chatbotId: string, current: string, { start, end }: MaterialRun): Promise<SourceChunk[]> {
      // A run's chunks are of sources (material-runs.ts): their pages name one.
      return readChunks(chatbotId, current, start, end, ({ text }, source) => ({ text, source: source as SourceRef }));
    },
    /**
     * Removes what a crash left: versions never made current (staged before `stagedBefore`, in ms)
     * and displaced ones not yet deleted. Answers the rows removed.
     */
    async removeDebris(stagedBefore: number): Promise<number> {
      let removed = 0;
      for (const { chatbot_id: chatbotId, version: stale } of debris.all(stagedBefore)) {
        removed += await removeVersion(chatbotId, stale);
      }
      staleStages.run(stagedBefore);
      return removed;
    },
  } satisfies TrainingRepository & SqliteMaterialRuns & { removeDebris(stagedBefore: number): Promise<number> };
}

/** What the sources' trainedSources reads of the material (material-runs.ts). */
export type SqliteMaterialRuns = Pick<TrainingRepository, 'version'> & {
  currentRuns(chatbotId: string): CurrentRuns;
  readRun(chatbotId: string, version: string, run: MaterialRun): Promise<SourceChunk[]>;
};

function toChunk({ seq, text }: PageChunk, source: SourceRef | null): Chunk {
  return source === null ? { seq, text } : { seq, text, source };
}
