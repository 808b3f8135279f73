import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { createAccount } from '../src/domain/accounts.js';
import { API_PREFIX } from '../src/http/app.js';
import { openStore } from '../src/store/index.js';
import type { Account, Store } from '../src/store/port.js';
import type { Request } from './load.js';
import { serve, type Served } from './servers.js';

export type BenchHub = {
  served: Served;
  apiUrl: string;
  /** The hub's database, for another hub process on the same one. */
  databaseUrl: string;
  /** The bench account, with a quota no run exhausts. */
  account: Account;
  /** The same database, opened in this process for seeding rows directly. */
  store: Store;
  get(path: string): Request;
  post(path: string, body: unknown): Request;
  /** POSTs (an object, or JSON text) and answers the parsed body; anything but 200 throws. */
  send(path: string, body: unknown): Promise<unknown>;
  createChatbot(name: string, sourceText: string): Promise<string>;
  dispose(): Promise<void>;
};

type Database = { url: string; drop(): Promise<void> };

/** A throwaway SQLite file, or a throwaway database on the MongoDB server `mongodbUri` names. */
async function throwawayDatabase(mongodbUri?: string): Promise<Database> {
  if (mongodbUri) {
    const url = new URL(mongodbUri);
    url.pathname = `/switchboard_bench_${randomUUID().slice(0, 8)}`;
    return {
      url: url.toString(),
      async drop() {
        const connection = await mongoose.createConnection(url.toString()).asPromise();
        await connection.dropDatabase();
        await connection.close();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  return { url: `sqlite:${join(dir, 'bench.db')}`, drop: () => rm(dir, { recursive: true, force: true }) };
}

/** A hub process on a throwaway database (SQLite unless `mongodbUri` is given), configured as `npm start` would be. */
export async function startBenchHub(mongodbUri?: string): Promise<BenchHub> {
  const database = await throwawayDatabase(mongodbUri);
  const databaseUrl = database.url;
  const store = await openStore(databaseUrl);
  const { account, apiKey } = await createAccount(store, 'bench', { messagesPerMonth: 1_000_000_000, maxChatbots: 1000 });
  // Pages of contacts are measured by the thousand: the per-key limit must not answer them.
  const served = await serve('hub', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', CONTACTS_RATE_LIMIT_PER_MINUTE: '1000000000' });
  const apiUrl = served.origin + API_PREFIX;
  const headers = { Authorization: `Bearer ${apiKey}` };
  const jsonHeaders = { ...headers, 'Content-Type': 'application/json' };

  const send = async (path: string, body: unknown) => {
    // A body given as text is sent as it is: a large one is serialized once, before the timing.
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(apiUrl + path, { method: 'POST', headers: jsonHeaders, body: text });
    const answer = await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${answer.slice(0, 200)}`);
    return JSON.parse(answer) as unknown;
  };
  return {
    served,
    apiUrl,
    databaseUrl,
    account,
    store,
    get: (path) => ({ url: apiUrl + path, headers }),
    post: (path, body) => ({ url: apiUrl + path, method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) }),
    send,
    async createChatbot(name, sourceText) {
      return ((await send('/create-chatbot', { chatbotName: name, sourceText })) as { chatbotId: string }).chatbotId;
    },
    async dispose() {
      await served.stop();
      await store.close();
      await database.drop();
    },
  };
}
