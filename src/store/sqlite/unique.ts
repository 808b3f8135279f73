import { SqliteError } from 'better-sqlite3';
import { UniqueViolation } from '../errors.js';

/** Runs a write, turning SQLite's unique-constraint failure into the port's UniqueViolation. */
export function translateUnique<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof SqliteError && /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(error.code)) {
      throw new UniqueViolation(error.message.replace(/^UNIQUE constraint failed: /, ''));
    }
    throw error;
  }
}
