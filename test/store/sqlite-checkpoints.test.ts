import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointOffThread } from '../../src/store/sqlite/checkpoints.js';

// SQLite's write-ahead log is checkpointed into the database file by a thread of its own, never
// in a commit of the server's connection (where a checkpoint held the event loop 20–40 ms).

const MB = 1024 * 1024;

async function until(done: () => boolean, what: string) {
  for (const start = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - start > 10_000) throw new Error(`never: ${what}`);
  }
}

describe('checkpointOffThread', () => {
  let directory: string;
  let filename: string;
  let db: Database.Database;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'switchboard-checkpoints-'));
    filename = join(directory, 'hub.db');
    db = new Database(filename);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const write = (megabytes: number) => {
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    for (let k = 0; k < megabytes; k += 1) insert.run('x'.repeat(MB));
  };

  it("moves what the server's connection writes into the database file, the connection itself checkpointing nothing", async () => {
    const stop = checkpointOffThread(db, filename);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    write(6);
    // The log holds the pages until a checkpoint copies them into the database file.
    await until(() => statSync(filename).size >= 6 * MB, 'the pages reached the database file');
    await stop();
    db.close();
    // Closed last, the server's connection checkpoints the rest and removes the log.
    expect(() => statSync(`${filename}-wal`)).toThrow();
    expect(new Database(filename).prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 6 });
  });

  it("gives checkpoints back to the server's connection when the thread cannot make them", async () => {
    const stop = checkpointOffThread(db, join(directory, 'missing.db'));
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1000, 'the connection checkpoints again');
    write(6);
    expect(statSync(filename).size).toBeGreaterThanOrEqual(4 * MB);
    await stop();
  });
});
