import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupSqliteFile } from '../../src/store/sqlite/backup.js';

// SQLite's backup API starts a copy over whenever another connection commits between two of its
// steps; a hub commits every few milliseconds, so the steps grow until one copies everything.

describe('backupSqliteFile', () => {
  let directory: string;
  let filename: string;
  let db: Database.Database;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'switchboard-backup-'));
    filename = join(directory, 'hub.db');
    db = new Database(filename);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    // About 2,500 pages: 25 steps of the first size.
    db.transaction(() => {
      for (let k = 0; k < 10_000; k += 1) insert.run('x'.repeat(900));
    })();
  });
  afterEach(() => {
    db.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const notes = (file: string) => {
    const copy = new Database(file, { readonly: true });
    try {
      return {
        integrity: copy.pragma('integrity_check', { simple: true }),
        journal: copy.pragma('journal_mode', { simple: true }),
        ids: (copy.prepare('SELECT id FROM notes ORDER BY id').pluck().all() as number[]),
      };
    } finally {
      copy.close();
    }
  };

  it('finishes while another connection commits between every two of its steps, holding every commit made before it began', async () => {
    // The backup steps on setImmediate, and so does this writer: a commit lands between each two steps.
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    let writing = true;
    const write = () => {
      if (!writing) return;
      insert.run('written during the backup');
      setImmediate(write);
    };
    const committedBefore = db.prepare('SELECT max(id) FROM notes').pluck().get() as number;
    setImmediate(write);
    const backup = await backupSqliteFile(filename, join(directory, 'copy.db')).finally(() => (writing = false));

    expect(backup.restarts).toBeGreaterThan(0);
    const copy = notes(join(directory, 'copy.db'));
    expect(copy.integrity).toBe('ok');
    // A file standing alone: no write-ahead log is needed beside it.
    expect(copy.journal).toBe('delete');
    // Every commit before the start, and one snapshot: the ids run without a gap.
    expect(copy.ids.length).toBeGreaterThanOrEqual(committedBefore);
    expect(copy.ids.at(-1)).toBe(copy.ids.length);
    expect(backup.bytes).toBeGreaterThan(2000 * 4096);
    expect(readdirSync(directory).sort()).toEqual(['copy.db', 'hub.db', 'hub.db-shm', 'hub.db-wal']);
  });

  it('makes the copy as private as the database', async () => {
    chmodSync(filename, 0o600);
    await backupSqliteFile(filename, join(directory, 'copy.db'));
    expect(statSync(join(directory, 'copy.db')).mode & 0o777).toBe(0o600);
  });

  it('never replaces a file, however recently it appeared, and leaves nothing of its copy', async () => {
    const destination = join(directory, 'copy.db');
    writeFileSync(destination, 'an earlier backup');
    await expect(backupSqliteFile(filename, destination)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(destination, 'utf8')).toBe('an earlier backup');
    expect(readdirSync(directory).filter((name) => name.startsWith('copy.db'))).toEqual(['copy.db']);
  });

  it('refuses a database file that does not exist, creating none', async () => {
    await expect(backupSqliteFile(join(directory, 'missing.db'), join(directory, 'copy.db'))).rejects.toThrow();
    expect(existsSync(join(directory, 'missing.db'))).toBe(false);
    expect(existsSync(join(directory, 'copy.db'))).toBe(false);
  });
});
