import mongoose from 'mongoose';
import { UniqueViolation } from '../errors.js';

const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): error is mongoose.mongo.MongoServerError {
  return error instanceof mongoose.mongo.MongoServerError && error.code === DUPLICATE_KEY;
}

/** Runs an insert that may find its document there already (a racing writer's, or its own put back). */
export async function insertUnlessPresent(insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/** Runs a write, turning MongoDB's duplicate-key error into the port's UniqueViolation. */
export async function translateUnique<T>(collection: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKey(error)) {
      // Named like the SQLite adapter's "accounts.name"; keyPattern holds the index's fields.
      const fields = Object.keys(clashingKeyPattern(error));
      throw new UniqueViolation(`${collection}.${fields.length > 0 ? fields.join(', ') : clashingIndexName(error)}`);
    }
    throw error;
  }
}

/**
 * A single write's error carries the key pattern itself. A bulk write's (insertMany) may carry it
 * in its first write error, the one that stopped the ordered batch, but driver 7 keeps only the
 * code and message of each write error, so the message's index name is the fallback.
 */
function clashingKeyPattern(error: mongoose.mongo.MongoServerError): object {
  if (error.keyPattern) return error.keyPattern as object;
  if (error instanceof mongoose.mongo.MongoBulkWriteError) {
    const [first] = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    const pattern: unknown = first?.err?.keyPattern;
    if (pattern && typeof pattern === 'object') return pattern;
  }
  return {};
}

/** The message names the index, and our index names spell out their keys (indexes.ts). */
function clashingIndexName(error: mongoose.mongo.MongoServerError): string {
  return /index: (\S+) dup key/.exec(error.message)?.[1] ?? '';
}
