import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeStoreQuery } from '../../src/metrics.js';
import { timedStore } from '../../src/store/timed.js';
import type { Store } from '../../src/store/port.js';
import { bearer, call, createChatbotViaApi, readJson, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Operations: the request log line, GET /metrics and readiness.

const sqlite = storeTargets.find((target) => target.name === 'sqlite');
if (!sqlite) throw new Error('no SQLite store target');

/** Lines a logger writes, parsed. */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, destination) };
}

/** The value of one sample in Prometheus' text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((row) => row.startsWith(`${name}{`) && wanted.every((pair) => row.includes(pair)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('operations', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('logs one compact line per request: route pattern, status, request id, account id, no headers', async () => {
    const { lines, logger } = logLines();
    app = await startApp(sqlite, { logger });
    const chatbotId = await createChatbotViaApi(app, 'Logged', 'We open at nine.');
    lines.length = 0;

    const response = await fetch(`${app.baseUrl}/chatbots/${chatbotId}/contacts`, {
      headers: { ...bearer(app.apiKey), 'X-Request-Id': 'req-42', Cookie: 'session=hunter2' },
    });
    expect(response.status).toBe(200);
    expect((await fetch(`${app.baseUrl}/get-chatbots`, { headers: bearer('sb_wrong') })).status).toBe(401);
    expect((await fetch(`${app.baseUrl}/no-such-route`, { headers: bearer(app.apiKey) })).status).toBe(404);

    await vi.waitFor(() => expect(lines.filter((line) => line.msg === 'request')).toHaveLength(3));
    const [listed, refused, unknown] = lines.filter((line) => line.msg === 'request');
    expect(listed).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      requestId: 'req-42',
      method: 'GET',
      route: '/api/v1/chatbots/:chatbotId/contacts',
      status: 200,
      ms: expect.any(Number),
      accountId: app.accountId,
      msg: 'request',
    });
    // Refused by the key check, on its way to a route it found.
    expect(refused).toMatchObject({ level: 40, method: 'GET', route: '/api/v1/get-chatbots', status: 401 });
    expect(unknown).toMatchObject({ level: 40, method: 'GET', route: 'unmatched', status: 404 });
    expect(refused).not.toHaveProperty('accountId');
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/hunter2|sb_wrong|headers/);
    expect(text).not.toContain(app.apiKey);
  });

  it('serves Prometheus metrics that count requests by route, method and status, and chat replies', async () => {
    app = await startApp(sqlite, { wrapStore: (store) => timedStore(store, timeStoreQuery) });
    const chatbotId = await createChatbotViaApi(app, 'Measured', 'We open at nine and close at five.');
    const before = await (await fetch(`${app.origin}/metrics`)).text();
    const route = { method: 'GET', route: '/api/v1/get-chatbots', status: '200' };
    const countBefore = sample(before, 'switchboard_http_request_duration_seconds_count', route) ?? 0;
    const repliesBefore = sample(before, 'switchboard_chat_replies_total', { responder: 'offline', source: 'API' }) ?? 0;
    const listsBefore = sample(before, 'switchboard_store_query_duration_seconds_count', { operation: 'chatbots.list' }) ?? 0;

    for (let i = 0; i < 3; i += 1) expect((await fetch(`${app.baseUrl}/get-chatbots`, { headers: bearer(app.apiKey) })).status).toBe(200);
    const chat = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId,
      stream: true,
      messages: [{ role: 'user', content: 'When do you open?' }],
    });
    expect(chat.status).toBe(200);

    const response = await fetch(`${app.origin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(sample(text, 'switchboard_http_request_duration_seconds_count', route)).toBe(countBefore + 3);
    expect(sample(text, 'switchboard_chat_replies_total', { responder: 'offline', source: 'API' })).toBe(repliesBefore + 1);
    expect(sample(text, 'switchboard_store_query_duration_seconds_count', { operation: 'chatbots.list' })).toBe(listsBefore + 3);
    for (const name of [
      'switchboard_chat_first_token_seconds_count',
      'switchboard_chat_credits_used_total',
      'switchboard_retrieval_duration_seconds_count',
      'process_resident_memory_bytes',
    ]) {
      expect(text).toMatch(new RegExp(`^${name}(\\{[^}]*\\})? [1-9]`, 'm'));
    }
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    for (const name of ['switchboard_platform_events_total', 'switchboard_digest_runs_total', 'switchboard_webhook_runs_total']) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
  });

  it('wants METRICS_TOKEN as a bearer token when it is set', async () => {
    app = await startApp(sqlite, { metricsToken: 'metrics-secret' });
    for (const headers of [{}, bearer('wrong'), bearer('metrics-secret-and-more'), { Authorization: 'Basic metrics-secret' }]) {
      const refused = await fetch(`${app.origin}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain('switchboard_');
    }
    const allowed = await fetch(`${app.origin}/metrics`, { headers: bearer('metrics-secret') });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('switchboard_http_request_duration_seconds');
  });

  it('answers /readyz 503 when the store hangs rather than refuses (a stopped server waits out the driver’s timeouts)', async () => {
    app = await startApp(sqlite, { wrapStore: (store) => Object.assign(Object.create(store) as Store, { ping: () => new Promise<never>(() => undefined) }) });
    expect(await readJson(await fetch(`${app.origin}/readyz`))).toEqual({ status: 503, body: { status: 'unavailable', store: 'sqlite' } });
  });

  it('answers /readyz 503 with a JSON body once the store is closed, while /healthz stays 200', async () => {
    app = await startApp(sqlite);
    expect(await readJson(await fetch(`${app.origin}/readyz`))).toEqual({ status: 200, body: { status: 'ready', store: 'sqlite' } });
    await app.store.close();
    const response = await fetch(`${app.origin}/readyz`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await readJson(response)).toEqual({ status: 503, body: { status: 'unavailable', store: 'sqlite' } });
    expect(await readJson(await fetch(`${app.origin}/healthz`))).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
