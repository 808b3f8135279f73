import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leadSubmitted, ping } from '../../src/domain/webhook-events.js';
import type { Account, Chatbot, Lead, Store, Webhook, WebhookAttemptOutcome } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Webhooks and their outbox: the subscriptions, the lead marks written with the lead itself, and
// the claims that put each delivery in one process's hands. One behaviour for every adapter.

const T0 = new Date('2026-03-10T08:00:00.000Z');
const seconds = (n: number) => new Date(T0.getTime() + n * 1000);

describe.each(storeTargets.filter((target) => target.available))('$name store: webhooks', (target) => {
  let store: Store;
  let account: Account;
  let chatbot: Chatbot;
  let other: Chatbot;

  const webhook = async (overrides: Partial<Webhook> = {}): Promise<Webhook> => {
    const created: Webhook = {
      id: randomUUID(),
      accountId: account.id,
      url: 'https://receiver.example.com/hook',
      events: ['leads.submit'],
      chatbotId: null,
      secret: `whsec_${randomUUID()}`,
      enabled: true,
      disabledReason: null,
      failingSince: null,
      createdAt: T0,
      updatedAt: T0,
      ...overrides,
    };
    await store.webhooks.create(created);
    return created;
  };
  const lead = async (overrides: Partial<Lead> = {}): Promise<Lead> => {
    const created: Lead = {
      id: randomUUID(),
      chatbotId: chatbot.id,
      accountId: account.id,
      name: 'Ada',
      email: 'ada@example.com',
      phone: null,
      conversationId: null,
      createdAt: T0,
      ...overrides,
    };
    await store.leads.insert(created);
    return created;
  };
  const outcome = (overrides: Partial<WebhookAttemptOutcome> = {}): WebhookAttemptOutcome => ({
    at: seconds(1),
    responseStatus: 500,
    error: 'the receiver answered 500',
    status: 'pending',
    nextAttemptAt: seconds(30),
    ...overrides,
  });
  const claim = (claimedBy: string, now = T0, limit = 10) =>
    store.webhookOutbox.claimDue({ now, claimedBy, leaseUntil: new Date(now.getTime() + 60_000), limit });

  beforeEach(async () => {
    store = await target.open();
    account = await seedAccount(store);
    chatbot = await seedChatbot(store, account);
    other = await seedChatbot(store, account);
  });
  afterEach(async () => {
    await store.close();
  });

  it('stores a webhook as given, finds it only in its account, and deletes it', async () => {
    const created = await webhook({ chatbotId: chatbot.id });
    expect(await store.webhooks.find(account.id, created.id)).toEqual(created);
    expect(await store.webhooks.findById(created.id)).toEqual(created);
    const stranger = await seedAccount(store);
    expect(await store.webhooks.find(stranger.id, created.id)).toBeUndefined();
    expect(await store.webhooks.delete(stranger.id, created.id)).toBeUndefined();
    expect(await store.webhooks.delete(account.id, created.id)).toEqual(created);
    expect(await store.webhooks.findById(created.id)).toBeUndefined();
  });

  it('lists oldest first, filtered by chatbot and enabled, a page at a time', async () => {
    const first = await webhook({ createdAt: seconds(1) });
    const second = await webhook({ createdAt: seconds(2), chatbotId: chatbot.id });
    const third = await webhook({ createdAt: seconds(3), enabled: false, disabledReason: 'failing' });
    const ids = (list: Webhook[]) => list.map((item) => item.id);
    expect(ids(await store.webhooks.list(account.id, {}, { page: 1, size: 10 }))).toEqual([first.id, second.id, third.id]);
    expect(ids(await store.webhooks.list(account.id, {}, { page: 2, size: 2 }))).toEqual([third.id]);
    expect(ids(await store.webhooks.list(account.id, { chatbotId: chatbot.id }, { page: 1, size: 10 }))).toEqual([second.id]);
    expect(ids(await store.webhooks.list(account.id, { enabled: false }, { page: 1, size: 10 }))).toEqual([third.id]);
    expect(ids(await store.webhooks.list(account.id, { event: 'leads.submit', enabled: true }, { page: 1, size: 10 }))).toEqual([
      first.id,
      second.id,
    ]);
    expect(await store.webhooks.list((await seedAccount(store)).id, {}, { page: 1, size: 10 })).toEqual([]);
  });

  it("answers the enabled subscribers of a chatbot's event: its own and the account-wide ones", async () => {
    const everyChatbot = await webhook({ createdAt: seconds(1) });
    const own = await webhook({ createdAt: seconds(2), chatbotId: chatbot.id });
    await webhook({ chatbotId: other.id });
    await webhook({ enabled: false, disabledReason: 'failing' });
    const subscribers = await store.webhooks.subscribers(account.id, chatbot.id, 'leads.submit');
    expect(subscribers.map((item) => item.id)).toEqual([everyChatbot.id, own.id]);
  });

  it('keeps the first failure time until a success, and disables with a reason', async () => {
    const created = await webhook();
    expect(await store.webhooks.noteFailure(created.id, seconds(1))).toEqual(seconds(1));
    expect(await store.webhooks.noteFailure(created.id, seconds(9))).toEqual(seconds(1));
    await store.webhooks.noteSuccess(created.id);
    expect(await store.webhooks.noteFailure(created.id, seconds(20))).toEqual(seconds(20));
    await store.webhooks.disable(created.id, 'failed for 3 days', seconds(30), seconds(20));
    expect(await store.webhooks.findById(created.id)).toMatchObject({
      enabled: false,
      disabledReason: 'failed for 3 days',
      updatedAt: seconds(30),
    });
  });

  it('does not disable for a failing streak that has ended since', async () => {
    const created = await webhook();
    const streak = await store.webhooks.noteFailure(created.id, seconds(1));
    // The owner turns it on again (ending the streak) before the job that saw the streak disables it.
    await store.webhooks.update(account.id, created.id, { enabled: true, disabledReason: null, failingSince: null, updatedAt: seconds(5) });
    await store.webhooks.disable(created.id, 'failed for 3 days', seconds(6), streak as Date);
    expect(await store.webhooks.findById(created.id)).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('changes the given fields of the account\'s own webhook, a null one cleared, and answers it as changed', async () => {
    const created = await webhook({ chatbotId: chatbot.id, enabled: false, disabledReason: 'failing', failingSince: seconds(1) });
    const changed = await store.webhooks.update(account.id, created.id, {
      url: 'https://example.com/new',
      chatbotId: null,
      enabled: true,
      disabledReason: null,
      failingSince: null,
      events: undefined,
      updatedAt: seconds(40),
    });
    const expected = { ...created, url: 'https://example.com/new', chatbotId: null, enabled: true, disabledReason: null, failingSince: null, updatedAt: seconds(40) };
    expect(changed).toEqual(expected);
    expect(await store.webhooks.findById(created.id)).toEqual(expected);
    const otherAccount = await seedAccount(store);
    expect(await store.webhooks.update(otherAccount.id, created.id, { enabled: false, updatedAt: seconds(50) })).toBeUndefined();
    expect(await store.webhooks.update(account.id, 'no-such-webhook', { enabled: false, updatedAt: seconds(50) })).toBeUndefined();
    expect(await store.webhooks.findById(created.id)).toEqual(expected);
  });

  const conversationLead = (fields: Partial<Lead>) =>
    store.leads.upsertForConversation({
      id: randomUUID(),
      chatbotId: chatbot.id,
      accountId: account.id,
      name: null,
      email: null,
      phone: null,
      createdAt: seconds(2),
      ...fields,
      conversationId: 'conv-1',
    });
  const pending = async () =>
    (await store.webhookOutbox.unannouncedLeads(10)).map(({ id, email, revision }) => ({ id, email, revision }));

  it('marks each lead it creates in the same write, and again at its next revision when a correction changes a field', async () => {
    const plain = await lead({ createdAt: seconds(1) });
    const captured = await conversationLead({ email: 'bo@example.com' });
    expect(await pending()).toEqual([
      { id: plain.id, email: 'ada@example.com', revision: 1 },
      { id: captured.id, email: 'bo@example.com', revision: 1 },
    ]);
    expect(await store.webhookOutbox.unannouncedLeads(1)).toEqual([{ ...plain, revision: 1 }]);

    await store.webhookOutbox.announceLead(plain.id, 1, []);
    await store.webhookOutbox.announceLead(captured.id, 1, []);
    // The same details again, or fewer of them, change nothing: no new revision, no mark.
    await conversationLead({ email: 'bo@example.com' });
    await conversationLead({});
    expect(await pending()).toEqual([]);

    await conversationLead({ name: 'Bo', email: 'bo@example.com' });
    await conversationLead({ email: 'bo.lima@example.com' });
    expect(await pending()).toEqual([{ id: captured.id, email: 'bo.lima@example.com', revision: 3 }]);
    await store.webhookOutbox.announceLead(captured.id, 3, []);
    expect(await pending()).toEqual([]);
  });

  it('keeps the mark of a correction stored while the revision before it was being announced', async () => {
    const captured = await conversationLead({ email: 'bo@example.com' });
    const [read] = await store.webhookOutbox.unannouncedLeads(10);
    await conversationLead({ email: 'bo.lima@example.com' });
    await store.webhookOutbox.announceLead(captured.id, read?.revision ?? 0, []);
    expect(await pending()).toEqual([{ id: captured.id, email: 'bo.lima@example.com', revision: 2 }]);
  });

  it('counts every one of 10 concurrent corrections', async () => {
    await conversationLead({ email: 'bo@example.com' });
    const emails = Array.from({ length: 10 }, (_, index) => `bo${index}@example.com`);
    await Promise.all(emails.map((email) => conversationLead({ email })));
    const [only, ...rest] = await pending();
    expect(rest).toEqual([]);
    expect(only?.revision).toBe(11);
    expect(emails).toContain(only?.email);
  });

  it('enqueues each revision of a lead once per webhook however often it is announced', async () => {
    const target = await webhook();
    const first = { ...(await conversationLead({ email: 'bo@example.com' })), revision: 1 };
    const corrected = { ...first, email: 'bo.lima@example.com', revision: 2 };
    await Promise.all(
      [1, 2].flatMap(() => [
        store.webhookOutbox.announceLead(first.id, 1, [leadSubmitted(target, first, T0)]),
        store.webhookOutbox.announceLead(first.id, 2, [leadSubmitted(target, corrected, T0)]),
      ]),
    );
    const bodies = (await claim('hub-a')).map((delivery) => JSON.parse(delivery.body) as { payload: unknown });
    expect(bodies.map((body) => body.payload)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ customerEmail: 'bo@example.com', revision: 1 }),
        expect.objectContaining({ customerEmail: 'bo.lima@example.com', revision: 2 }),
      ]),
    );
    expect(bodies).toHaveLength(2);
  });

  it('enqueues an event once per webhook however often it is announced', async () => {
    const first = await webhook();
    const second = await webhook();
    const created = { ...(await lead()), revision: 1 };
    await Promise.all(
      [1, 2, 3].map(() =>
        store.webhookOutbox.announceLead(created.id, 1, [leadSubmitted(first, created, T0), leadSubmitted(second, created, T0)]),
      ),
    );
    expect(await store.webhookOutbox.unannouncedLeads(10)).toEqual([]);
    const claimed = await claim('hub-a');
    expect(claimed.map((delivery) => delivery.webhookId).sort()).toEqual([first.id, second.id].sort());
    const [delivery] = claimed;
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ id: delivery?.id, eventType: 'leads.submit' });
  });

  it('gives each due delivery to exactly one of many racing claimers, and none before it is due', async () => {
    const target = await webhook();
    for (let index = 0; index < 8; index += 1) await store.webhookOutbox.enqueue(ping(target, seconds(index)));
    await store.webhookOutbox.enqueue({ ...ping(target, seconds(100)) });
    const claims = await Promise.all(Array.from({ length: 6 }, (_, index) => claim(`hub-${index}`, seconds(10), 3)));
    const ids = claims.flat().map((delivery) => delivery.id);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(await claim('late', seconds(20))).toEqual([]);
  });

  it("requeues a webhook's done delivery with its attempts, leaves a pending one, and finds no other webhook's", async () => {
    const target = await webhook();
    const queued = ping(target, T0);
    await store.webhookOutbox.enqueue(queued);
    expect(await store.webhookOutbox.requeue(target.id, queued.id, seconds(5))).toMatchObject({ status: 'pending', nextAttemptAt: T0, attempts: 0 });
    await claim('hub-a');
    await store.webhookOutbox.settle(queued.id, 'hub-a', outcome({ status: 'failed' }));
    const requeued = await store.webhookOutbox.requeue(target.id, queued.id, seconds(50));
    expect(requeued).toMatchObject({ id: queued.id, status: 'pending', attempts: 1, nextAttemptAt: seconds(50), claimedBy: null, leaseUntil: null, body: queued.body });
    expect(await store.webhookOutbox.find(queued.id)).toEqual(requeued);
    expect((await claim('hub-b', seconds(50))).map((delivery) => delivery.id)).toEqual([queued.id]);
    const another = await webhook();
    expect(await store.webhookOutbox.requeue(another.id, queued.id, seconds(60))).toBeUndefined();
    expect(await store.webhookOutbox.requeue(target.id, 'no-such-delivery', seconds(60))).toBeUndefined();
  });

  it('lets a lease that ran out be taken over, and only the holder settle', async () => {
    const target = await webhook();
    const queued = ping(target, T0);
    await store.webhookOutbox.enqueue(queued);
    const [held] = await claim('hub-a');
    expect(held).toMatchObject({ id: queued.id, claimedBy: 'hub-a', status: 'pending' });
    expect(await claim('hub-b', seconds(30))).toEqual([]);
    expect((await claim('hub-b', seconds(61))).map((delivery) => delivery.id)).toEqual([queued.id]);

    expect(await store.webhookOutbox.settle(queued.id, 'hub-a', outcome({ status: 'delivered' }))).toBe(false);
    expect(await store.webhookOutbox.settle(queued.id, 'hub-b', outcome())).toBe(true);
    expect(await store.webhookOutbox.find(queued.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: seconds(30),
      claimedBy: null,
      leaseUntil: null,
    });
    expect(await claim('hub-c', seconds(29))).toEqual([]);
    expect(await claim('hub-c', seconds(30))).toHaveLength(1);
    expect(await store.webhookOutbox.settle(queued.id, 'hub-c', outcome({ status: 'delivered', responseStatus: 204, error: null }))).toBe(true);
    expect(await claim('hub-d', seconds(1000))).toEqual([]);
    expect(await store.webhookOutbox.settle(queued.id, 'hub-c', outcome())).toBe(false);

    expect(await store.webhookOutbox.attempts(target.id, { page: 1, size: 10 })).toEqual([
      { deliveryId: queued.id, webhookId: target.id, eventType: 'ping', attempt: 2, status: 'delivered', responseStatus: 204, error: null, at: seconds(1) },
      {
        deliveryId: queued.id,
        webhookId: target.id,
        eventType: 'ping',
        attempt: 1,
        status: 'pending',
        responseStatus: 500,
        error: 'the receiver answered 500',
        at: seconds(1),
      },
    ]);
    expect(await store.webhookOutbox.attempts(target.id, { page: 2, size: 1 })).toHaveLength(1);
  });

  it('drops a delivery with its attempts, whoever holds it, and no other', async () => {
    const target = await webhook();
    const [dropped, kept] = [ping(target, T0), ping(target, T0)];
    for (const delivery of [dropped, kept]) await store.webhookOutbox.enqueue(delivery);
    await claim('hub-a');
    for (const delivery of [dropped, kept]) await store.webhookOutbox.settle(delivery.id, 'hub-a', outcome());
    await claim('hub-b', seconds(30));

    await store.webhookOutbox.drop(dropped.id);
    expect(await store.webhookOutbox.find(dropped.id)).toBeUndefined();
    expect(await store.webhookOutbox.find(kept.id)).toMatchObject({ claimedBy: 'hub-b', status: 'pending' });
    expect((await store.webhookOutbox.attempts(target.id, { page: 1, size: 10 })).map((attempt) => attempt.deliveryId)).toEqual([kept.id]);
    expect(await store.webhookOutbox.settle(dropped.id, 'hub-b', outcome({ status: 'delivered' }))).toBe(false);
  });

  it('finds a lead by id in its chatbot only', async () => {
    const found = await lead();
    expect(await store.leads.find(chatbot.id, found.id)).toEqual(found);
    expect(await store.leads.find(other.id, found.id)).toBeUndefined();
    expect(await store.leads.find(chatbot.id, 'no-such-lead')).toBeUndefined();
  });

  it('drops the outbox and attempts of a deleted webhook, and a chatbot takes its webhooks along', async () => {
    const target = await webhook({ chatbotId: other.id });
    const queued = ping(target, T0);
    await store.webhookOutbox.enqueue(queued);
    await claim('hub-a');
    await store.webhookOutbox.settle(queued.id, 'hub-a', outcome());
    expect(await store.webhooks.delete(account.id, target.id)).toBeDefined();
    expect(await store.webhookOutbox.find(queued.id)).toBeUndefined();
    expect(await store.webhookOutbox.attempts(target.id, { page: 1, size: 10 })).toEqual([]);

    const own = await webhook({ chatbotId: other.id });
    expect(await store.chatbots.delete(account.id, other.id)).toBe(true);
    expect(await store.webhooks.findById(own.id)).toBeUndefined();
  });

  it('prunes the deliveries done before a time, with their attempts, a batch at a time, and never a pending one', async () => {
    const target = await webhook();
    const queued = Array.from({ length: 300 }, (_, index) => ping(target, seconds(index / 1000)));
    for (const delivery of queued) await store.webhookOutbox.enqueue(delivery);
    expect(await claim('hub-a', seconds(1), 300)).toHaveLength(300);
    // Done long ago, one in three failed; then one done later and one still pending.
    const [later, pending, ...old] = queued;
    for (const [index, delivery] of old.entries()) {
      await store.webhookOutbox.settle(delivery.id, 'hub-a', outcome({ status: index % 3 === 0 ? 'failed' : 'delivered', at: seconds(2) }));
    }
    await store.webhookOutbox.settle(later!.id, 'hub-a', outcome({ status: 'delivered', responseStatus: 204, error: null, at: seconds(100) }));
    await store.webhookOutbox.settle(pending!.id, 'hub-a', outcome({ at: seconds(2) }));

    expect(await store.webhookOutbox.prune(seconds(50))).toBe(298);
    for (const delivery of old) expect(await store.webhookOutbox.find(delivery.id)).toBeUndefined();
    expect(await store.webhookOutbox.find(later!.id)).toMatchObject({ status: 'delivered' });
    expect(await store.webhookOutbox.find(pending!.id)).toMatchObject({ status: 'pending' });
    const attempts = await store.webhookOutbox.attempts(target.id, { page: 1, size: 100 });
    expect(attempts.map((attempt) => attempt.deliveryId).sort()).toEqual([later!.id, pending!.id].sort());
    expect(await store.webhookOutbox.prune(seconds(50))).toBe(0);
  });

  it("takes a deleted chatbot's events, and their attempts, out of every webhook's outbox, the account-wide ones' too", async () => {
    const everyBot = await webhook();
    const leaving = { ...(await lead({ chatbotId: other.id, email: 'carla@example.com' })), revision: 1 };
    const staying = { ...(await lead()), revision: 1 };
    const queued = [leadSubmitted(everyBot, leaving, T0), leadSubmitted(everyBot, staying, T0), ping(everyBot, T0)];
    for (const delivery of queued) await store.webhookOutbox.enqueue(delivery);
    for (const delivery of await claim('hub-a')) await store.webhookOutbox.settle(delivery.id, 'hub-a', outcome());

    expect(await store.chatbots.delete(account.id, other.id)).toBe(true);

    const [gone, ...kept] = queued;
    expect(await store.webhookOutbox.find(gone!.id)).toBeUndefined();
    for (const delivery of kept) expect(await store.webhookOutbox.find(delivery.id)).toMatchObject({ chatbotId: delivery.chatbotId });
    const attempts = await store.webhookOutbox.attempts(everyBot.id, { page: 1, size: 10 });
    expect(attempts.map((attempt) => attempt.deliveryId).sort()).toEqual(kept.map((delivery) => delivery.id).sort());

    const late = leadSubmitted(everyBot, { ...leaving, revision: 2 }, T0);
    await store.webhookOutbox.enqueue(late);
    expect(await store.webhookOutbox.find(late.id)).toBeUndefined();
  });
});
