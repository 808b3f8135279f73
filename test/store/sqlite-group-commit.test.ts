import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupCommit, type GroupCommit } from '../../src/store/sqlite/group-commit.js';

// The writes a chat makes are committed together, once per turn of the event loop.

describe('sqlite group commit', () => {
  let dir: string;
  let db: Database.Database;
  let reader: Database.Database;
  let batched: GroupCommit['write'];
  let flush: GroupCommit['flush'];
  const names = () => reader.prepare('SELECT name FROM t ORDER BY name').pluck().all();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    db = new Database(join(dir, 'x.db'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (name TEXT PRIMARY KEY)');
    reader = new Database(join(dir, 'x.db'));
    ({ write: batched, flush } = groupCommit(db));
  });

  afterEach(() => {
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (name: string) => () => db.prepare('INSERT INTO t (name) VALUES (?)').run(name).changes;

  it('commits the writes of one turn in one transaction, each resolving once committed', async () => {
    const seenByOthers: unknown[][] = [];
    const first = batched(insert('a'));
    const second = batched(() => {
      // Another connection does not see the first write yet: both are in one open transaction.
      seenByOthers.push(names());
      return insert('b')();
    });
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(seenByOthers).toEqual([[]]);
    expect(names()).toEqual(['a', 'b']);
  });

  it('fails a write that throws alone: the others of its turn are committed', async () => {
    const results = await Promise.allSettled([batched(insert('a')), batched(insert('a')), batched(insert('c'))]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(names()).toEqual(['a', 'c']);
  });

  it('commits what is queued when flushed, before the database closes', async () => {
    const written = batched(insert('a'));
    flush();
    expect(names()).toEqual(['a']);
    db.close();
    expect(await written).toBe(1);
    db = new Database(join(dir, 'x.db'));
  });

  it('starts a new transaction for writes queued after a commit', async () => {
    await batched(insert('a'));
    let seen: unknown[] = [];
    await batched(() => {
      seen = names();
      return insert('b')();
    });
    expect(seen).toEqual(['a']);
    expect(names()).toEqual(['a', 'b']);
  });
});
