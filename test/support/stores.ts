import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { inject } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { mongoModels, type MongoModels } from '../../src/store/mongo/models.js';
import type { Store } from '../../src/store/port.js';

export type StoreTarget = { name: string; available: boolean; open(): Promise<Store> };

/** A store adapter that can also give a fresh database which several stores open, as hub processes sharing it do. */
export type SharingStoreTarget = StoreTarget & { shared(): SharedDatabase };

export type SharedDatabase = { open(): Promise<Store>; remove(): void };

const mongoUri = inject('mongoUri');

/** Every store adapter, each opened on a fresh, empty database. Unavailable ones are skipped. */
export const storeTargets: SharingStoreTarget[] = [
  {
    name: 'sqlite',
    available: true,
    open: () => openStore('sqlite::memory:'),
    shared() {
      const directory = mkdtempSync(join(tmpdir(), 'switchboard-shared-'));
      return { open: () => openStore(`sqlite:${join(directory, 'hub.db')}`), remove: () => rmSync(directory, { recursive: true, force: true }) };
    },
  },
  {
    name: 'mongodb',
    available: mongoUri !== undefined,
    async open() {
      const url = withDatabase(mongoUri ?? '', testDatabase());
      const store = await openStore(url);
      return { ...store, close: () => store.close().then(() => dropDatabase(url)) };
    },
    shared() {
      const url = withDatabase(mongoUri ?? '', testDatabase());
      return { open: () => openStore(url), remove: () => void dropDatabase(url) };
    },
  },
];

const testDatabase = () => `switchboard_test_${randomUUID().slice(0, 8)}`;

/**
 * Drops a test's database once the test is done with it: the emulator CI runs on keeps every
 * database in memory, and the suites' megabytes of source texts would fill its heap.
 */
async function dropDatabase(url: string): Promise<void> {
  const connection = await mongoose.createConnection(url).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

export function withDatabase(uri: string, database: string): string {
  const url = new URL(uri);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A store on a fresh MongoDB database, and the models of a connection of its own to it, for a test that reaches past the store. */
export type MongoStoreWithModels = { store: Store; models: MongoModels; close(): Promise<void> };

/** openStore on a fresh database of the server at `uri`, with its models; `close` closes both and drops the database. */
export async function openMongoWithModels(uri: string): Promise<MongoStoreWithModels> {
  const url = withDatabase(uri, testDatabase());
  const store = await openStore(url);
  const connection = await mongoose.createConnection(url).asPromise();
  return {
    store,
    models: mongoModels(connection),
    async close() {
      await store.close();
      await connection.dropDatabase();
      await connection.close();
    },
  };
}
