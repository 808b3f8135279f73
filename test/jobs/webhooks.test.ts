import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, type DispatcherOptions } from '../../jobs/webhooks/dispatcher.js';
import { saveLead } from '../../src/domain/leads.js';
import { recordUnanswered } from '../../src/domain/unanswered.js';
import { leadSubmitted } from '../../src/domain/webhook-events.js';
import { createWebhook } from '../../src/domain/webhooks.js';
import { openStore } from '../../src/store/index.js';
import type { Account, Chatbot, Store, Webhook } from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedConversation } from '../support/seed.js';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver.js';
import { manualClock, plusMinutes, silent } from './helpers.js';

// Webhook delivery end to end: leads saved the way every lead is, the real job signing and POSTing
// over HTTP to a local receiver, stores on a real SQLite file (so a restart or a second hub is a
// second store on the same file). The clock is the test's; only the receive timeout is real.

const T0 = new Date('2026-03-10T08:00:00.000Z');
const HOUR_MS = 3_600_000;
const TIMEOUT_MS = 300;

let dir: string;
let file: string;
let store: Store;
let account: Account;
let chatbot: Chatbot;
let receiver: Receiver;
let clock: ReturnType<typeof manualClock>;
const opened: Store[] = [];

const open = async () => {
  const opening = await openStore(`sqlite:${file}`);
  opened.push(opening);
  return opening;
};
const dispatcher = (overrides: Partial<DispatcherOptions> = {}) =>
  createWebhookDispatcher({
    store,
    logger: silent,
    now: clock.now,
    allowPrivate: true,
    timeoutMs: TIMEOUT_MS,
    retryForMs: 24 * HOUR_MS,
    disableAfterMs: 72 * HOUR_MS,
    backoff: { baseMs: 60_000, maxMs: HOUR_MS },
    ...overrides,
  });
const subscribe = () => createWebhook(store, account, { url: receiver.url, events: ['leads.submit'] }, { allowPrivate: true });
const newLead = (number = 1) =>
  saveLead(store, chatbot, { name: `Ada ${number}`, email: `ada${number}@example.com`, phone: '+47 400 00 001' });
const eventIds = () => receiver.received.map((request) => request.headers['x-switchboard-event-id']);
const advance = (minutes: number) => clock.set(plusMinutes(clock.now(), minutes));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchboard-webhooks-'));
  file = join(dir, 'hub.db');
  store = await open();
  account = await seedAccount(store);
  chatbot = await seedChatbot(store, account);
  receiver = await startReceiver();
  clock = manualClock(T0);
});
afterEach(async () => {
  await receiver.close();
  for (const each of opened.splice(0)) await each.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('delivery', () => {
  it('POSTs leads.submit signed with the secret, once', async () => {
    const webhook = await subscribe();
    const lead = await newLead();
    const outcomes = await dispatcher().tick();
    expect(outcomes).toEqual([{ deliveryId: expect.any(String), webhookId: webhook.id, status: 'delivered' }]);

    const [request] = receiver.received;
    if (!request) throw new Error('nothing received');
    expect(verifies(webhook.secret, request)).toBe(true);
    expect(verifies('whsec_another', request)).toBe(false);
    expect(verifies(webhook.secret, { ...request, body: request.body.replace('Ada 1', 'Eve 1') })).toBe(false);
    expect(request.headers['x-switchboard-timestamp']).toBe(String(T0.getTime() / 1000));
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      id: outcomes[0]?.deliveryId,
      createdAt: lead.createdAt.toISOString(),
      eventType: 'leads.submit',
      chatbotId: chatbot.id,
      payload: {
        leadId: lead.id,
        conversationId: null,
        customerEmail: 'ada1@example.com',
        customerName: 'Ada 1',
        customerPhone: '+47 400 00 001',
        revision: 1,
      },
    });
    expect(request.headers['x-switchboard-event-id']).toBe(outcomes[0]?.deliveryId);

    advance(60 * 24 * 2);
    expect(await dispatcher().tick()).toEqual([]);
    expect(receiver.received).toHaveLength(1);
  });

  it('POSTs unanswered.created, signed, once per new group (not when its count grows), with the ask that opened it', async () => {
    const webhook = await createWebhook(store, account, { url: receiver.url, events: ['unanswered.created'] }, { allowPrivate: true });
    await subscribe();
    const opening = { conversationId: 'c-1', messageId: '7', source: 'Slack' as const, askedAt: T0 };
    await seedConversation(store, chatbot, 'c-1', T0);
    await recordUnanswered(store, chatbot, 'Do you sell gift cards?', opening);
    await recordUnanswered(store, chatbot, 'Can I buy a gift card?', { ...opening, messageId: '9' });
    const [group] = await store.unanswered.list(chatbot.id, {}, { page: 1, size: 10 });
    const outcomes = await dispatcher().tick();
    expect(outcomes).toEqual([{ deliveryId: expect.any(String), webhookId: webhook.id, status: 'delivered' }]);
    const [request] = receiver.received;
    if (!request) throw new Error('nothing received');
    expect(verifies(webhook.secret, request)).toBe(true);
    expect(JSON.parse(request.body)).toEqual({
      id: outcomes[0]?.deliveryId,
      createdAt: T0.toISOString(),
      eventType: 'unanswered.created',
      chatbotId: chatbot.id,
      payload: {
        group: {
          id: group?.id,
          question: 'Do you sell gift cards?',
          count: 2,
          firstAskedAt: T0.toISOString(),
          lastAskedAt: T0.toISOString(),
          status: 'open',
        },
        example: { conversationId: 'c-1', messageId: '7', source: 'Slack', askedAt: T0.toISOString() },
      },
    });

    await recordUnanswered(store, chatbot, 'Do you sell gift cards?', opening);
    await recordUnanswered(store, chatbot, 'Is there parking nearby?', opening);
    advance(1);
    expect(await dispatcher().tick()).toHaveLength(1);
    expect(JSON.parse(receiver.received[1]?.body ?? '{}').payload.group.question).toBe('Is there parking nearby?');
  });

  it('sends a lead only to the webhooks of its account that subscribe to its chatbot', async () => {
    const everyChatbot = await subscribe();
    const other = await seedChatbot(store, account);
    await createWebhook(store, account, { url: receiver.url, events: ['leads.submit'], chatbotId: other.id }, { allowPrivate: true });
    const stranger = await seedAccount(store);
    await createWebhook(store, stranger, { url: receiver.url, events: ['leads.submit'] }, { allowPrivate: true });
    await newLead();
    const outcomes = await dispatcher().tick();
    expect(outcomes.map((outcome) => outcome.webhookId)).toEqual([everyChatbot.id]);
  });

  it('retries after a 500 with the same event, id and body, when the backoff has passed', async () => {
    const webhook = await subscribe();
    await newLead();
    receiver.answer(500);
    const hub = dispatcher();
    const [first] = await hub.tick();
    expect(first?.status).toBe('pending');
    expect(await hub.tick()).toEqual([]);
    expect(receiver.received).toHaveLength(1);

    advance(2);
    const [second] = await hub.tick();
    expect(second).toEqual({ ...first, status: 'delivered' });
    const [failed, delivered] = receiver.received;
    expect(delivered?.body).toBe(failed?.body);
    expect(eventIds()).toEqual([first?.deliveryId, first?.deliveryId]);
    expect(delivered && verifies(webhook.secret, delivered)).toBe(true);

    const attempts = await store.webhookOutbox.attempts(webhook.id, { page: 1, size: 10 });
    expect(attempts.map(({ attempt, status, responseStatus }) => ({ attempt, status, responseStatus }))).toEqual([
      { attempt: 2, status: 'delivered', responseStatus: 200 },
      { attempt: 1, status: 'pending', responseStatus: 500 },
    ]);
  });

  it('retries a receiver that does not answer in time', async () => {
    const webhook = await subscribe();
    await newLead();
    receiver.answer('hang');
    const hub = dispatcher();
    const [first] = await hub.tick();
    expect(first?.status).toBe('pending');
    const [timedOut] = await store.webhookOutbox.attempts(webhook.id, { page: 1, size: 1 });
    expect(timedOut).toMatchObject({ responseStatus: null, error: `no answer within ${TIMEOUT_MS} ms` });

    advance(2);
    expect((await hub.tick()).map((outcome) => outcome.status)).toEqual(['delivered']);
    expect(eventIds()).toEqual([first?.deliveryId, first?.deliveryId]);
  });

  it('gives an event up after the retry period, and disables a webhook that fails for days, saying why', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const webhook = await subscribe();
    const hub = dispatcher({ logger, retryForMs: 2 * HOUR_MS, disableAfterMs: 6 * HOUR_MS });
    receiver.answer(...Array.from({ length: 200 }, () => 503));
    await newLead(1);
    let given: string | undefined;
    for (let step = 0; step < 40 && !given; step += 1) {
      for (const outcome of await hub.tick()) if (outcome.status === 'failed') given = outcome.deliveryId;
      advance(30);
    }
    expect(given).toBeDefined();
    expect(await store.webhookOutbox.find(given ?? '')).toMatchObject({ status: 'failed' });
    expect((await store.webhooks.findById(webhook.id))?.enabled).toBe(true);

    for (let number = 2; number < 12 && (await store.webhooks.findById(webhook.id))?.enabled; number += 1) {
      await newLead(number);
      await hub.tick();
      advance(60);
    }
    const disabled = await store.webhooks.findById(webhook.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('every delivery failed for 6 hours') });
    expect(lines.some((line) => line.includes('webhook disabled') && line.includes(webhook.id))).toBe(true);
    expect(lines.join('')).not.toContain(webhook.secret);

    // A disabled webhook gets nothing more, and its queued events end as failed.
    const sent = receiver.received.length;
    await newLead(99);
    advance(60 * 24);
    await hub.tick();
    expect(receiver.received).toHaveLength(sent);
  });
});

describe('exactly once across restarts and hubs', () => {
  it('a restart in the middle of the retries still delivers once', async () => {
    await subscribe();
    await newLead();
    receiver.answer(500);
    const [first] = await dispatcher({ processId: 'before-restart' }).tick();
    expect(first?.status).toBe('pending');
    await store.close();

    store = await open();
    const afterRestart = dispatcher({ processId: 'after-restart' });
    advance(2);
    expect((await afterRestart.tick()).map((outcome) => outcome.status)).toEqual(['delivered']);
    advance(60 * 24 * 2);
    expect(await afterRestart.tick()).toEqual([]);
    expect(receiver.received.map((request) => request.answered)).toEqual([500, 200]);
    expect(new Set(eventIds()).size).toBe(1);
  });

  it('a hub that dies holding a delivery leaves it to another when its lease ends', async () => {
    const webhook = await subscribe();
    const lead = await newLead();
    // What the crashed hub's pass did before it died: enqueue the event and claim it, never sending.
    const event = leadSubmitted(webhook, { ...lead, revision: 1 }, clock.now());
    await store.webhookOutbox.announceLead(lead.id, 1, [event]);
    await store.webhookOutbox.claimDue({ now: clock.now(), claimedBy: 'crashed', leaseUntil: plusMinutes(clock.now(), 1), limit: 10 });

    const survivor = dispatcher({ processId: 'survivor' });
    expect(await survivor.tick()).toEqual([]);
    advance(2);
    expect(await survivor.tick()).toEqual([{ deliveryId: event.id, webhookId: webhook.id, status: 'delivered' }]);
    advance(60 * 24 * 2);
    expect(await survivor.tick()).toEqual([]);
    expect(eventIds()).toEqual([event.id]);
  });

  it('two hubs on one database deliver each event once', async () => {
    await subscribe();
    for (let number = 1; number <= 30; number += 1) await newLead(number);
    const first = dispatcher({ processId: 'hub-a', store });
    const second = dispatcher({ processId: 'hub-b', store: await open() });
    for (let round = 0; round < 4; round += 1) await Promise.all([first.tick(), second.tick()]);
    const ids = eventIds();
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});

describe('the address rule at delivery', () => {
  // Written past the API's check, as a name whose DNS answer changed after creation would be.
  const stored = async (url: string): Promise<Webhook> => {
    const webhook = await subscribe();
    await store.webhooks.delete(account.id, webhook.id);
    const changed = { ...webhook, url };
    await store.webhooks.create(changed);
    return changed;
  };

  it.each([
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/hook`, 'resolves to'],
    ['a loopback address', (port: number) => `http://127.0.0.1:${port}/hook`, 'loopback'],
    ['an IPv4-mapped loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`, 'loopback'],
  ])('refuses %s unless private receivers are allowed', async (_name, url, reason) => {
    const webhook = await stored(url(receiver.port));
    await newLead();
    const [refused] = await dispatcher({ allowPrivate: false }).tick();
    expect(refused?.status).toBe('pending');
    expect(receiver.received).toEqual([]);
    const [attempt] = await store.webhookOutbox.attempts(webhook.id, { page: 1, size: 1 });
    expect(attempt?.error).toContain(reason);

    advance(2);
    expect((await dispatcher({ allowPrivate: true }).tick()).map((outcome) => outcome.status)).toEqual(['delivered']);
  });
});
