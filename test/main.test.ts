import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '../src/domain/api-keys.js';
import { createWebhook } from '../src/domain/webhooks.js';
import { openStore } from '../src/store/index.js';
import { seedLead } from './jobs/helpers.js';
import { runAdmin, startMain, stop, tempDatabaseUrl } from './support/processes.js';
import { seedAccount, seedChatbot } from './support/seed.js';

const KEY = /sb_[A-Za-z0-9_-]{32}/;

async function listChatbots(apiUrl: string, key: string) {
  const response = await fetch(`${apiUrl}/get-chatbots`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('npm start', () => {
  it('creates the default account once, prints its key with a curl example, and serves it', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const first = await startMain({ DATABASE_URL });
    const key = KEY.exec(first.output())?.[0];
    expect(key).toBeDefined();
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${first.apiUrl}/get-chatbots`);
    expect(first.output()).toContain(`sign in to the console with it:\n  ${first.apiUrl.replace(/\/api\/v1$/, '')}/console\n`);
    expect(await listChatbots(first.apiUrl, key as string)).toEqual({ status: 200, body: { chatbots: [] } });
    expect(await stop(first.child)).toBe(0);
    // The key appears in the banner only, never in a log line (the request was logged, without headers).
    const logLines = first.output().split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.join('\n')).toContain('"route":"/api/v1/get-chatbots","status":200');
    expect(logLines.join('\n')).not.toContain(key);

    const second = await startMain({ DATABASE_URL });
    expect(second.output()).not.toMatch(KEY);
    expect((await listChatbots(second.apiUrl, key as string)).status).toBe(200);
    expect(await stop(second.child)).toBe(0);
  });

  it('honours BOOTSTRAP_API_KEY and prints no key', async () => {
    const bootstrap = 'sb_bootstrap_key_for_tests_000000000';
    const started = await startMain({ DATABASE_URL: tempDatabaseUrl(), BOOTSTRAP_API_KEY: bootstrap });
    expect(started.output()).not.toContain('shown only this once');
    expect(await listChatbots(started.apiUrl, bootstrap)).toEqual({ status: 200, body: { chatbots: [] } });
    expect((await listChatbots(started.apiUrl, 'sb_other')).status).toBe(401);
    expect(await stop(started.child)).toBe(0);
  });

  it('does not add back a revoked BOOTSTRAP_API_KEY, and warns in a sentence naming the variable, not the key', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const bootstrap = 'sb_bootstrap_key_for_tests_555555555';
    const first = await startMain({ DATABASE_URL, BOOTSTRAP_API_KEY: bootstrap });
    const other = (await runAdmin(['create-key', 'default', '--label', 'CI'], { DATABASE_URL })).stdout.trim().split('\n').at(-1) as string;
    const keys = (await (await fetch(`${first.apiUrl}/api-keys`, { headers: { Authorization: `Bearer ${other}` } })).json()) as {
      data: { id: string; label: string }[];
    };
    const revoked = keys.data.find((key) => key.label !== 'CI')?.id ?? '';
    const revoking = await fetch(`${first.apiUrl}/api-keys/${revoked}`, { method: 'DELETE', headers: { Authorization: `Bearer ${other}` } });
    expect(revoking.status).toBe(200);
    expect(await stop(first.child)).toBe(0);

    const second = await startMain({ DATABASE_URL, BOOTSTRAP_API_KEY: bootstrap });
    expect((await listChatbots(second.apiUrl, bootstrap)).status).toBe(401);
    expect(await stop(second.child)).toBe(0);
    const said = second.output().split('\n').filter((line) => line.includes('BOOTSTRAP_API_KEY'));
    expect(said.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'BOOTSTRAP_API_KEY names a key that was revoked, so it was not added again: set BOOTSTRAP_API_KEY to a new key, or unset it.',
      }),
    ]);
    expect(second.output()).not.toContain(bootstrap);
    expect(second.output()).not.toContain(hashApiKey(bootstrap));
  });

  it('loads the chat engine once it listens, before any question', async () => {
    const started = await startMain({ DATABASE_URL: tempDatabaseUrl(), BOOTSTRAP_API_KEY: 'sb_bootstrap_key_for_tests_222222222' });
    const loaded = () => started.output().includes('chat engine loaded');
    for (let waited = 0; !loaded() && waited < 15_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(loaded()).toBe(true);
    expect(started.output()).not.toContain('"route"');
    expect(await stop(started.child)).toBe(0);
  });

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const bootstrap = 'sb_bootstrap_key_for_tests_111111111';
    const started = await startMain({ DATABASE_URL: tempDatabaseUrl(), BOOTSTRAP_API_KEY: bootstrap });
    const body = JSON.stringify({ chatbotName: 'Big', sourceText: 'A paragraph of training text. '.repeat(200_000) });
    // The signal goes once the hub has read the request's head (its 100 Continue says so), so the
    // request is in flight however busy the machine: a wait of a few milliseconds was not always.
    const request = httpRequest(`${started.apiUrl}/create-chatbot`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bootstrap}`, 'Content-Type': 'application/json', Expect: '100-continue' },
    });
    const status = new Promise<number | undefined>((resolve, reject) => {
      request.once('response', (response) => resolve(response.resume().statusCode)).once('error', reject);
    });
    request.flushHeaders();
    await once(request, 'continue');
    const exited = stop(started.child);
    request.end(body);
    expect(await status).toBe(200);
    expect(await exited).toBe(0);
  });

  it('is no longer ready from the moment SIGTERM arrives, while a job still stops', async () => {
    // A webhook receiver that never answers: the delivery job's stop waits for it (up to its grace).
    const posted: IncomingMessage[] = [];
    const receiver = createServer((request) => void posted.push(request));
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const DATABASE_URL = tempDatabaseUrl();
    const store = await openStore(DATABASE_URL);
    const account = await seedAccount(store);
    const chatbot = await seedChatbot(store, account);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await createWebhook(store, account, { url, events: ['leads.submit'] }, { allowPrivate: true });
    await seedLead(store, chatbot, new Date());
    await store.close();
    try {
      const started = await startMain({ DATABASE_URL, WEBHOOK_ALLOW_PRIVATE: 'true', BOOTSTRAP_API_KEY: 'sb_bootstrap_key_for_tests_444444444' });
      await vi.waitFor(() => expect(posted).toHaveLength(1), { timeout: 10_000 });
      const exited = stop(started.child);
      await vi.waitFor(() => expect(started.output()).toContain('"msg":"shutting down"'));
      // Refused, or answered 503: a load balancer sends no more. It was 200 until the jobs had stopped.
      const readiness = await fetch(started.apiUrl.replace('/api/v1', '/readyz')).then((response) => response.status, () => 'refused');
      expect([503, 'refused']).toContain(readiness);
      expect(await exited).toBe(0);
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  it('stops as SIGTERM to `npm start` asks (a container runtime signals it alone), leaving no hub behind', async () => {
    const started = await startMain({ DATABASE_URL: tempDatabaseUrl(), BOOTSTRAP_API_KEY: 'sb_bootstrap_key_for_tests_333333333' }, { viaNpm: true });
    const hub = Number(/"pid":(\d+)/.exec(started.output())?.[1]);
    expect(hub).not.toBe(started.child.pid);
    expect(await stop(started.child)).toBe(0);
    expect(started.output()).toContain('"signal":"SIGTERM","msg":"shutting down"');
    // The shell npm runs the script in passed the signal to nobody: the hub served on, orphaned.
    expect(() => process.kill(hub, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('refuses in one plain sentence a BOOTSTRAP_API_KEY another account holds, exiting 1', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const key = (await runAdmin(['create-account', 'acme'], { DATABASE_URL })).stdout.trim().split('\n').at(-1) as string;
    await expect(startMain({ DATABASE_URL, BOOTSTRAP_API_KEY: key })).rejects.toThrow(
      new Error('exited 1 before listening:\nSwitchboard could not start: BOOTSTRAP_API_KEY already belongs to the account acme.\n'),
    );
  });

  // Each was an uncaught exception: a source excerpt and a stack, for MongoDB sixty lines of the driver's topology.
  it.each([
    ['a bad number', { PORT: 'eighty' }, 'Invalid configuration:\n  PORT: Invalid input: expected number, received NaN'],
    [
      'a database URL of another kind',
      { DATABASE_URL: 'postgres://db.example.com/switchboard' },
      'Invalid configuration:\n  DATABASE_URL: expected sqlite:PATH, sqlite::memory:, or a mongodb:// or mongodb+srv:// URL',
    ],
    ['a PUBLIC_URL without its scheme', { PUBLIC_URL: 'switchboard.example.com' }, 'Invalid configuration:\n  PUBLIC_URL: expected an http:// or https:// URL'],
    [
      'a MongoDB nobody answers at',
      { DATABASE_URL: 'mongodb://127.0.0.1:1/switchboard?serverSelectionTimeoutMS=200' },
      'the MongoDB database DATABASE_URL names cannot be reached (connect ECONNREFUSED 127.0.0.1:1).',
    ],
  ])('refuses to start on %s in one plain sentence, exiting 1', async (_name, env, why) => {
    const started = startMain({ DATABASE_URL: tempDatabaseUrl(), ...env });
    await expect(started).rejects.toThrow(new Error(`exited 1 before listening:\nSwitchboard could not start: ${why}\n`));
  });
});
