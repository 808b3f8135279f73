import { chmodSync, linkSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

// An online backup by SQLite's backup API, which copies the database's pages in steps, each a read
// transaction of its own, so that in WAL mode no writer waits for it. A commit by another
// connection (a hub's) between two steps starts the copy over, and with a step of a fixed size a
// hub that commits every few milliseconds would keep it from ever finishing; so each new start
// copies twice as many pages a step, until one step copies them all. What it finishes with is one
// snapshot of the database, holding every commit made before the backup began.

/** better-sqlite3's and SQLite's usual step. */
const FIRST_STEP_PAGES = 100;

export type SqliteBackup = { bytes: number; restarts: number };

/**
 * Copies the database file `filename` into the new file `destination`, which appears only once
 * complete and checked, as private as the database, and never replaces a file (an `EEXIST` error).
 */
export async function backupSqliteFile(filename: string, destination: string): Promise<SqliteBackup> {
  const partial = `${destination}.partial-${process.pid}`;
  try {
    const restarts = await copyPages(filename, partial);
    check(partial);
    chmodSync(partial, statSync(filename).mode & 0o777);
    // Unlike a rename, a link fails where the destination exists, however recently it appeared.
    linkSync(partial, destination);
    return { bytes: statSync(destination).size, restarts };
  } finally {
    rmSync(partial, { force: true });
  }
}

async function copyPages(filename: string, destination: string): Promise<number> {
  const source = new Database(filename, { fileMustExist: true });
  let restarts = 0;
  let step = FIRST_STEP_PAGES;
  let remaining = Infinity;
  try {
    await source.backup(destination, {
      progress({ remainingPages }) {
        // Without a restart, every step leaves fewer pages to copy.
        if (remainingPages >= remaining) {
          restarts += 1;
          step *= 2;
        }
        remaining = remainingPages;
        return step;
      },
    });
    return restarts;
  } finally {
    source.close();
  }
}

/**
 * Makes the copy a file that stands alone (a rollback journal, not a write-ahead log beside it: a
 * hub started on it turns WAL on again) and checks it whole.
 */
function check(filename: string): void {
  const copy = new Database(filename, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const problems = copy.pragma('integrity_check') as { integrity_check: string }[];
    const found = problems.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    if (found.length > 0) throw new Error(`the copy failed SQLite's integrity check: ${found.slice(0, 5).join('; ')}`);
  } finally {
    copy.close();
  }
}
