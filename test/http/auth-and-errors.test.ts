import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, flatLineLogger } from '../../src/logger.js';
import type { Store } from '../../src/store/port.js';
import {
  bearer,
  call,
  createChatbotViaApi,
  IMAGES,
  imageForm,
  INTERNAL,
  NO_KEY,
  NOT_FOUND,
  readJson,
  startApp,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// What the production logger (createLogger) writes, line by line.
const captured = (() => {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
})();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Endpoint = { name: string; send(url: string, headers: Record<string, string>, chatbotId: string): Promise<Response> };

const jsonCall = (method: string, path: string, body: (id: string) => unknown): Endpoint => ({
  name: `${method} /${path}`,
  send: (url, headers, id) =>
    fetch(`${url}/${path}`, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body(id)),
    }),
});
const uploadCall = (path: string, part: string): Endpoint => ({
  name: `POST /${path}`,
  send: (url, headers, id) =>
    fetch(`${url}/${path}`, {
      method: 'POST',
      headers,
      body: imageForm(id, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }),
    }),
});

const ENDPOINTS: Endpoint[] = [
  jsonCall('POST', 'create-chatbot', () => ({ chatbotName: 'Intruder', sourceText: 'text' })),
  jsonCall('POST', 'update-chatbot-data', (id) => ({ chatbotId: id, chatbotName: 'Intruder', sourceText: 'text' })),
  jsonCall('POST', 'update-chatbot-settings', (id) => ({ chatbotId: id, name: 'Intruder', visibility: 'public' })),
  {
    name: 'GET /get-chatbots',
    send: (url, headers) => fetch(`${url}/get-chatbots`, { headers }),
  },
  jsonCall('DELETE', 'delete-chatbot', (id) => ({ chatbotId: id })),
  uploadCall('upload-chatbot-profile-picture', 'profilePictureFile'),
  uploadCall('upload-chatbot-icon', 'chatbotIconFile'),
  jsonCall('DELETE', 'delete-chatbot-profile-picture', (id) => ({ chatbotId: id })),
];

const BAD_CREDENTIALS: [string, (apiKey: string) => Record<string, string>][] = [
  ['no Authorization header', () => ({})],
  ['a Basic credential', () => ({ Authorization: 'Basic xyz' })],
  ['a valid key under the Basic scheme', (apiKey) => ({ Authorization: `Basic ${apiKey}` })],
  ['Bearer with no token', () => ({ Authorization: 'Bearer' })],
  ['Bearer with a blank token', () => ({ Authorization: 'Bearer    ' })],
  ['an unknown key', () => ({ Authorization: 'Bearer sb_unknown' })],
  ['a valid key with a character added', (apiKey) => ({ Authorization: `Bearer ${apiKey}x` })],
  ['a bare key without a scheme', (apiKey) => ({ Authorization: apiKey })],
];

/** A view of the store whose chatbot listing fails like a broken database would. */
function withFailingList(store: Store): Store {
  const chatbots = new Proxy(store.chatbots, {
    get(repo, property) {
      if (property === 'list') return () => Promise.reject(new Error('boom at /secret/path'));
      const value: unknown = Reflect.get(repo, property, repo);
      return typeof value === 'function' ? value.bind(repo) : value;
    },
  });
  return new Proxy(store, {
    get(target, property) {
      if (property === 'chatbots') return chatbots;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  describe('authentication', () => {
    let app: TestApp;
    let chatbotId: string;

    beforeEach(async () => {
      app = await startApp(target);
      chatbotId = await createChatbotViaApi(app, 'Guarded', 'Guarded material.');
      const form = imageForm(chatbotId, 'profilePictureFile', { bytes: IMAGES.gif, name: 'a.gif', type: 'image/gif' });
      const uploaded = await fetch(`${app.baseUrl}/upload-chatbot-profile-picture`, {
        method: 'POST',
        headers: bearer(app.apiKey),
        body: form,
      });
      expect(uploaded.status).toBe(200);
    });
    afterEach(async () => {
      await app.close();
    });

    describe.each(ENDPOINTS)('$name', (endpoint) => {
      it.each(BAD_CREDENTIALS)('answers 401 for %s and changes nothing', async (_case, headers) => {
        const before = await app.store.chatbots.find(app.accountId, chatbotId);
        const response = await endpoint.send(app.baseUrl, headers(app.apiKey), chatbotId);
        expect(await readJson(response)).toEqual({ status: 401, body: NO_KEY });
        expect(response.headers.get('x-request-id')).toMatch(UUID);

        expect((await app.store.chatbots.list(app.accountId)).map((listed) => listed.id)).toEqual([chatbotId]);
        expect(await app.store.chatbots.find(app.accountId, chatbotId)).toEqual(before);
        expect(await app.store.training.sourceText(chatbotId)).toBe('Guarded material.');
        expect((await app.store.assets.get(chatbotId, 'profile-picture'))?.contentType).toBe('image/gif');
        expect(await app.store.assets.get(chatbotId, 'icon')).toBeUndefined();
      });
    });

    it('checks the key before the body', async () => {
      const response = await fetch(`${app.baseUrl}/create-chatbot`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"chatbotName":',
      });
      expect(await readJson(response)).toEqual({ status: 401, body: NO_KEY });
    });

    it('accepts a key of any account, scoped to that account', async () => {
      const other = await app.addAccount('other');
      expect(await call('GET', `${app.baseUrl}/get-chatbots`, other.apiKey)).toEqual({
        status: 200,
        body: { chatbots: [] },
      });
    });
  });

  describe('routing, health and request ids', () => {
    let app: TestApp;

    beforeEach(async () => {
      app = await startApp(target);
    });
    afterEach(async () => {
      await app.close();
    });

    it.each([
      ['GET /api/v1/nope with a key', '/api/v1/nope', true],
      ['GET /api/v1/nope without a key', '/api/v1/nope', false],
      ['GET /nope', '/nope', false],
      ['GET /', '/', false],
      ['GET /assets/chatbots/x/banner', '/assets/chatbots/x/banner', false],
    ])('answers 404 with the contract body for %s', async (_case, path, withKey) => {
      const response = await fetch(app.origin + path, { headers: withKey ? bearer(app.apiKey) : {} });
      expect(await readJson(response)).toEqual({ status: 404, body: NOT_FOUND });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('answers GET /healthz and /readyz with 200 while the store answers', async () => {
      expect(await readJson(await fetch(`${app.origin}/healthz`))).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await readJson(await fetch(`${app.origin}/readyz`))).toEqual({
        status: 200,
        body: { status: 'ready', store: app.store.engine },
      });
    });

    it('answers GET /readyz with 503 when the store does not answer; /healthz stays 200', async () => {
      const failing = await startApp(target, {
        wrapStore: (store) =>
          new Proxy(store, {
            get(t, property) {
              if (property === 'ping') return () => Promise.reject(new Error('connection refused'));
              const value: unknown = Reflect.get(t, property, t);
              return typeof value === 'function' ? value.bind(t) : value;
            },
          }),
      });
      try {
        const response = await fetch(`${failing.origin}/readyz`);
        expect(await readJson(response)).toEqual({
          status: 503,
          body: { status: 'unavailable', store: failing.store.engine },
        });
        expect((await fetch(`${failing.origin}/healthz`)).status).toBe(200);
      } finally {
        await failing.close();
      }
    });

    it('answers GET /readyz with 503 once the hub is stopping, the store answering; /healthz stays 200', async () => {
      const stopping = await startApp(target, { stopping: () => true });
      try {
        expect(await readJson(await fetch(`${stopping.origin}/readyz`))).toEqual({ status: 503, body: { status: 'unavailable', store: stopping.store.engine } });
        expect((await fetch(`${stopping.origin}/healthz`)).status).toBe(200);
      } finally {
        await stopping.close();
      }
    });

    it('puts a fresh X-Request-Id on every response', async () => {
      const responses = await Promise.all([
        fetch(`${app.origin}/healthz`),
        fetch(`${app.baseUrl}/get-chatbots`, { headers: bearer(app.apiKey) }),
        fetch(`${app.baseUrl}/get-chatbots`),
        fetch(`${app.baseUrl}/create-chatbot`, { method: 'POST', headers: bearer(app.apiKey), body: '{' }),
        fetch(`${app.origin}/nope`),
        fetch(`${app.origin}/assets/chatbots/x/icon`),
      ]);
      expect(responses.map((response) => response.status)).toEqual([200, 200, 401, 400, 404, 404]);
      const ids = responses.map((response) => response.headers.get('x-request-id'));
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("echoes a caller's X-Request-Id", async () => {
      for (const url of [`${app.baseUrl}/get-chatbots`, `${app.origin}/nope`, `${app.origin}/healthz`]) {
        const response = await fetch(url, { headers: { ...bearer(app.apiKey), 'X-Request-Id': 'abc-123' } });
        expect(response.headers.get('x-request-id')).toBe('abc-123');
      }
      const unauthorised = await fetch(`${app.baseUrl}/get-chatbots`, { headers: { 'X-Request-Id': 'abc-123' } });
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.headers.get('x-request-id')).toBe('abc-123');
    });

    it('replaces an X-Request-Id that is not a sane token', async () => {
      for (const given of ['has spaces in it', 'x'.repeat(129), '<script>']) {
        const response = await fetch(`${app.origin}/healthz`, { headers: { 'X-Request-Id': given } });
        expect(response.headers.get('x-request-id')).toMatch(UUID);
      }
    });
  });

  describe('server failures', () => {
    it('answers 500 with the contract body and nothing of the error', async () => {
      const app = await startApp(target, { wrapStore: withFailingList });
      try {
        const response = await fetch(`${app.baseUrl}/get-chatbots`, {
          headers: { ...bearer(app.apiKey), 'X-Request-Id': 'failing-1' },
        });
        expect(response.status).toBe(500);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('x-request-id')).toBe('failing-1');
        const text = await response.text();
        expect(JSON.parse(text)).toEqual(INTERNAL);
        expect(text).not.toMatch(/boom|secret|stack|Error|at /);

        // The rest of the API is unaffected.
        expect((await call('POST', `${app.baseUrl}/create-chatbot`, app.apiKey, { chatbotName: 'Bot', sourceText: '' })).status).toBe(200);
      } finally {
        await app.close();
      }
    });
  });

  describe('logging', () => {
    it('never writes an API key or the Authorization header into the log', async () => {
      captured.lines.length = 0;
      const app = await startApp(target, { logger: createLogger('debug', { pretty: false, destination: captured.stream }) });
      let requests = 0;
      const send = async (path: string, init: RequestInit = {}) => {
        requests += 1;
        const response = await fetch(app.baseUrl + path, init);
        await response.arrayBuffer();
        return response.status;
      };
      try {
        const json = { ...bearer(app.apiKey), 'Content-Type': 'application/json', 'X-Request-Id': 'logged-1' };
        expect(await send('/create-chatbot', { method: 'POST', headers: json, body: '{"chatbotName":"Logged","sourceText":"x"}' })).toBe(200);
        expect(await send('/get-chatbots', { headers: bearer(app.apiKey) })).toBe(200);
        expect(await send('/create-chatbot', { method: 'POST', headers: json, body: '{"broken' })).toBe(400);
        expect(await send('/update-chatbot-settings', { method: 'POST', headers: json, body: '{"chatbotId":"none"}' })).toBe(404);
        expect(await send('/get-chatbots', { headers: bearer(`${app.apiKey}zz`) })).toBe(401);
        // A key sent where no key belongs must not be logged either.
        expect(await send('/get-chatbots', { headers: { Authorization: `Basic ${app.apiKey}` } })).toBe(401);
        await vi.waitFor(() => {
          const completed = captured.lines.filter((line) => line.includes('"msg":"request"'));
          expect(completed.length).toBeGreaterThanOrEqual(requests);
        });
      } finally {
        await app.close();
      }

      const log = captured.lines.join('');
      expect(captured.lines.length).toBeGreaterThanOrEqual(requests);
      expect(log).not.toMatch(/"headers"|Bearer |Basic /);
      expect(log).toContain('logged-1');
      expect(log).not.toContain(app.apiKey);
      expect(log).not.toContain(app.apiKey.slice(3));
      for (const line of captured.lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    });

    // createApp is handed its logger; the Authorization header must not depend on that logger's
    // own redaction settings (a plain pino logger is what tests, tools and future adapters pass).
    it('logs no Authorization header even with a logger that has no redaction of its own', async () => {
      const lines: string[] = [];
      const destination = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      });
      const app = await startApp(target, { logger: pino({ level: 'debug' }, destination) });
      try {
        const statuses = [];
        for (const headers of [bearer(app.apiKey), bearer(`${app.apiKey}zz`), { Authorization: `Basic ${app.apiKey}` }]) {
          const response = await fetch(`${app.baseUrl}/get-chatbots`, { headers });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        expect(statuses).toEqual([200, 401, 401]);
        await vi.waitFor(() => expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(3));
      } finally {
        await app.close();
      }
      const log = lines.join('');
      expect(log).not.toContain(app.apiKey);
      expect(log).not.toMatch(/"headers"|Bearer |Basic /);
    });

    it('redacts secrets in whatever else is logged', () => {
      captured.lines.length = 0;
      createLogger('info', { pretty: false, destination: captured.stream }).info({ apiKey: 'sb_secret1', integration: { token: 'xoxb-secret2' } }, 'configured');
      const log = captured.lines.join('');
      expect(log).toContain('configured');
      expect(log).not.toMatch(/secret1|secret2/);
      expect(log.match(/\[redacted\]/g)).toHaveLength(2);
    });

    it('redacts named secrets on the request line’s logger too', () => {
      captured.lines.length = 0;
      flatLineLogger(createLogger('info', { pretty: false, destination: captured.stream })).info({ apiKey: 'sb_secret1', token: 'secret2' }, 'flat');
      const log = captured.lines.join('');
      expect(log).toContain('flat');
      expect(log).not.toMatch(/secret1|secret2/);
      expect(log.match(/\[redacted\]/g)).toHaveLength(2);
    });
  });
});

describe('test doubles', () => {
  it('the failing store view really fails only the listing', async () => {
    const target = storeTargets[0];
    if (!target) throw new Error('no store target');
    const store = await target.open();
    try {
      const view = withFailingList(store);
      await expect(view.chatbots.list('any')).rejects.toThrow('boom at /secret/path');
      await expect(view.chatbots.find('any', 'id')).resolves.toBeUndefined();
      expect(view.engine).toBe(store.engine);
    } finally {
      await store.close();
    }
  });
});
