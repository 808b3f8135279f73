import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Chatbot, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Handoffs: one open handoff per conversation, transitions that only apply from the states they
// name, and timeouts leased to one claimer, on every adapter.

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe.each(storeTargets.filter((target) => target.available))('$name store: handoffs', (target) => {
  let store: Store;
  let chatbot: Chatbot;

  const converse = (id: string) =>
    store.conversations.append({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      id,
      source: 'API',
      contactId: null,
      messages: [{ role: 'user', content: 'I need a person', createdAt: NOW }],
      at: NOW,
    });

  beforeEach(async () => {
    store = await target.open();
    chatbot = await seedChatbot(store, await seedAccount(store));
    await converse('c1');
  });
  afterEach(async () => {
    await store.close();
  });

  it('opens one pending handoff per conversation, shown with the conversation', async () => {
    const opened = { status: 'pending', requestedAt: NOW, takenBy: null, dueAt: at(300_000), updatedAt: NOW };
    const incarnation = await store.conversations.incarnation(chatbot.id, 'c1');
    expect(await store.handoffs.request(chatbot.id, 'c1', NOW, at(300_000))).toEqual({ ...opened, incarnation });
    expect(await store.handoffs.request(chatbot.id, 'c1', at(1_000), at(301_000))).toBeUndefined();
    expect(await store.handoffs.find(chatbot.id, 'c1')).toEqual(opened);
    expect((await store.conversations.find(chatbot.id, 'c1'))?.handoff).toEqual(opened);
    const [listed] = await store.conversations.list(chatbot.id, {}, { page: 1, size: 10 });
    expect(listed?.handoff).toEqual(opened);
  });

  it('tells each change the incarnation of its conversation: the same while it stands, another once begun afresh under its id', async () => {
    const first = await store.conversations.incarnation(chatbot.id, 'c1');
    expect(first).toMatch(/^[0-9a-f]{24}$/);
    expect(await store.conversations.incarnation(chatbot.id, 'nope')).toBeUndefined();
    await converse('c1');
    expect(await store.conversations.incarnation(chatbot.id, 'c1')).toBe(first);
    expect(await store.handoffs.request(chatbot.id, 'c1', NOW, at(1))).toMatchObject({ incarnation: first });
    const resolved = await store.handoffs.transition(chatbot.id, 'c1', ['pending'], { status: 'resolved', dueAt: null, at: at(1) });
    expect(resolved).toMatchObject({ status: 'resolved', incarnation: first });

    await store.conversations.delete(chatbot.id, 'c1');
    await converse('c1');
    const next = await store.conversations.incarnation(chatbot.id, 'c1');
    expect(next).toMatch(/^[0-9a-f]{24}$/);
    expect(next).not.toBe(first);
    expect(await store.handoffs.request(chatbot.id, 'c1', NOW, at(1))).toMatchObject({ incarnation: next });
  });

  it('opens none on a conversation that does not exist, and shows none on one never handed off', async () => {
    expect(await store.handoffs.request(chatbot.id, 'nope', NOW, at(1))).toBeUndefined();
    await converse('c2');
    expect((await store.conversations.find(chatbot.id, 'c2'))?.handoff).toBeUndefined();
    expect(await store.handoffs.find(chatbot.id, 'c2')).toBeUndefined();
  });

  it('changes state only from the states named, keeping the taker unless given', async () => {
    await store.handoffs.request(chatbot.id, 'c1', NOW, at(300_000));
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['active'], { status: 'resolved', dueAt: null, at: at(1) })).toBeUndefined();
    const taken = await store.handoffs.transition(chatbot.id, 'c1', ['pending', 'active'], {
      status: 'active',
      takenBy: 'Ada',
      dueAt: at(1_800_000),
      at: at(2),
    });
    expect(taken).toMatchObject({ status: 'active', takenBy: 'Ada', dueAt: at(1_800_000), requestedAt: NOW, updatedAt: at(2) });
    const resolved = await store.handoffs.transition(chatbot.id, 'c1', ['active'], { status: 'resolved', dueAt: null, at: at(3) });
    expect(resolved).toMatchObject({ status: 'resolved', takenBy: 'Ada', dueAt: null });
    // A closed handoff gives way to a new request.
    expect(await store.handoffs.request(chatbot.id, 'c1', at(4), at(5))).toMatchObject({ status: 'pending', takenBy: null });
  });

  it('appends what is said with a change in its write, after what came before, and nothing when the change does not apply', async () => {
    await store.handoffs.request(chatbot.id, 'c1', NOW, at(300_000));
    const said = (role: 'user' | 'assistant', ms: number, ...contents: string[]) => ({
      messages: contents.map((content) => ({ role, content, createdAt: at(ms) })),
      notices: [],
    });
    const reply = { status: 'active' as const, takenBy: 'Ada', dueAt: at(1_800_000), at: at(1), said: said('assistant', 1, 'Ada here.') };
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['pending'], reply)).toMatchObject({ status: 'active', takenBy: 'Ada' });
    // The person's messages keep the handoff as it stands, and are saved only while it does.
    const heard = { status: 'active' as const, dueAt: at(1_800_000), at: at(2), said: said('user', 2, 'Thanks.', 'Is it shipped?') };
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['active'], heard, at(1_800_000))).toMatchObject({ status: 'active', takenBy: 'Ada', dueAt: at(1_800_000) });
    const stale = { ...heard, said: said('user', 2, 'Read before the reply.') };
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['pending'], stale, at(300_000))).toBeUndefined();
    const handBack = { status: 'resolved' as const, dueAt: null, at: at(3), said: said('assistant', 3, 'Back with the bot.') };
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['active'], handBack)).toMatchObject({ status: 'resolved' });
    const late = { status: 'active' as const, dueAt: at(1_800_004), at: at(4), said: said('assistant', 4, 'Too late.') };
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['pending', 'active'], late)).toBeUndefined();
    const conversation = await store.conversations.find(chatbot.id, 'c1');
    expect(conversation?.messages.map(({ content }) => content)).toEqual(['I need a person', 'Ada here.', 'Thanks.', 'Is it shipped?', 'Back with the bot.']);
    expect(conversation?.updatedAt).toEqual(at(3));
  });

  it('applies a timeout only while the handoff is still due at the instant it was claimed for', async () => {
    await store.handoffs.request(chatbot.id, 'c1', NOW, at(1_000));
    await store.handoffs.transition(chatbot.id, 'c1', ['pending'], { status: 'active', dueAt: at(9_000), at: at(500) });
    expect(
      await store.handoffs.transition(chatbot.id, 'c1', ['active'], { status: 'resolved', dueAt: null, at: at(2_000) }, at(1_000)),
    ).toBeUndefined();
    expect(
      await store.handoffs.transition(chatbot.id, 'c1', ['active'], { status: 'resolved', dueAt: null, at: at(9_000) }, at(9_000)),
    ).toMatchObject({ status: 'resolved' });
  });

  it('leases each due handoff to one claimer until its lease ends', async () => {
    await converse('c2');
    await converse('c3');
    await store.handoffs.request(chatbot.id, 'c1', NOW, at(2_000));
    await store.handoffs.request(chatbot.id, 'c2', NOW, at(1_000));
    await store.handoffs.request(chatbot.id, 'c3', NOW, at(60_000));
    const claim = (claimedBy: string, now: Date) => store.handoffs.claimDue({ now, claimedBy, leaseUntil: at(now.getTime() - NOW.getTime() + 30_000), limit: 10 });

    const [first, second] = await Promise.all([claim('a', at(5_000)), claim('b', at(5_000))]);
    const taken = [...(first ?? []), ...(second ?? [])];
    expect(taken.map((due) => due.conversationId).sort()).toEqual(['c1', 'c2']);
    expect(taken[0]).toMatchObject({ chatbotId: chatbot.id, accountId: chatbot.accountId, status: 'pending' });
    expect(await claim('c', at(6_000))).toEqual([]);
    // The lease ended (its claimer died): another takes them, soonest due first.
    expect((await claim('c', at(40_000))).map((due) => due.conversationId)).toEqual(['c2', 'c1']);
    // A settled (closed) handoff is never due again.
    await store.handoffs.transition(chatbot.id, 'c1', ['pending'], { status: 'missed', dueAt: null, at: at(41_000) });
    expect((await claim('d', at(100_000))).map((due) => due.conversationId)).toEqual(['c2', 'c3']);
  });

  it('lists the conversations whose handoff stands as asked, newest first, paged, with the other filters', async () => {
    // c1 (from beforeEach) is never handed off; each of these is a minute newer than the one before.
    const statuses = ['pending', 'active', 'resolved', 'pending', 'missed', 'active'] as const;
    for (const [index, status] of statuses.entries()) {
      const id = `h${index}`;
      const createdAt = at(60_000 * (index + 1));
      await store.conversations.append({
        chatbotId: chatbot.id,
        accountId: chatbot.accountId,
        id,
        source: index === 3 ? 'Slack' : 'API',
        contactId: null,
        messages: [{ role: 'user', content: 'I need a person', createdAt }],
        at: createdAt,
      });
      await store.handoffs.request(chatbot.id, id, createdAt, at(3_600_000));
      if (status !== 'pending') await store.handoffs.transition(chatbot.id, id, ['pending'], { status, dueAt: null, at: createdAt });
    }
    // Another chatbot's waiting conversation is never listed with this one's.
    const other = await seedChatbot(store, await seedAccount(store));
    await store.conversations.append({ chatbotId: other.id, accountId: other.accountId, id: 'h9', source: 'API', contactId: null, messages: [], at: NOW });
    await store.handoffs.request(other.id, 'h9', NOW, at(3_600_000));

    const ids = async (filter: Parameters<Store['conversations']['list']>[1], page = { page: 1, size: 10 }) =>
      (await store.conversations.list(chatbot.id, filter, page)).map((conversation) => conversation.id);
    expect(await ids({ handoffStatuses: ['pending', 'active'] })).toEqual(['h5', 'h3', 'h1', 'h0']);
    expect(await ids({ handoffStatuses: ['resolved'] })).toEqual(['h2']);
    expect(await ids({ handoffStatuses: ['missed', 'resolved'] })).toEqual(['h4', 'h2']);
    expect(await ids({ handoffStatuses: ['pending', 'active'] }, { page: 2, size: 3 })).toEqual(['h0']);
    expect(await ids({ handoffStatuses: ['pending', 'active'], sources: ['API'] })).toEqual(['h5', 'h1', 'h0']);
    expect(await ids({ handoffStatuses: ['pending'], from: at(120_000), to: at(240_000) })).toEqual(['h3']);
    // Without statuses, every conversation, handed off or not; the listed ones carry their handoff.
    expect(await ids({})).toEqual(['h5', 'h4', 'h3', 'h2', 'h1', 'h0', 'c1']);
    const [newest] = await store.conversations.list(chatbot.id, { handoffStatuses: ['active'] }, { page: 1, size: 1 });
    expect(newest?.handoff?.status).toBe('active');
    expect(newest?.messages.map((message) => message.content)).toEqual(['I need a person']);
  });

  it('goes with its chatbot', async () => {
    await store.handoffs.request(chatbot.id, 'c1', NOW, at(1_000));
    await store.chatbots.delete(chatbot.accountId, chatbot.id);
    expect(await store.handoffs.claimDue({ now: at(5_000), claimedBy: 'a', leaseUntil: at(9_000), limit: 10 })).toEqual([]);
  });
});
