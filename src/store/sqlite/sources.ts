import type { Database } from 'better-sqlite3';
import { trainedFromMaterial } from '../material-runs.js';
import { sameQuestionKey } from '../same-question.js';
import {
  countedChars,
  isOverCharLimit,
  type NewSource,
  type OverCharLimit,
  type PageCounts,
  type QaExpectation,
  type Source,
  type SourceChange,
  type SourcePage,
  type SourcePageStatus,
  type SourceRepository,
  type SourceStatus,
  type SourceText,
  type SourceType,
} from '../port.js';
import type { SqliteSourceFiles } from './source-files.js';
import type { SqliteSourceTexts } from './source-texts.js';
import type { SqliteMaterialRuns } from './training.js';

// A chatbot's knowledge sources. A source's extracted text and a file's bytes are in parts under
// the versions its row names (source-texts.ts, source-files.ts; a website's text is in its pages'
// rows), so a list never reads either. A source's chunks are in the material (material-runs.ts).

type SourceRow = {
  id: string;
  chatbot_id: string;
  type: SourceType;
  title: string;
  status: SourceStatus;
  error: string | null;
  chars: number;
  filename: string | null;
  content_type: string | null;
  bytes: number | null;
  url: string | null;
  max_pages: number | null;
  pages_done: number | null;
  pages_failed: number | null;
  pages_total: number | null;
  question: string | null;
  answer: string | null;
  created_at: number;
  updated_at: number;
  text_version: string | null;
  file_version: string | null;
};

/** The versions of a source's text and file a write names or displaced: null for none, undefined for left as they were. */
type Versions = { text?: string | null; file?: string | null };

/** A source's row as a write left it, and the versions of its text and file that write displaced. */
type Written = { row: SourceRow; displaced: Versions };

/** A put's Written, with the revision of the text it stored. */
type WrittenAt = Written & { revision: number };

/** A correction's Written, and the other pairs of its question it deleted, with their versions. */
type Corrected = Written & { deleted: { id: string; versions: Versions }[] };

/** A qa source of the question a correction is of: its id and characters. */
type Asked = { id: string; chars: number };

const COLUMNS = `id, chatbot_id, type, title, status, error, chars, filename, content_type, bytes, url, max_pages,
  pages_done, pages_failed, pages_total, question, answer, created_at, updated_at, text_version, file_version`;
const PLACES = Array.from({ length: 21 }, () => '?').join(', ');
/** A new row's columns and values: the source's (rowValues), and the chatbot's revision it is created at (material-runs.ts). */
const NEW_ROW = `(${COLUMNS}, created_revision)
  VALUES (${PLACES}, (SELECT coalesce(max(revision), 0) FROM source_revisions WHERE chatbot_id = ?))`;

export function toSource(row: SourceRow): Source {
  const source: Source = {
    id: row.id,
    chatbotId: row.chatbot_id,
    type: row.type,
    title: row.title,
    status: row.status,
    error: row.error,
    chars: row.chars,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
  if (row.filename !== null) source.filename = row.filename;
  if (row.content_type !== null) source.contentType = row.content_type;
  if (row.bytes !== null) source.bytes = row.bytes;
  if (row.url !== null) source.url = row.url;
  if (row.max_pages !== null) source.maxPages = row.max_pages;
  if (row.pages_total !== null) {
    source.pages = { done: row.pages_done ?? 0, failed: row.pages_failed ?? 0, total: row.pages_total };
  }
  if (row.question !== null) source.question = row.question;
  if (row.answer !== null) source.answer = row.answer;
  return source;
}

/** The row of a source whose text and file are kept under `versions`, and its chatbot's id again (NEW_ROW). */
function rowValues(source: NewSource, versions: Versions) {
  return [
    source.id,
    source.chatbotId,
    source.type,
    source.title,
    source.status,
    source.error,
    source.chars,
    source.filename ?? null,
    source.contentType ?? null,
    source.bytes ?? null,
    source.url ?? null,
    source.maxPages ?? null,
    source.pages?.done ?? null,
    source.pages?.failed ?? null,
    source.pages?.total ?? null,
    source.question ?? null,
    source.answer ?? null,
    source.createdAt.getTime(),
    source.updatedAt.getTime(),
    versions.text ?? null,
    versions.file ?? null,
    source.chatbotId,
  ];
}

/** The columns a change sets, but for its text's (kept in parts). */
function columnsOf({ text: _text, pages, contentType, maxPages, updatedAt, ...fields }: SourceChange): Record<string, unknown> {
  const columns: Record<string, unknown> = { ...fields, updated_at: updatedAt.getTime() };
  if (contentType !== undefined) columns.content_type = contentType;
  if (maxPages !== undefined) columns.max_pages = maxPages;
  if (pages !== undefined) Object.assign(columns, { pages_done: pages.done, pages_failed: pages.failed, pages_total: pages.total });
  return columns;
}

export function sqliteSources(db: Database, texts: SqliteSourceTexts, files: SqliteSourceFiles, material: SqliteMaterialRuns): SourceRepository {
  const insert = db.prepare(`INSERT INTO sources ${NEW_ROW}`);
  // A put without a file keeps the one the source has.
  const replace = db.prepare<unknown[], { revision: number }>(
    `INSERT INTO sources ${NEW_ROW}
     ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title, status = excluded.status,
       error = excluded.error, chars = excluded.chars, filename = excluded.filename, content_type = excluded.content_type,
       bytes = excluded.bytes, url = excluded.url, max_pages = excluded.max_pages, pages_done = excluded.pages_done,
       pages_failed = excluded.pages_failed, pages_total = excluded.pages_total, question = excluded.question,
       answer = excluded.answer, text_version = excluded.text_version,
       file_version = coalesce(excluded.file_version, sources.file_version), updated_at = excluded.updated_at,
       revision = sources.revision + 1
     WHERE sources.chatbot_id = excluded.chatbot_id
     RETURNING revision`,
  );
  const byId = db.prepare<[string, string], SourceRow>(`SELECT ${COLUMNS} FROM sources WHERE chatbot_id = ? AND id = ?`);
  const ofChatbot = db.prepare<[string], SourceRow>(
    `SELECT ${COLUMNS} FROM sources WHERE chatbot_id = ? ORDER BY created_at, id`,
  );
  /** The oldest of a chatbot's website sources at one of the URLs (a JSON array). */
  const websiteAt = db.prepare<[string, string], SourceRow>(
    `SELECT ${COLUMNS} FROM sources WHERE chatbot_id = ? AND type = 'website' AND url IN (SELECT value FROM json_each(?)) ORDER BY created_at, id LIMIT 1`,
  );
  /** The chatbot's qa sources of one question, oldest first. */
  const qaPairs = db.prepare<[string], Asked & { question: string | null }>(
    `SELECT id, chars, question FROM sources WHERE chatbot_id = ? AND type = 'qa' ORDER BY created_at, id`,
  );
  /** The chatbot's Q&A pairs of the same question (sameQuestionKey), oldest first. */
  const pairsAsked = (chatbotId: string, question: string): Asked[] => {
    const key = sameQuestionKey(question);
    return qaPairs.all(chatbotId).filter((pair) => sameQuestionKey(pair.question ?? '') === key);
  };
  const remove = db.prepare<[string, string], { text_version: string | null; file_version: string | null }>(
    'DELETE FROM sources WHERE chatbot_id = ? AND id = ? RETURNING text_version, file_version',
  );
  const typeOf = db.prepare<[string, string], { type: SourceType; title: string; text_version: string | null }>(
    'SELECT type, title, text_version FROM sources WHERE chatbot_id = ? AND id = ?',
  );
  const pageTexts = db.prepare<[string], { text: string }>(
    `SELECT text FROM source_pages WHERE source_id = ? AND status = 'read' ORDER BY seq`,
  );
  const totalChars = db.prepare<[string, string], { total: number }>(
    'SELECT coalesce(sum(chars), 0) AS total FROM sources WHERE chatbot_id = ? AND id != ?',
  );
  const trained = db.prepare<[string], { id: string; status: SourceStatus; revision: number; createdRevision: number }>(
    `SELECT id, status, revision, created_revision AS createdRevision FROM sources
     WHERE chatbot_id = ? AND status IN ('ready', 'queued', 'processing') ORDER BY created_at, id`,
  );
  const revise = db.prepare('UPDATE sources SET revision = revision + 1 WHERE id = ?');
  const readPages = db.prepare<[string], { url: string; title: string; text: string }>(
    `SELECT url, title, text FROM source_pages WHERE source_id = ? AND status = 'read' ORDER BY seq`,
  );
  const bumpRevision = db.prepare<[string], { revision: number }>(
    `INSERT INTO source_revisions (chatbot_id, revision) VALUES (?, 1)
     ON CONFLICT (chatbot_id) DO UPDATE SET revision = revision + 1 RETURNING revision`,
  );

  const claimNext = db.prepare<{ now: number; claimedBy: string; leaseUntil: number }, SourceRow>(
    `UPDATE sources SET status = 'processing', claimed_by = @claimedBy, lease_until = @leaseUntil
     WHERE id = (SELECT id FROM sources
                 WHERE status = 'queued' OR (status = 'processing' AND coalesce(lease_until, 0) < @now)
                 ORDER BY created_at, id LIMIT 1)
     RETURNING ${COLUMNS}`,
  );
  const renew = db.prepare(
    `UPDATE sources SET lease_until = ? WHERE id = ? AND claimed_by = ? AND status = 'processing'`,
  );
  const held = db.prepare<[string, string], { chatbot_id: string }>(
    `SELECT chatbot_id FROM sources WHERE id = ? AND claimed_by = ? AND status = 'processing'`,
  );
  const endLease = db.prepare('UPDATE sources SET claimed_by = NULL, lease_until = NULL WHERE id = ?');
  const release = db.prepare('UPDATE sources SET lease_until = 0 WHERE id = ? AND claimed_by = ?');
  const planPage = db.prepare(
    `INSERT OR IGNORE INTO source_pages (source_id, seq, url, title, status, chars, text)
     VALUES (@sourceId, (SELECT coalesce(max(seq), -1) + 1 FROM source_pages WHERE source_id = @sourceId), @url, '', 'planned', 0, '')`,
  );
  const nextPage = db.prepare<[string, number], { seq: number; url: string }>(
    `SELECT seq, url FROM source_pages WHERE source_id = ? AND status = 'planned' AND seq > ? ORDER BY seq LIMIT 1`,
  );
  const recordPage = db.prepare(
    `UPDATE source_pages SET title = @title, status = @status, chars = @chars, text = @text, reason = @reason
     WHERE source_id = @sourceId AND url = @url`,
  );
  const contentHolder = db.prepare<[string, string, string], { url: string }>(
    'SELECT url FROM source_pages WHERE source_id = ? AND content_hash = ? AND url != ?',
  );
  const holdContent = db.prepare('UPDATE source_pages SET content_hash = ? WHERE source_id = ? AND url = ?');
  const pageCounts = db.prepare<[string], { total: number; done: number | null; failed: number | null }>(
    `SELECT count(*) AS total, sum(status = 'read') AS done, sum(status = 'failed') AS failed
     FROM source_pages WHERE source_id = ?`,
  );
  const setPageCounts = db.prepare('UPDATE sources SET pages_done = ?, pages_failed = ?, pages_total = ? WHERE id = ?');
  const pageList = db.prepare<[string, string], { url: string; title: string; status: SourcePageStatus; chars: number; reason: string | null }>(
    `SELECT page.url, page.title, page.status, page.chars, page.reason FROM source_pages page
     JOIN sources source ON source.id = page.source_id
     WHERE source.chatbot_id = ? AND page.source_id = ? AND page.status != 'planned' ORDER BY page.seq`,
  );
  const clearPages = db.prepare('DELETE FROM source_pages WHERE source_id = ?');

  const countPages = (sourceId: string): PageCounts => {
    const { total, done, failed } = pageCounts.get(sourceId) as { total: number; done: number | null; failed: number | null };
    return { done: done ?? 0, failed: failed ?? 0, total };
  };
  const planAll = db.transaction((sourceId: string, urls: string[]) =>
    urls.reduce((added, url) => added + planPage.run({ sourceId, url }).changes, 0),
  );
  const claimContent = db.transaction((sourceId: string, url: string, contentHash: string) => {
    const holder = contentHolder.get(sourceId, contentHash, url);
    if (!holder) holdContent.run(contentHash, sourceId, url);
    return holder?.url;
  });
  const record = db.transaction((sourceId: string, page: SourcePage) => {
    const values = { sourceId, ...page, reason: page.reason ?? null };
    if (recordPage.run(values).changes === 0) {
      planPage.run(values);
      recordPage.run(values);
    }
    const counts = countPages(sourceId);
    setPageCounts.run(counts.done, counts.failed, counts.total, sourceId);
    return counts;
  });

  // The writes below take the versions of the text and file staged for them (stage) and make them
  // current; `displaced` names the versions to delete once they commit.
  const madeCurrent = (id: string, { text, file }: Versions) => {
    texts.madeCurrent(id, text ?? null);
    files.madeCurrent(id, file ?? null);
  };
  // The character limit is checked in the write's transaction, which writers take one at a time;
  // and before its parts are staged, so that a refusal writes none as a rule.
  /** What the chatbot's sources would hold with `chars` more, `except`'s left out, when that is over maxChars. */
  const overLimit = (chatbotId: string, chars: number, maxChars: number, except = ''): OverCharLimit | undefined => {
    if (maxChars === Infinity) return undefined;
    const wouldHold = (totalChars.get(chatbotId, except)?.total ?? 0) + chars;
    return wouldHold > maxChars ? { wouldHold } : undefined;
  };
  const insertOverLimit = (sources: NewSource[], maxChars: number) =>
    sources[0] && overLimit(sources[0].chatbotId, countedChars(sources), maxChars);
  const updateOverLimit = (chatbotId: string, id: string, change: SourceChange, maxChars: number) =>
    change.chars === undefined ? undefined : overLimit(chatbotId, change.chars, maxChars, id);
  const putOverLimit = (source: NewSource, maxChars: number) => overLimit(source.chatbotId, source.chars, maxChars, source.id);
  /** A correction's pair replaces every pair of its question. */
  const correctionOverLimit = (pair: NewSource, asked: Asked[], maxChars: number) =>
    overLimit(pair.chatbotId, countedChars([pair]) - asked.reduce((sum, { chars }) => sum + chars, 0), maxChars);

  const insertAll = db.transaction((sources: NewSource[], staged: Versions[], maxChars: number): OverCharLimit | undefined => {
    const refused = insertOverLimit(sources, maxChars);
    if (refused) return refused;
    sources.forEach((source, k) => {
      const versions = staged[k] as Versions;
      insert.run(...rowValues(source, versions));
      madeCurrent(source.id, versions);
    });
    return undefined;
  });
  const insertWebsite = db.transaction((source: NewSource, sameSite: string, staged: Versions, maxChars: number): Source | OverCharLimit | undefined => {
    const existing = websiteAt.get(source.chatbotId, sameSite);
    return existing ? toSource(existing) : insertAll([source], [staged], maxChars);
  });
  const put = db.transaction((source: NewSource, staged: Versions, maxChars: number): WrittenAt | OverCharLimit | undefined => {
    const refused = putOverLimit(source, maxChars);
    if (refused) return refused;
    const before = byId.get(source.chatbotId, source.id);
    const replaced = replace.get(...rowValues(source, staged));
    if (!replaced) return undefined;
    madeCurrent(source.id, staged);
    const displaced = { text: before?.text_version, file: staged.file === undefined ? undefined : before?.file_version };
    return { row: byId.get(source.chatbotId, source.id) as SourceRow, displaced, revision: replaced.revision };
  });
  const update = db.transaction((chatbotId: string, id: string, change: SourceChange, textVersion: string | null | undefined, expected?: QaExpectation, maxChars = Infinity) => {
    const row = byId.get(chatbotId, id);
    if (!row) return undefined;
    if (expected && (row.question !== expected.question || row.answer !== expected.answer)) return undefined;
    const refused = updateOverLimit(chatbotId, id, change, maxChars);
    if (refused) return refused;
    const columns = columnsOf(change);
    if (textVersion !== undefined) columns.text_version = textVersion;
    const names = Object.keys(columns).filter((name) => columns[name] !== undefined);
    db.prepare(`UPDATE sources SET ${names.map((name) => `${name} = @${name}`).join(', ')} WHERE chatbot_id = @chatbotId AND id = @id`).run(
      { ...Object.fromEntries(names.map((name) => [name, columns[name]])), chatbotId, id },
    );
    // A new text or status is a new revision: chunks of the old one no longer stand for it.
    if (textVersion !== undefined || change.pages !== undefined || change.status !== undefined) revise.run(id);
    if (textVersion !== undefined) texts.madeCurrent(id, textVersion);
    return { row: byId.get(chatbotId, id) as SourceRow, displaced: { text: textVersion === undefined ? undefined : row.text_version } };
  });
  // Its text was staged under `target`, the pair it planned to correct (or the new pair's id): when
  // another correction stored a pair of the question since, it changes nothing, to plan again.
  const correctQa = db.transaction((pair: NewSource, target: string, staged: Versions, maxChars: number): Corrected | OverCharLimit | undefined => {
    const asked = pairsAsked(pair.chatbotId, pair.question ?? '');
    const [kept, ...others] = asked;
    if ((kept?.id ?? pair.id) !== target) return undefined;
    const refused = correctionOverLimit(pair, asked, maxChars);
    if (refused) return refused;
    if (!kept) {
      insertAll([pair], [staged], Infinity);
      return { row: byId.get(pair.chatbotId, pair.id) as SourceRow, displaced: {}, deleted: [] };
    }
    const { question, answer, title, chars, updatedAt } = pair;
    const written = update(pair.chatbotId, kept.id, { question, answer, title, chars, updatedAt }, staged.text ?? null) as Written;
    const deleted = others.map(({ id }) => {
      const removed = remove.get(pair.chatbotId, id);
      return { id, versions: { text: removed?.text_version, file: removed?.file_version } };
    });
    return { ...written, deleted };
  });
  // Settled within the limit as update is, the lease kept when refused.
  const settle = db.transaction((id: string, claimedBy: string, change: SourceChange, textVersion: string | null | undefined, maxChars: number) => {
    const holder = held.get(id, claimedBy);
    if (!holder) return undefined;
    const refused = updateOverLimit(holder.chatbot_id, id, change, maxChars);
    if (refused) return refused;
    endLease.run(id);
    return update(holder.chatbot_id, id, change, textVersion);
  });

  /** Writes the source's new text and file (each when given) in parts, each under a fresh version; a write that fails leaves none. */
  async function stage(chatbotId: string, id: string, { text, file }: { text?: string; file?: Buffer }): Promise<Versions> {
    const staged: Versions = {};
    try {
      if (text !== undefined) staged.text = await texts.write(chatbotId, id, text);
      if (file !== undefined) staged.file = await files.write(chatbotId, id, file);
    } catch (error) {
      await removeVersions(id, staged);
      throw error;
    }
    return staged;
  }
  /** Deletes the parts of a text and a file version in stages: displaced, or never made current. */
  async function removeVersions(id: string, { text, file }: Versions): Promise<void> {
    await texts.remove(id, text ?? null);
    await files.remove(id, file ?? null);
  }
  /**
   * Stages the new text and file (when given), then runs `write`, the transaction that makes them
   * current; deletes the versions it displaced, or the new ones when the write is refused or fails.
   */
  async function withParts<W extends Written>(
    chatbotId: string,
    id: string,
    values: { text?: string; file?: Buffer },
    write: (staged: Versions) => W | OverCharLimit | undefined,
  ): Promise<W | OverCharLimit | undefined> {
    const staged = await stage(chatbotId, id, values);
    let written: W | OverCharLimit | undefined;
    try {
      written = write(staged);
    } finally {
      if (!written || isOverCharLimit(written)) await removeVersions(id, staged);
    }
    if (!written || isOverCharLimit(written)) return written;
    await removeVersions(id, written.displaced);
    return written;
  }
  /**
   * New sources by `write`, once every part is written: a failure part-way, a refusal, or a write
   * that stores nothing (answering an existing source) leaves no part behind.
   */
  async function insertStaged<T>(sources: NewSource[], maxChars: number, write: (staged: Versions[]) => T | OverCharLimit | undefined): Promise<T | OverCharLimit | undefined> {
    const early = insertOverLimit(sources, maxChars);
    if (early) return early;
    const staged: Versions[] = [];
    let stored = false;
    try {
      for (const { chatbotId, id, text = '', file } of sources) staged.push(await stage(chatbotId, id, { text, file }));
      const answer = write(staged);
      stored = answer === undefined;
      return answer;
    } finally {
      if (!stored) for (const [k, versions] of staged.entries()) await removeVersions((sources[k] as NewSource).id, versions);
    }
  }
  /** A change of the source by `write` (update's or settle's), refused before its text is staged when it would pass the limit. */
  async function changeWithinLimit(
    chatbotId: string,
    id: string,
    change: SourceChange,
    maxChars: number,
    write: (stagedText: string | null | undefined) => Written | OverCharLimit | undefined,
  ): Promise<Source | OverCharLimit | undefined> {
    const early = updateOverLimit(chatbotId, id, change, maxChars);
    if (early) return early;
    const written = await withParts(chatbotId, id, { text: change.text }, (staged) => write(staged.text));
    return written && (isOverCharLimit(written) ? written : toSource(written.row));
  }

  return {
    async insert(sources, maxChars = Infinity) {
      return insertStaged(sources, maxChars, (staged) => insertAll.immediate(sources, staged, maxChars));
    },
    async insertWebsite(source, maxChars = Infinity, urls = [source.url ?? '']) {
      const sameSite = JSON.stringify(urls);
      // The same check again in the write's transaction, where writers take turns.
      const existing = websiteAt.get(source.chatbotId, sameSite);
      if (existing) return toSource(existing);
      return insertStaged([source], maxChars, ([staged]) => insertWebsite.immediate(source, sameSite, staged as Versions, maxChars));
    },
    async put(source, maxChars = Infinity) {
      const early = putOverLimit(source, maxChars);
      if (early) return early;
      const { text = '', file } = source;
      const stored = await withParts(source.chatbotId, source.id, { text, file }, (staged) => put.immediate(source, staged, maxChars));
      if (!stored) throw new Error(`source ${source.id} belongs to another chatbot`);
      return isOverCharLimit(stored) ? stored : { source: toSource(stored.row), revision: stored.revision };
    },
    async correctQa(pair, maxChars = Infinity) {
      for (;;) {
        const asked = pairsAsked(pair.chatbotId, pair.question ?? '');
        const early = correctionOverLimit(pair, asked, maxChars);
        if (early) return early;
        const target = asked[0]?.id ?? pair.id;
        const written = await withParts(pair.chatbotId, target, { text: pair.text ?? '' }, (staged) => correctQa.immediate(pair, target, staged, maxChars));
        if (written && isOverCharLimit(written)) return written;
        if (written) {
          for (const { id, versions } of written.deleted) await removeVersions(id, versions);
          return toSource(written.row);
        }
      }
    },
    async find(chatbotId, id) {
      const row = byId.get(chatbotId, id);
      return row ? toSource(row) : undefined;
    },
    async list(chatbotId) {
      return ofChatbot.all(chatbotId).map(toSource);
    },
    async update(chatbotId, id, change, expected, maxChars = Infinity) {
      return changeWithinLimit(chatbotId, id, change, maxChars, (staged) => update.immediate(chatbotId, id, change, staged, expected, maxChars));
    },
    async delete(chatbotId, id) {
      const removed = remove.get(chatbotId, id);
      if (!removed) return false;
      await removeVersions(id, { text: removed.text_version, file: removed.file_version });
      return true;
    },
    async text(chatbotId, id, limit) {
      const own = typeOf.get(chatbotId, id);
      if (!own) return '';
      if (own.type !== 'website') return (await texts.read(chatbotId, id, limit, { version: own.text_version })) ?? '';
      let text = '';
      for (const page of pageTexts.iterate(id)) {
        text += (text ? '\n\n' : '') + page.text;
        if (text.length >= limit) break;
      }
      return text.slice(0, limit);
    },
    async file(chatbotId, id) {
      return files.read(chatbotId, id);
    },
    async totalChars(chatbotId, except = '') {
      return totalChars.get(chatbotId, except)?.total ?? 0;
    },
    async texts(chatbotId, id) {
      const source = typeOf.get(chatbotId, id);
      if (!source) return [];
      const { type, title, text_version: version } = source;
      if (type !== 'website') {
        const text = await texts.read(chatbotId, id, Number.MAX_SAFE_INTEGER, { version });
        return text === undefined ? [] : [{ ref: { id, title, type }, text }];
      }
      return readPages.all(id).map((page): SourceText => ({ ref: { id, title: page.title || title, url: page.url, type }, text: page.text }));
    },
    async trainedSources(chatbotId) {
      // The material's runs and the sources are read in one synchronous step: one moment's.
      return trainedFromMaterial(
        async () => ({ ...material.currentRuns(chatbotId), sources: trained.all(chatbotId) }),
        (version, run) => material.readRun(chatbotId, version, run),
        () => material.version(chatbotId),
      );
    },
    async nextRevision(chatbotId) {
      return (bumpRevision.get(chatbotId) as { revision: number }).revision;
    },
    async claimNext({ now, claimedBy, leaseUntil }) {
      const row = claimNext.get({ now: now.getTime(), claimedBy, leaseUntil: leaseUntil.getTime() });
      return row ? toSource(row) : undefined;
    },
    async renewLease(id, claimedBy, leaseUntil) {
      return renew.run(leaseUntil.getTime(), id, claimedBy).changes > 0;
    },
    async settle(id, claimedBy, change, maxChars = Infinity) {
      const holder = held.get(id, claimedBy);
      if (!holder) return undefined;
      return changeWithinLimit(holder.chatbot_id, id, change, maxChars, (staged) => settle.immediate(id, claimedBy, change, staged, maxChars));
    },
    async release(id, claimedBy) {
      release.run(id, claimedBy);
    },
    async planPages(sourceId, urls) {
      return planAll.immediate(sourceId, urls);
    },
    async nextPage(sourceId, afterSeq) {
      return nextPage.get(sourceId, afterSeq);
    },
    async claimPageContent(sourceId, url, contentHash) {
      return claimContent.immediate(sourceId, url, contentHash);
    },
    async recordPage(sourceId, page) {
      return record.immediate(sourceId, page);
    },
    async pageCounts(sourceId) {
      return countPages(sourceId);
    },
    async pageList(chatbotId, sourceId) {
      return pageList.all(chatbotId, sourceId).map(({ reason, ...page }) => (reason === null ? page : { ...page, reason }));
    },
    async clearPages(sourceId) {
      clearPages.run(sourceId);
    },
  };
}
