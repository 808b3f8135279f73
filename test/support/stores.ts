import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openStore } from '../../src/store/index.js';
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
    open: () => openStore(withDatabase(mongoUri ?? '', testDatabase())),
    shared() {
      const url = withDatabase(mongoUri ?? '', testDatabase());
      return { open: () => openStore(url), remove: () => {} };
    },
  },
];

const testDatabase = () => `switchboard_test_${randomUUID().slice(0, 8)}`;

export function withDatabase(uri: string, database: string): string {
  const url = new URL(uri);
  url.pathname = `/${database}`;
  return url.toString();
}
