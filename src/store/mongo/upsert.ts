import { isDuplicateKey } from './unique.js';

/**
 * Runs an upsert again if it lost a race to insert the same new document: two concurrent upserts
 * can both miss and both insert, and the unique index refuses the second. On the retry the
 * document exists, so the write becomes an update.
 */
export async function retryOnceOnDuplicateKey<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return upsert();
  }
}
