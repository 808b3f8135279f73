import Database from 'better-sqlite3';
import { answerJobs } from '../../worker-thread.js';
import type { CheckpointJob } from './checkpoints.js';

// The thread that checkpoints SQLite's write-ahead log for the server's connections
// (checkpoints.ts), on a connection of its own to each database file. It keeps the event loop's
// priority: a checkpoint put off grows the log every read of the event loop goes through.

const connections = new Map<string, Database.Database>();

answerJobs<CheckpointJob>(async ({ task, filename }) => {
  let db = connections.get(filename);
  if (task === 'close') {
    db?.close();
    connections.delete(filename);
    return { result: undefined };
  }
  if (!db) {
    db = new Database(filename, { fileMustExist: true });
    connections.set(filename, db);
  }
  // As many of the log's pages as no reader still needs; the rest at the next one.
  db.pragma('wal_checkpoint(PASSIVE)');
  return { result: undefined };
}, { atEventLoopPriority: true });
