import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher, type DeliveryOutcome } from '../../jobs/webhooks/dispatcher.js';
import { requestHandoff, resolveHandoff } from '../../src/domain/handoff.js';
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
// So is a handoff event of an erased conversation, whether the handoff was requested or resolved
// as the conversation was erased, or the job claimed its delivery just before; and so it stays
// when a new chat takes up the erased conversation's id and asks for a person before it is sent,
// whatever the clock of the process that took it up says.

const T0 = new Date('2026-03-10T08:00:00.000Z');
const HOUR_MS = 3_600_000;
const REUSED_AT = new Date(T0.getTime() + HOUR_MS);
/** When a new chat takes up the erased conversation's id, by the clock of the process it is in. */
const REUSES = [
  { when: 'an hour later', at: REUSED_AT },
  { when: 'in a process whose clock is a minute behind', at: new Date(T0.getTime() - 60_000) },
  { when: 'in a process whose clock reads the same millisecond', at: T0 },
];

/** `erase` the first time the answer is called, nothing after. */
function once(erase: () => Promise<unknown>): () => Promise<void> {
  let erased = false;
  return async () => {
    if (!erased) await erase();
    erased = true;
  };
}

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
  /**
   * The store where `erase` runs once, at the first of: the outbox about to take a delivery (the
   * job read what is new, or a handoff changed, before the erasure), or the job having claimed
   * what is due.
   */
  const erasing = (erase: () => Promise<unknown>): Store => {
    const before = once(erase);
    const { webhookOutbox } = store;
    return {
      ...store,
      webhookOutbox: {
        ...webhookOutbox,
        enqueue: (delivery) => before().then(() => webhookOutbox.enqueue(delivery)),
        announceLead: (...args) => before().then(() => webhookOutbox.announceLead(...args)),
        claimDue: (claim) => webhookOutbox.claimDue(claim).then(async (due) => {
          await before();
          return due;
        }),
      },
    };
  };
  /** The store where `erase` runs once, as the job looks up the webhook: it asked and is about to connect to the receiver. */
  const erasingAsItSends = (erase: () => Promise<unknown>): Store => {
    const before = once(erase);
    const { webhooks } = store;
    return { ...store, webhooks: { ...webhooks, findById: (id) => before().then(() => webhooks.findById(id)) } };
  };
  /** The job on `racing`, on the real clock: a handoff handed back is announced at the time it happens. */
  const dispatcherOn = (racing: Store) =>
    createWebhookDispatcher({
      store: racing,
      logger: silent,
      allowPrivate: true,
      timeoutMs: 1_000,
      retryForMs: 24 * HOUR_MS,
      disableAfterMs: 72 * HOUR_MS,
    });
  /** The job on a store where `erase` runs as `erasing` says. */
  const dispatcherErasing = (erase: () => Promise<unknown>) => dispatcherOn(erasing(erase));
  /** Of the two events, the erased person's was dropped and is gone; the other was sent. */
  const expectOneDroppedOneSent = async (outcomes: DeliveryOutcome[], webhookId: string) => {
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['delivered', 'dropped']);
    expect(outcomes.every((outcome) => outcome.webhookId === webhookId)).toBe(true);
    const dropped = outcomes.find((outcome) => outcome.status === 'dropped');
    expect(await store.webhookOutbox.find(dropped?.deliveryId ?? '')).toBeUndefined();
  };
  const sentPayloads = () =>
    receiver.received.map((request) => (JSON.parse(request.body) as { payload: { leadId?: string; group?: { id: string }; conversationId?: string } }).payload);
  const eraseConversation = (id: string) => () => store.conversations.delete(chatbot.id, id);
  /** Erases the conversation; a new chat then takes up its id at `at` and asks for a person. */
  const eraseAndReuse = (id: string, at: Date) => async () => {
    await store.conversations.delete(chatbot.id, id);
    await seedConversation(store, chatbot, id, at);
    await requestHandoff(store, chatbot, id, at);
  };
  const sentHandoffs = () =>
    receiver.received.map((request) => {
      const { payload } = JSON.parse(request.body) as { payload: { conversationId: string; handoff: { requested_at: string } } };
      return `${payload.conversationId} ${payload.handoff.requested_at}`;
    });
  /** Two conversations, each with a person asked for. */
  const handedOver = async (announcing: Store = store) => {
    for (const id of ['c-erased', 'c-kept']) await seedConversation(store, chatbot, id, T0);
    await requestHandoff(announcing, chatbot, 'c-erased', T0);
    await requestHandoff(store, chatbot, 'c-kept', T0);
  };
  /** The erased conversation's event was dropped, the other one's sent, and the erased conversation is gone. */
  const expectKeptOnlySent = async (outcomes: DeliveryOutcome[], webhookId: string) => {
    expect(await store.conversations.find(chatbot.id, 'c-erased')).toBeUndefined();
    await expectOneDroppedOneSent(outcomes, webhookId);
    expect(sentPayloads().map((payload) => payload.conversationId)).toEqual(['c-kept']);
  };

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

  it('withdraws the leads.submit of a lead erased as the job connects to the receiver, writing nothing', async () => {
    const webhook = await subscribe('leads.submit');
    const erased = await saveLead(store, chatbot, { name: 'Cy', email: 'cy@example.com', phone: null });

    const outcomes = await dispatcherOn(erasingAsItSends(() => store.leads.delete(chatbot.id, erased.id))).tick();

    expect(await store.leads.find(chatbot.id, erased.id)).toBeUndefined();
    expect(outcomes.map((outcome) => [outcome.status, outcome.webhookId])).toEqual([['dropped', webhook.id]]);
    expect(await store.webhookOutbox.find(outcomes[0]?.deliveryId ?? '')).toBeUndefined();
    expect(receiver.received).toEqual([]);
  });

  it('drops the handoff.requested of a conversation erased as it was handed to a person', async () => {
    const webhook = await subscribe('handoff.requested');
    await handedOver(erasing(eraseConversation('c-erased')));

    await expectKeptOnlySent(await dispatcherOn(store).tick(), webhook.id);
  });

  it('drops the handoff.resolved of a conversation erased as it was handed back', async () => {
    const webhook = await subscribe('handoff.resolved');
    await handedOver();
    await resolveHandoff(erasing(eraseConversation('c-erased')), account, chatbot.id, 'c-erased');
    await resolveHandoff(store, account, chatbot.id, 'c-kept');

    await expectKeptOnlySent(await dispatcherOn(store).tick(), webhook.id);
  });

  it('drops the handoff event of a conversation erased once the job claimed it', async () => {
    const webhook = await subscribe('handoff.requested');
    await handedOver();

    await expectKeptOnlySent(await dispatcherErasing(eraseConversation('c-erased')).tick(), webhook.id);
  });

  it.each(REUSES)('drops the handoff.requested of a conversation erased as it was handed over, once its id is taken up and handed over again $when', async ({ at }) => {
    const webhook = await subscribe('handoff.requested');
    await handedOver(erasing(eraseAndReuse('c-erased', at)));

    const outcomes = await dispatcherOn(store).tick();

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['delivered', 'delivered', 'dropped']);
    expect(outcomes.every((outcome) => outcome.webhookId === webhook.id)).toBe(true);
    expect(sentHandoffs().sort()).toEqual([`c-erased ${at.toISOString()}`, `c-kept ${T0.toISOString()}`]);
  });

  it.each(REUSES)('drops the handoff event of a conversation erased once the job claimed it, its id taken up and handed over again $when', async ({ at }) => {
    const webhook = await subscribe('handoff.requested');
    await handedOver();

    await expectOneDroppedOneSent(await dispatcherErasing(eraseAndReuse('c-erased', at)).tick(), webhook.id);
    expect(sentHandoffs()).toEqual([`c-kept ${T0.toISOString()}`]);
    expect((await dispatcherOn(store).tick()).map((outcome) => outcome.status)).toEqual(['delivered']);
    expect(sentHandoffs()).toEqual([`c-kept ${T0.toISOString()}`, `c-erased ${at.toISOString()}`]);
  });

  it('sends the events of an earlier handoff of a conversation kept, handed over again before they went out', async () => {
    const webhook = await subscribe('handoff.requested');
    await seedConversation(store, chatbot, 'c-kept', T0);
    await requestHandoff(store, chatbot, 'c-kept', T0);
    await resolveHandoff(store, account, chatbot.id, 'c-kept');
    await requestHandoff(store, chatbot, 'c-kept', REUSED_AT);

    const outcomes = await dispatcherOn(store).tick();

    expect(outcomes.map((outcome) => [outcome.status, outcome.webhookId])).toEqual([['delivered', webhook.id], ['delivered', webhook.id]]);
    expect(sentHandoffs().sort()).toEqual([`c-kept ${T0.toISOString()}`, `c-kept ${REUSED_AT.toISOString()}`]);
  });

  it('sends the event of the handoff a conversation has, though the conversation was recorded after the handoff was requested', async () => {
    // As when the process that recorded the conversation has a clock ahead of the one that asked for a person.
    const webhook = await subscribe('handoff.requested');
    await seedConversation(store, chatbot, 'c-kept', REUSED_AT);
    await requestHandoff(store, chatbot, 'c-kept', T0);

    expect((await dispatcherOn(store).tick()).map((outcome) => [outcome.status, outcome.webhookId])).toEqual([['delivered', webhook.id]]);
    expect(sentHandoffs()).toEqual([`c-kept ${T0.toISOString()}`]);
  });
});
