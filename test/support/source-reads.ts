import Database from 'better-sqlite3';
import mongoose from 'mongoose';
import { vi } from 'vitest';
import type { Store } from '../../src/store/port.js';

/** Counts the reads of the sources table (SQLite) or collection (MongoDB) that `work` makes. */
export async function sourceReads(engine: Store['engine'], work: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  if (engine === 'sqlite') {
    // Every statement shares one prototype: its `source` is its SQL.
    const probe = new Database(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { get(...args: unknown[]): unknown; source: string };
    probe.close();
    const get = statement.get;
    const spy = vi.spyOn(statement, 'get').mockImplementation(function (this: typeof statement, ...args: unknown[]) {
      if (/^\s*SELECT\b[\s\S]*\bFROM sources\b/i.test(this.source)) reads += 1;
      return get.apply(this, args);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
  } else {
    mongoose.set('debug', (collection: string, method: string) => {
      if (collection === 'sources' && method.startsWith('find')) reads += 1;
    });
    try {
      await work();
    } finally {
      mongoose.set('debug', false);
    }
  }
  return reads;
}
