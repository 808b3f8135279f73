import type { Store } from './port.js';

/**
 * Opens the store a DATABASE_URL names: `sqlite:PATH`, `sqlite::memory:`, or a `mongodb://` /
 * `mongodb+srv://` URL. Each adapter is loaded only when chosen.
 */
export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const { openSqliteStore } = await import('./sqlite/index.js');
    return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  }
  if (/^mongodb(\+srv)?:\/\//.test(databaseUrl)) {
    const { openMongoStore } = await import('./mongo/index.js');
    return openMongoStore(databaseUrl);
  }
  throw new Error('DATABASE_URL must start with sqlite:, mongodb:// or mongodb+srv://');
}
