import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_PREFIX, createApp } from '../../src/http/app.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/port.js';
import { call, INVALID, NO_KEY, startApp, type TestApp } from '../support/http.js';
import { storeTargets, type StoreTarget } from '../support/stores.js';

const claim = (baseUrl: string, apiKey: string | undefined, body: unknown) =>
  call('POST', `${baseUrl}/integrations/claims`, apiKey, body);
const held = (baseUrl: string, apiKey: string, key: string) =>
  call('GET', `${baseUrl}/integrations/claims/${encodeURIComponent(key)}`, apiKey);

describe.each(storeTargets.filter((t) => t.available))('$name store: /integrations/claims', (target) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  it('claims a key once and reports it held, per account', async () => {
    const body = { key: 'discord:message:1234', ttlSeconds: 60 };
    expect(await held(app.baseUrl, app.apiKey, body.key)).toEqual({
      status: 200,
      body: { message: 'Success', data: { key: body.key, held: false } },
    });
    expect(await claim(app.baseUrl, app.apiKey, body)).toEqual({
      status: 200,
      body: { message: 'Success', data: { key: body.key, claimed: true } },
    });
    expect((await claim(app.baseUrl, app.apiKey, body)).body).toMatchObject({ data: { claimed: false } });
    expect((await held(app.baseUrl, app.apiKey, body.key)).body).toMatchObject({ data: { held: true } });
    const other = await app.addAccount('other');
    expect((await held(app.baseUrl, other.apiKey, body.key)).body).toMatchObject({ data: { held: false } });
  });

  it('refuses bad input with the contract body and holds nothing', async () => {
    for (const body of [
      {},
      { key: '', ttlSeconds: 60 },
      { key: 'has space', ttlSeconds: 60 },
      { key: 'k', ttlSeconds: 0 },
      { key: 'k', ttlSeconds: 1.5 },
      { key: 'k', ttlSeconds: 31 * 24 * 3600 },
      { key: 'k', ttlSeconds: 60, extra: true },
      { key: 'x'.repeat(257), ttlSeconds: 60 },
    ]) {
      expect(await claim(app.baseUrl, app.apiKey, body)).toEqual({ status: 400, body: INVALID });
    }
    expect((await held(app.baseUrl, app.apiKey, 'k')).body).toMatchObject({ data: { held: false } });
    expect(await claim(app.baseUrl, undefined, { key: 'k', ttlSeconds: 60 })).toEqual({ status: 401, body: NO_KEY });
  });
});

describe('two hub processes on one SQLite database', () => {
  let directory: string;
  const stores: Store[] = [];
  const servers: Server[] = [];

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'switchboard-claims-'));
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const store of stores.splice(0)) await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function serve(store: Store): Promise<string> {
    const server = createServer(createApp({ store, logger: pino({ level: 'silent' }) }).callback());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
  }

  it('gives each key to exactly one of the racing instances', async () => {
    const file: StoreTarget = {
      name: 'sqlite file',
      available: true,
      open: async () => {
        const store = await openStore(`sqlite:${join(directory, 'hub.db')}`);
        stores.push(store);
        return store;
      },
    };
    const first = await startApp(file);
    const second = await serve(await file.open());
    const keys = Array.from({ length: 10 }, (_, index) => `discord:message:${index}`);
    const answers = await Promise.all(
      keys.flatMap((key) =>
        [first.baseUrl, second].map(async (baseUrl) => {
          const { body } = await claim(baseUrl, first.apiKey, { key, ttlSeconds: 60 });
          return { key, claimed: (body as { data: { claimed: boolean } }).data.claimed };
        }),
      ),
    );
    for (const key of keys) {
      expect(answers.filter((answer) => answer.key === key && answer.claimed)).toHaveLength(1);
    }
    expect((await held(second, first.apiKey, keys[0] ?? '')).body).toMatchObject({ data: { held: true } });
  });
});
