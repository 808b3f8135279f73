import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, type DeliveryOutcome } from '../../jobs/webhooks/dispatcher.js';
import { saveLead } from '../../src/domain/leads.js';
import { recordUnanswered } from '../../src/domain/unanswered.js';
import { createWebhook } from '../../src/domain/webhooks.js';
import type { Account, Chatbot, Store, WebhookEvent } from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedConversation } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { silent } from './helpers.js';

// The webhook job racing an erasure: it reads a new group of unanswered questions (or a new lead),
// the person is erased, and only then does it enqueue the event, after the erasure removed the
// deliveries there were. The event, which carries the erased person's words, is dropped unsent.

const T0 = new Date('2026-03-10T08:00:00.000Z');
const HOUR_MS = 3_600_000;

describe.each(storeTargets.filter((target) => target.available))('$name store: the webhook job racing an erasure', (target) => {
  let store: Store;
  let account: Account;
  let chatbot: Chatbot;
  let receiver: Receiver;

  beforeEach(async () => {
    store = await target.open();
    account = await seedAccount(store);
    chatbot = await seedChatbot(store, account);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await store.close();
  });

  const subscribe = (event: WebhookEvent) => createWebhook(store, account, { url: receiver.url, events: [event] }, { allowPrivate: true });
  /** The job on a store where `erase` runs after the job read what is new, before it enqueues the first event. */
  const dispatcherErasing = (erase: () => Promise<unknown>) => {
    let erased = false;
    const before = async () => {
      if (!erased) await erase();
      erased = true;
    };
    const { webhookOutbox } = store;
    const racing: Store = {
      ...store,
      webhookOutbox: {
        ...webhookOutbox,
        enqueue: (delivery) => before().then(() => webhookOutbox.enqueue(delivery)),
        announceLead: (...args) => before().then(() => webhookOutbox.announceLead(...args)),
      },
    };
    return createWebhookDispatcher({
      store: racing,
      logger: silent,
      now: () => T0,
      allowPrivate: true,
      timeoutMs: 1_000,
      retryForMs: 24 * HOUR_MS,
      disableAfterMs: 72 * HOUR_MS,
    });
  };
  /** Of the two events, the erased person's was dropped and is gone; the other was sent. */
  const expectOneDroppedOneSent = async (outcomes: DeliveryOutcome[], webhookId: string) => {
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['delivered', 'dropped']);
    expect(outcomes.every((outcome) => outcome.webhookId === webhookId)).toBe(true);
    const dropped = outcomes.find((outcome) => outcome.status === 'dropped');
    expect(await store.webhookOutbox.find(dropped?.deliveryId ?? '')).toBeUndefined();
  };
  const sentPayloads = () => receiver.received.map((request) => (JSON.parse(request.body) as { payload: { leadId?: string; group?: { id: string } } }).payload);

  it('drops the unanswered.created of a group whose conversation is erased once the job read it', async () => {
    const webhook = await subscribe('unanswered.created');
    const asked = (conversationId: string) => ({ conversationId, messageId: null, source: 'Widget or Iframe' as const, askedAt: T0 });
    await seedConversation(store, chatbot, 'c-erased', T0);
    await seedConversation(store, chatbot, 'c-kept', T0);
    await recordUnanswered(store, chatbot, 'I am Cy, was my card charged twice?', asked('c-erased'));
    await recordUnanswered(store, chatbot, 'Do you sell gift cards?', asked('c-kept'));
    const [kept] = (await store.unanswered.list(chatbot.id, {}, { page: 1, size: 10 })).filter((group) => group.examples[0]?.conversationId === 'c-kept');

    const outcomes = await dispatcherErasing(() => store.conversations.delete(chatbot.id, 'c-erased')).tick();

    expect(await store.conversations.find(chatbot.id, 'c-erased')).toBeUndefined();
    await expectOneDroppedOneSent(outcomes, webhook.id);
    expect(sentPayloads().map((payload) => payload.group?.id)).toEqual([kept?.id]);
  });

  it('drops the leads.submit of a lead erased once the job read it', async () => {
    const webhook = await subscribe('leads.submit');
    const erased = await saveLead(store, chatbot, { name: 'Cy', email: 'cy@example.com', phone: null });
    const kept = await saveLead(store, chatbot, { name: 'Ada', email: 'ada@example.com', phone: null });

    const outcomes = await dispatcherErasing(() => store.leads.delete(chatbot.id, erased.id)).tick();

    expect(await store.leads.find(chatbot.id, erased.id)).toBeUndefined();
    await expectOneDroppedOneSent(outcomes, webhook.id);
    expect(sentPayloads().map((payload) => payload.leadId)).toEqual([kept.id]);
  });
});
