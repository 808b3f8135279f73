import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import type { Database } from 'better-sqlite3';

// Every commit to a WAL database, by any connection in any process, rewrites the wal-index header:
// the first 48 bytes of the database's -shm file, which every connection maps (iChange counts the
// transactions; mxFrame, the salts and the checksums move with them; see
// https://www.sqlite.org/walformat.html). A writer stores this copy of the header last, so once a
// commit has returned, these bytes differ. Reading them is one read from the page cache, without
// the read transaction and file locks that any query takes, even PRAGMA data_version.

const HEADER_BYTES = 48;

export type CommitWatch = {
  /** True when any connection may have committed since the previous call (always, the first time). */
  committedSince(): boolean;
  /** Call after the connection has closed. */
  close(): void;
};

/** Watches the commits to `db`'s database; one that cannot be watched (in memory, not WAL) always answers true. */
export function watchCommits(db: Database): CommitWatch {
  const shm = openShm(db);
  if (shm === undefined) return { committedSince: () => true, close() {} };
  const seen = Buffer.alloc(HEADER_BYTES);
  const now = Buffer.alloc(HEADER_BYTES);
  let first = true;
  return {
    committedSince() {
      const read = readSync(shm.fd, now, 0, HEADER_BYTES, 0);
      if (!first && read === HEADER_BYTES && now.equals(seen)) return false;
      first = false;
      now.copy(seen);
      return true;
    },
    close: shm.release,
  };
}

// Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own
// included: the watches of one -shm file share one descriptor, closed when the last of them is,
// after its connection (the last one of the process on that database).
const descriptors = new Map<string, { fd: number; users: number }>();

function openShm(db: Database): { fd: number; release(): void } | undefined {
  if (db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  // The connection made the -shm file when it first read in WAL mode (its schema, at the latest).
  db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  let path: string;
  try {
    path = realpathSync(`${db.name}-shm`);
  } catch {
    return undefined;
  }
  const shared = descriptors.get(path) ?? { fd: openSync(path, 'r'), users: 0 };
  shared.users += 1;
  descriptors.set(path, shared);
  let released = false;
  return {
    fd: shared.fd,
    release() {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      descriptors.delete(path);
      closeSync(shared.fd);
    },
  };
}
