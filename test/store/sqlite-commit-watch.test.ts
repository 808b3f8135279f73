import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchCommits, type CommitWatch } from '../../src/store/sqlite/commit-watch.js';

// What the SQLite store keeps between commits (the chatbot lists) is dropped on any commit to the
// database: its own, another connection's, or another process's.

describe('watchCommits', () => {
  let directory: string;
  let filename: string;
  let db: Database.Database;
  let commits: CommitWatch;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'switchboard-commit-watch-'));
    filename = join(directory, 'hub.db');
    db = new Database(filename);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
    commits = watchCommits(db);
  });
  afterEach(() => {
    commits.close();
    db.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const count = () => db.prepare('SELECT count(*) AS n FROM notes').get();

  it('answers true the first time, then only after a commit', () => {
    expect(commits.committedSince()).toBe(true);
    expect(commits.committedSince()).toBe(false);
    count();
    expect(commits.committedSince()).toBe(false);
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('own');
    expect(commits.committedSince()).toBe(true);
    expect(commits.committedSince()).toBe(false);
  });

  it("sees another connection's commit and another process's", () => {
    commits.committedSince();
    const other = new Database(filename);
    other.prepare('INSERT INTO notes (text) VALUES (?)').run('other connection');
    other.close();
    expect(commits.committedSince()).toBe(true);

    commits.committedSince();
    const insert = `const Database = require('better-sqlite3'); new Database(${JSON.stringify(filename)}).prepare("INSERT INTO notes (text) VALUES ('other process')").run();`;
    execFileSync(process.execPath, ['-e', insert]);
    expect(commits.committedSince()).toBe(true);
    expect(count()).toEqual({ n: 2 });
  });

  it('sees a commit made after a checkpoint emptied the log', () => {
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('before');
    db.pragma('wal_checkpoint(TRUNCATE)');
    commits.committedSince();
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('after');
    expect(commits.committedSince()).toBe(true);
  });

  it('shares one descriptor of the -shm file between the watches of a process, closing it with the last', () => {
    // Closing any descriptor of the file would drop the process's locks on it, SQLite's included.
    const shm = realpathSync(`${filename}-shm`);
    const descriptors = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === shm;
      } catch {
        return false;
      }
    }).length;
    const withOne = descriptors();
    const second = watchCommits(db);
    expect(descriptors()).toBe(withOne);
    commits.close();
    expect(descriptors()).toBe(withOne);
    expect(second.committedSince()).toBe(true);
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('seen by the second');
    expect(second.committedSince()).toBe(true);
    second.close();
    expect(descriptors()).toBe(withOne - 1);
  });

  it('always answers true for a database it cannot watch', () => {
    const memory = new Database(':memory:');
    const unwatched = watchCommits(memory);
    expect([unwatched.committedSince(), unwatched.committedSince()]).toEqual([true, true]);
    unwatched.close();
    memory.close();
  });
});
