import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handoffChanged, leadSubmitted, unansweredCreated } from '../../src/domain/webhook-events.js';
import type { Chatbot, HandoffRequestNotice, Incarnation, Lead, Store, UnansweredAsk, UnansweredExample, Webhook, WebhookDelivery } from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedConversation, seedWebhook } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Erasing one person's conversation or lead (GDPR art. 17): everything kept of it goes, and
// nothing else, on every adapter.

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const ALL = { page: 1, size: 100 };

describe.each(storeTargets.filter((target) => target.available))('$name store: erasure', (target) => {
  let store: Store;
  let chatbot: Chatbot;
  let webhook: Webhook;

  const converse = (id: string, text: string, owner = chatbot) =>
    seedConversation(store, owner, id, NOW, [
      { role: 'user', content: text, createdAt: NOW },
      { role: 'assistant', content: 'I cannot say.', createdAt: at(1), kind: 'decline' },
    ]);
  const requestNotice = (conversationId: string): HandoffRequestNotice => ({
    kind: 'requested',
    id: `notice-${conversationId}`,
    accountId: chatbot.accountId,
    chatbotId: chatbot.id,
    chatbotName: chatbot.name,
    conversationId,
    source: 'Widget or Iframe',
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    handoff: { status: 'pending', requestedAt: NOW, takenBy: null },
    transcript: [{ role: 'user', content: `the words of ${conversationId}` }],
    person: { name: null, email: `${conversationId}@example.com`, phone: null },
    createdAt: NOW,
  });
  const example = (conversationId: string, askedAt = NOW): UnansweredExample => ({ conversationId, messageId: null, source: 'Widget or Iframe', askedAt });
  const enqueue = async (delivery: WebhookDelivery) => {
    await store.webhookOutbox.enqueue(delivery);
    return delivery.id;
  };
  const leadOf = (conversationId: string | null, createdAt: Date, email: string): Lead => ({
    id: `lead-${email}`,
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    name: null,
    email,
    phone: null,
    conversationId,
    createdAt,
  });
  const ids = (leads: Lead[]) => leads.map((lead) => lead.id);
  /** Records an ask of a conversation that stands. */
  const recordKept = async (ask: UnansweredAsk) => {
    const result = await store.unanswered.record(ask);
    if (!result) throw new Error('the ask was not kept');
    return result;
  };

  beforeEach(async () => {
    store = await target.open();
    chatbot = await seedChatbot(store, await seedAccount(store));
    webhook = await seedWebhook(store, chatbot.accountId, ['leads.submit', 'unanswered.created', 'handoff.requested', 'handoff.resolved'], NOW);
  });
  afterEach(async () => {
    await store.close();
  });

  /** Two people's conversations, each with what is kept of it, and deliveries that carry them. */
  async function twoConversations() {
    await converse('c1', 'I am Ada, my card was charged twice');
    await converse('c2', 'Where is my parcel?');
    const [c1Answer] = (await store.conversations.find(chatbot.id, 'c1'))?.messages.filter((m) => m.role === 'assistant') ?? [];
    expect(await store.conversations.setFeedback(chatbot.id, c1Answer?.id ?? '', 'down')).toEqual({ firstDown: true });
    for (const id of ['c1', 'c2']) {
      expect(await store.handoffs.request(chatbot.id, id, NOW, at(300_000), requestNotice(id))).toBeDefined();
    }
    const leads = {
      c1: await store.leads.upsertForConversation({ ...leadOf('c1', NOW, 'ada@example.com'), conversationId: 'c1' }),
      c2: await store.leads.upsertForConversation({ ...leadOf('c2', at(1), 'bo@example.com'), conversationId: 'c2' }),
    };
    const opened = await recordKept({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      opening: { id: 'group-c1', question: 'I am Ada, my card was charged twice', terms: ['card', 'charged'] },
      example: example('c1'),
    });
    const shared = await recordKept({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      opening: { id: 'group-c2', question: 'Where is my parcel?', terms: ['parcel'] },
      example: example('c2'),
    });
    await store.unanswered.record({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      groupId: 'group-c2',
      opening: { id: 'unused', question: 'parcel?', terms: ['parcel'] },
      example: example('c1', at(5)),
    });
    const handoff = (id: string) => ({
      chatbotId: chatbot.id,
      conversationId: id,
      handoff: { status: 'pending' as const, requestedAt: NOW, takenBy: null, dueAt: null, updatedAt: NOW, incarnation: null },
    });
    const deliveries = {
      c1: [
        await enqueue(leadSubmitted(webhook, { ...leads.c1, revision: 1 }, NOW)),
        await enqueue(handoffChanged(webhook, 'handoff.requested', handoff('c1'), NOW)),
        await enqueue(unansweredCreated(webhook, opened.group, example('c1'), NOW)),
      ],
      c2: [
        await enqueue(leadSubmitted(webhook, { ...leads.c2, revision: 1 }, NOW)),
        await enqueue(handoffChanged(webhook, 'handoff.requested', handoff('c2'), NOW)),
        await enqueue(unansweredCreated(webhook, shared.group, example('c2'), NOW)),
      ],
    };
    // Delivered ones, with their attempts, carry the person's words as much as pending ones.
    for (const claimed of await store.webhookOutbox.claimDue({ now: NOW, claimedBy: 'hub', leaseUntil: at(60_000), limit: 100 })) {
      await store.webhookOutbox.settle(claimed.id, 'hub', { at: NOW, responseStatus: 204, error: null, status: 'delivered', nextAttemptAt: NOW });
    }
    return { leads, deliveries };
  }

  it('erases a conversation with its messages, handoff, notices, lead, unanswered asks and deliveries', async () => {
    const { leads, deliveries } = await twoConversations();
    const other = await seedChatbot(store, await seedAccount(store));
    await converse('c1', 'Another chatbot’s c1', other);

    expect(await store.conversations.delete(chatbot.id, 'c1')).toBe(true);

    expect(await store.conversations.find(chatbot.id, 'c1')).toBeUndefined();
    expect(await store.conversations.recentMessages(chatbot.id, 'c1', 10)).toEqual([]);
    expect(await store.handoffs.find(chatbot.id, 'c1')).toBeUndefined();
    expect(await store.leads.findForConversation(chatbot.id, 'c1')).toBeUndefined();
    expect(ids(await store.leads.list(chatbot.id, {}, ALL))).toEqual([leads.c2.id]);
    expect(await store.unanswered.find(chatbot.id, 'group-c1')).toBeUndefined();
    expect((await store.unanswered.find(chatbot.id, 'group-c2'))?.examples.map((e) => e.conversationId)).toEqual(['c2']);
    for (const id of deliveries.c1) expect(await store.webhookOutbox.find(id)).toBeUndefined();
    const attempted = (await store.webhookOutbox.attempts(webhook.id, ALL)).map((attempt) => attempt.deliveryId);
    expect(attempted.sort()).toEqual([...deliveries.c2].sort());
    const notices = await store.handoffNotices.claim({ accountId: chatbot.accountId, platform: 'slack', now: NOW, leaseUntil: at(60_000), limit: 10 });
    expect(notices.map((notice) => notice.conversationId)).toEqual(['c2']);

    // The other person's, and another chatbot's conversation of the same id, are as they were.
    const kept = await store.conversations.find(chatbot.id, 'c2');
    expect(kept?.messages.map((m) => m.content)).toEqual(['Where is my parcel?', 'I cannot say.']);
    expect(kept?.handoff?.status).toBe('pending');
    expect(await store.leads.findForConversation(chatbot.id, 'c2')).toEqual(leads.c2);
    for (const id of deliveries.c2) expect(await store.webhookOutbox.find(id)).toBeDefined();
    expect((await store.conversations.find(other.id, 'c1'))?.messages).toHaveLength(2);

    expect(await store.conversations.delete(chatbot.id, 'c1')).toBe(false);
  });

  it('keeps no ask of a conversation recorded once it is erased, nor a group such an ask would open', async () => {
    // The chat turn's reply was saved before the erasure; its unanswered question is recorded after.
    await converse('c1', 'Where is my parcel?');
    await converse('c2', 'Where is my parcel?');
    const ask = (conversationId: string, opening = { id: 'group-parcel', question: 'Where is my parcel?', terms: ['parcel'] }): UnansweredAsk => ({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      opening,
      example: example(conversationId),
    });
    await recordKept(ask('c2'));
    expect(await store.conversations.delete(chatbot.id, 'c1')).toBe(true);

    expect(await store.unanswered.repeat({ chatbotId: chatbot.id, terms: ['parcel'], question: 'parcel?', example: example('c1') })).toBe(false);
    expect(await store.unanswered.record({ ...ask('c1'), groupId: 'group-parcel' })).toBeUndefined();
    expect(await store.unanswered.record(ask('c1'))).toBeUndefined();
    expect(await store.unanswered.record(ask('c1', { id: 'group-ada', question: 'I am Ada, my card was charged twice', terms: ['card'] }))).toBeUndefined();
    expect(await store.unanswered.list(chatbot.id, {}, ALL)).toEqual([
      expect.objectContaining({ id: 'group-parcel', count: 1, examples: [example('c2')] }),
    ]);
    expect(await store.unanswered.unannounced(10)).toEqual([expect.objectContaining({ opening: example('c2') })]);
  });

  it('erases only what carries exactly that id, whatever characters it holds', async () => {
    const [erased, alike] = ['slack:T1:C1:1710072000.000100', 'slack:T1:C1:1710072000x000100'];
    const handoff = { status: 'pending' as const, requestedAt: NOW, takenBy: null, dueAt: null, updatedAt: NOW };
    // Pending, both handoff events: the request's and the handing back's; of the conversation as
    // named now, and as enqueued before conversations were named.
    const deliveries = async (conversationId: string) => {
      await converse(conversationId, 'Hello');
      const named = (await store.conversations.incarnation(chatbot.id, conversationId)) ?? null;
      const event = (eventType: 'handoff.requested' | 'handoff.resolved', incarnation: Incarnation) =>
        enqueue(handoffChanged(webhook, eventType, { chatbotId: chatbot.id, conversationId, handoff: { ...handoff, incarnation } }, NOW));
      return [
        await event('handoff.requested', named),
        await event('handoff.resolved', named),
        await event('handoff.requested', null),
        await event('handoff.resolved', null),
      ];
    };
    const [gone, kept] = [await deliveries(erased), await deliveries(alike)];
    expect(await store.conversations.delete(chatbot.id, erased)).toBe(true);
    for (const id of gone) expect(await store.webhookOutbox.find(id)).toBeUndefined();
    for (const id of kept) expect(await store.webhookOutbox.find(id)).toBeDefined();
    expect(await store.conversations.find(chatbot.id, alike)).toBeDefined();
  });

  it('starts a conversation of an erased one’s id afresh', async () => {
    await twoConversations();
    await store.conversations.delete(chatbot.id, 'c1');
    await converse('c1', 'Hello again');
    const fresh = await store.conversations.find(chatbot.id, 'c1');
    expect(fresh?.messages.map((m) => m.content)).toEqual(['Hello again', 'I cannot say.']);
    expect(fresh?.handoff).toBeUndefined();
  });

  it('erases a lead with its deliveries, keeping the others’ order and pages exact', async () => {
    const leads = [0, 1, 2, 3, 4].map((n) => leadOf(null, at(n * 1000), `person${n}@example.com`));
    for (const lead of leads) await store.leads.insert(lead);
    const [first, second, third] = leads as [Lead, Lead, Lead];
    const erased = [
      await enqueue(leadSubmitted(webhook, { ...second, revision: 1 }, NOW)),
      await enqueue(leadSubmitted(webhook, { ...second, revision: 2 }, NOW)),
    ];
    const kept = await enqueue(leadSubmitted(webhook, { ...third, revision: 1 }, NOW));

    expect(await store.leads.delete(chatbot.id, second.id)).toEqual(second);

    for (const id of erased) expect(await store.webhookOutbox.find(id)).toBeUndefined();
    expect(await store.webhookOutbox.find(kept)).toBeDefined();
    const newestFirst = ids([...leads].reverse().filter((lead) => lead.id !== second.id));
    expect(ids(await store.leads.list(chatbot.id, {}, ALL))).toEqual(newestFirst);
    const pages = [];
    for (let page = 1; page <= 3; page += 1) pages.push(...ids(await store.leads.list(chatbot.id, {}, { page, size: 2 })));
    expect(pages).toEqual(newestFirst);

    // A lead dated before the others still finds its place.
    const late = leadOf(null, at(500), 'late@example.com');
    await store.leads.insert(late);
    expect(ids(await store.leads.list(chatbot.id, {}, ALL))).toEqual([...newestFirst.slice(0, -1), late.id, first.id]);
    expect(ids(await store.leads.list(chatbot.id, {}, { page: 2, size: 3 }))).toEqual([late.id, first.id]);

    expect(await store.leads.delete(chatbot.id, second.id)).toBeUndefined();
  });

  it('erases nothing of another chatbot’s lead or conversation', async () => {
    const other = await seedChatbot(store, await seedAccount(store));
    const lead = leadOf(null, NOW, 'ada@example.com');
    await store.leads.insert(lead);
    await converse('c1', 'Hello');
    expect(await store.leads.delete(other.id, lead.id)).toBeUndefined();
    expect(await store.conversations.delete(other.id, 'c1')).toBe(false);
    expect(ids(await store.leads.list(chatbot.id, {}, ALL))).toEqual([lead.id]);
    expect(await store.conversations.find(chatbot.id, 'c1')).toBeDefined();
  });
});
