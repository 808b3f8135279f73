import mongoose from 'mongoose';
import { UniqueViolation } from '../errors.js';

const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): error is mongoose.mongo.MongoServerError {
  return error instanceof mongoose.mongo.MongoServerError && error.code === DUPLICATE_KEY;
}

/** Runs a write, turning MongoDB's duplicate-key error into the port's UniqueViolation. */
export async function translateUnique<T>(collection: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKey(error)) {
      // Named like the SQLite adapter's "accounts.name"; keyPattern holds the index's fields.
      const fields = Object.keys((error.keyPattern ?? {}) as object).join(', ');
      throw new UniqueViolation(`${collection}.${fields}`);
    }
    throw error;
  }
}
