import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWebhook } from '../../src/domain/webhooks.js';
import { openStore } from '../../src/store/index.js';
import type { Webhook } from '../../src/store/port.js';
import { startMain, stop, tempDatabaseUrl } from '../support/processes.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver.js';
import { seedLead } from './helpers.js';

// Webhook delivery as deployed: `npm start` and the Procfile's `clock` process on one SQLite file,
// both delivering from the same outbox. Every lead reaches the receiver once.

const LEADS = 20;

let receiver: Receiver;
let databaseUrl: string;
let webhook: Webhook;

beforeEach(async () => {
  receiver = await startReceiver();
  databaseUrl = tempDatabaseUrl();
  const store = await openStore(databaseUrl);
  const account = await seedAccount(store);
  const chatbot = await seedChatbot(store, account);
  webhook = await createWebhook(store, account, { url: receiver.url, events: ['leads.submit'] }, { allowPrivate: true });
  for (let number = 0; number < LEADS; number += 1) await seedLead(store, chatbot, new Date());
  await store.close();
});
afterEach(async () => {
  await receiver.close();
});

it('`npm start` and a clock process on one database deliver each lead once', async () => {
  const env = { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'debug' };
  const clock = spawn(process.execPath, ['--import', 'tsx', 'jobs/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  clock.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  clock.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const web = await startMain(env);
  try {
    await new Promise<void>((resolve, reject) => {
      const give = setTimeout(() => reject(new Error(`${receiver.received.length} of ${LEADS} delivered`)), 20_000);
      const poll = setInterval(() => {
        if (receiver.received.length < LEADS) return;
        clearInterval(poll);
        clearTimeout(give);
        resolve();
      }, 20);
    });
  } finally {
    expect(await stop(web.child)).toBe(0);
    expect(await stop(clock)).toBe(0);
  }
  const ids = receiver.received.map((request) => request.headers['x-switchboard-event-id']);
  expect(ids).toHaveLength(LEADS);
  expect(new Set(ids).size).toBe(LEADS);
  expect(receiver.received.every((request) => verifies(webhook.secret, request))).toBe(true);
  expect(output + web.output()).toContain('webhook delivery started');
  expect(output + web.output()).not.toContain(webhook.secret);
});
