import type { Store } from './port.js';
import type { SqliteBackup } from './sqlite/backup.js';

/** What a DATABASE_URL names: a SQLite file (or `:memory:`) or a MongoDB deployment. */
export type DatabaseLocation = { engine: 'sqlite'; filename: string } | { engine: 'mongodb'; url: string };

/** Reads a DATABASE_URL: `sqlite:PATH`, `sqlite::memory:`, or a `mongodb://` / `mongodb+srv://` URL. */
export function databaseLocation(databaseUrl: string): DatabaseLocation {
  if (databaseUrl.startsWith('sqlite:')) return { engine: 'sqlite', filename: databaseUrl.slice('sqlite:'.length) };
  if (/^mongodb(\+srv)?:\/\//.test(databaseUrl)) return { engine: 'mongodb', url: databaseUrl };
  throw new Error('DATABASE_URL must start with sqlite:, mongodb:// or mongodb+srv://');
}

/** Opens the store a DATABASE_URL names. Each adapter is loaded only when chosen. */
export async function openStore(databaseUrl: string): Promise<Store> {
  const location = databaseLocation(databaseUrl);
  if (location.engine === 'sqlite') {
    const { openSqliteStore } = await import('./sqlite/index.js');
    return openSqliteStore(location.filename);
  }
  const { openMongoStore } = await import('./mongo/index.js');
  return openMongoStore(location.url);
}

/** Copies the SQLite database file `filename`, while hubs keep writing to it, into the new file `destination`. */
export async function backupSqlite(filename: string, destination: string): Promise<SqliteBackup> {
  const { backupSqliteFile } = await import('./sqlite/backup.js');
  return backupSqliteFile(filename, destination);
}
