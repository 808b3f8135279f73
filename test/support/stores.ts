import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/port.js';

export type StoreTarget = { name: string; available: boolean; open(): Promise<Store> };

const mongoUri = inject('mongoUri');

/** Every store adapter, each opened on a fresh, empty database. Unavailable ones are skipped. */
export const storeTargets: StoreTarget[] = [
  { name: 'sqlite', available: true, open: () => openStore('sqlite::memory:') },
  {
    name: 'mongodb',
    available: mongoUri !== undefined,
    open: () => openStore(withDatabase(mongoUri ?? '', `switchboard_test_${randomUUID().slice(0, 8)}`)),
  },
];

export function withDatabase(uri: string, database: string): string {
  const url = new URL(uri);
  url.pathname = `/${database}`;
  return url.toString();
}
