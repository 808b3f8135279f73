import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SourceRef } from '../../src/store/port.js';
import { migrate } from '../../src/store/sqlite/migrations.js';
import { sqliteSourceTexts } from '../../src/store/sqlite/source-texts.js';
import { sqliteTraining } from '../../src/store/sqlite/training.js';

// SQLite keeps a material's chunks in pages of consecutive chunks of one source, cut at 1,024
// chunks or about a megabyte of UTF-8 (store/sqlite/training-pages.ts): any seq range reads the
// chunks it covers, whichever pages they lie in.

const ref = (id: string): SourceRef => ({ id, title: `Source ${id}`, type: 'text' });
const runOf = (id: string, count: number, chars: number) =>
  Array.from({ length: count }, (_, n) => ({ text: `${id}${n} 😀 `.padEnd(chars, 'é'), source: ref(id) }));

describe('sqlite training pages', () => {
  let db: Database.Database;
  let training: ReturnType<typeof sqliteTraining>;
  beforeEach(() => {
    db = new Database(':memory:');
    migrate(db);
    db.prepare("INSERT INTO accounts (id, name, messages_per_month, max_chatbots, created_at) VALUES ('acct', 'A', 1, 1, 0)").run();
    db.prepare("INSERT INTO chatbots (id, account_id, name, status, settings, created_at, updated_at) VALUES ('bot', 'acct', 'Bot', 'ready', '{}', 0, 0)").run();
    training = sqliteTraining(db, sqliteSourceTexts(db));
  });
  afterEach(() => db.close());

  // a: pages of 1,024 chunks; b: a page of 3; c: chunks of about 3,000 UTF-8 bytes, pages of about a megabyte.
  const chunks: { text: string; source?: SourceRef }[] = [...runOf('a', 2_500, 20), ...runOf('b', 3, 20), ...runOf('c', 1_600, 1_500), { text: '' }, { text: 'no source' }];

  it.each([
    { range: 'a whole run of several pages', start: 0, end: 2_500 },
    { range: 'from within a page to within another', start: 1_000, end: 2_100 },
    { range: 'across sources', start: 2_499, end: 2_504 },
    { range: 'pages cut by size', start: 2_503, end: 4_103 },
    { range: 'one chunk', start: 1_024, end: 1_025 },
    { range: 'to the end', start: 4_000, end: chunks.length },
  ])('reads $range', async ({ start, end }) => {
    await training.replace('bot', { chunks });
    const version = (await training.version('bot')) ?? '';
    const pages = db.prepare('SELECT COUNT(*) FROM training_pages').pluck().get();

    const read = await training.readRun('bot', version, { id: 'any', revision: 0, start, end });

    expect(read).toEqual(chunks.slice(start, end).map(({ text, source }) => ({ text, source: source ?? null })));
    // a: 3 pages; b: 1; c: 5 (about 350 chunks a page); the two chunks without a source: 1.
    expect(pages).toBe(10);
  });

  it('reads the whole material back with its seqs', async () => {
    await training.replace('bot', { chunks });
    expect((await training.material('bot')).chunks).toEqual(
      chunks.map(({ text, source }, seq) => (source ? { seq, text, source } : { seq, text })),
    );
  });
});
