import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../src/store/errors.js';
import type { Account, Chatbot, Lead, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Leads: one behaviour for every adapter that can be had here.

const ALL = { page: 1, size: 100 };

describe.each(storeTargets.filter((target) => target.available))('$name store: leads', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;

  const lead = (overrides: Partial<Lead> = {}): Lead => ({
    id: randomUUID(),
    chatbotId: bot.id,
    accountId: owner.id,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+47 123 45 678',
    conversationId: null,
    createdAt: new Date('2026-03-10T12:00:00.000Z'),
    ...overrides,
  });
  const ids = (leads: Lead[]) => leads.map((item) => item.id);

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  it('round-trips a lead exactly, nulls included', async () => {
    const full = lead();
    const sparse = lead({ name: null, phone: null, createdAt: new Date('2026-03-09T00:00:00.001Z') });
    await store.leads.insert(full);
    await store.leads.insert(sparse);
    expect(await store.leads.list(bot.id, {}, ALL)).toEqual([full, sparse]);
  });

  it('lists newest first, ties by id (descending)', async () => {
    const at = (iso: string) => new Date(iso);
    const old = lead({ createdAt: at('2026-01-01T00:00:00Z') });
    const tieLow = lead({ id: 'tie-a', createdAt: at('2026-02-01T00:00:00Z') });
    const tieHigh = lead({ id: 'tie-b', createdAt: at('2026-02-01T00:00:00Z') });
    const fresh = lead({ createdAt: at('2026-03-01T00:00:00Z') });
    for (const item of [tieLow, fresh, old, tieHigh]) await store.leads.insert(item);
    expect(ids(await store.leads.list(bot.id, {}, ALL))).toEqual([fresh.id, 'tie-b', 'tie-a', old.id]);
  });

  it('pages a range exactly at every depth, whatever order the leads arrived in', async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 2, 1 + (n % 9), 0, 0, n % 3));
    const arrivals = Array.from({ length: 40 }, (_, i) => lead({ id: `lead-${String((i * 17) % 40).padStart(2, '0')}`, createdAt: day(i) }));
    for (const item of arrivals) await store.leads.insert(item);
    await store.leads.upsertForConversation({ ...lead({ createdAt: day(50) }), conversationId: 'late' });
    const upserted = await store.leads.upsertForConversation({ ...lead({ createdAt: day(51), name: 'Grace' }), conversationId: 'late' });
    const everyLead = [...arrivals, upserted];

    const range = { from: day(2), to: new Date(day(6).getTime() + 999) };
    const expected = ids(
      everyLead
        .filter((item) => item.createdAt >= range.from && item.createdAt <= range.to)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)),
    );
    expect(expected.length).toBeGreaterThan(10);
    const pages: string[][] = [];
    for (let page = 1; page <= Math.ceil(expected.length / 4) + 1; page += 1) {
      pages.push(ids(await store.leads.list(bot.id, range, { page, size: 4 })));
    }
    expect(pages.flat()).toEqual(expected);
    expect(pages.at(-1)).toEqual([]);
  });

  it('includes both bounds of a range to the millisecond', async () => {
    const from = new Date('2026-03-10T00:00:00.000Z');
    const to = new Date('2026-03-10T23:59:59.999Z');
    const before = lead({ createdAt: new Date(from.getTime() - 1) });
    const first = lead({ createdAt: from });
    const last = lead({ createdAt: to });
    const after = lead({ createdAt: new Date(to.getTime() + 1) });
    for (const item of [before, first, last, after]) await store.leads.insert(item);
    expect(ids(await store.leads.list(bot.id, { from, to }, ALL))).toEqual([last.id, first.id]);
    expect(ids(await store.leads.list(bot.id, { from }, ALL))).toEqual([after.id, last.id, first.id]);
    expect(ids(await store.leads.list(bot.id, { to }, ALL))).toEqual([last.id, first.id, before.id]);
  });

  it('pages through the list without gaps or repeats', async () => {
    const leads = Array.from({ length: 7 }, (_, i) =>
      lead({ createdAt: new Date(Date.UTC(2026, 2, 1, 0, 0, i)) }),
    );
    for (const item of leads) await store.leads.insert(item);
    const newestFirst = ids(leads).reverse();
    const pages = [];
    for (let page = 1; page <= 4; page += 1) pages.push(ids(await store.leads.list(bot.id, {}, { page, size: 3 })));
    expect(pages).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6), []]);
  });

  it("lists only the chatbot's own leads", async () => {
    const other = await seedChatbot(store, owner);
    const mine = lead();
    const theirs = lead({ chatbotId: other.id });
    await store.leads.insert(mine);
    await store.leads.insert(theirs);
    expect(ids(await store.leads.list(bot.id, {}, ALL))).toEqual([mine.id]);
    expect(ids(await store.leads.list(other.id, {}, ALL))).toEqual([theirs.id]);
  });

  it('refuses a second inserted lead for one conversation', async () => {
    await store.leads.insert(lead({ conversationId: 'conv-1' }));
    await expect(store.leads.insert(lead({ conversationId: 'conv-1' }))).rejects.toBeInstanceOf(UniqueViolation);
    await store.leads.insert(lead({ conversationId: 'conv-2' }));
    await store.leads.insert(lead());
    await store.leads.insert(lead());
    expect(await store.leads.list(bot.id, {}, ALL)).toHaveLength(4);
  });

  describe('upsertForConversation', () => {
    it('creates the lead, then updates only the fields given and keeps id and time', async () => {
      const first = lead({ conversationId: 'conv-1', name: null, phone: null });
      expect(await store.leads.upsertForConversation({ ...first, conversationId: 'conv-1' })).toEqual(first);

      const later = lead({
        conversationId: 'conv-1',
        name: 'Ada',
        email: null,
        phone: '+1 555 0100',
        createdAt: new Date('2026-04-01T00:00:00Z'),
      });
      const expected: Lead = { ...first, name: 'Ada', phone: '+1 555 0100' };
      expect(await store.leads.upsertForConversation({ ...later, conversationId: 'conv-1' })).toEqual(expected);

      const reached = await store.leads.upsertForConversation({
        ...lead({ name: null, email: 'new@example.com', phone: null }),
        conversationId: 'conv-1',
      });
      expect(reached).toEqual({ ...expected, email: 'new@example.com' });
      expect(await store.leads.list(bot.id, {}, ALL)).toEqual([reached]);
    });

    it('corrects only a conversation that has its lead: for one without, creates none', async () => {
      const named = { ...lead({ name: 'Ada', email: null, phone: null }), conversationId: 'conv-1' };
      expect(await store.leads.correctForConversation(named)).toBeUndefined();
      expect(await store.leads.list(bot.id, {}, ALL)).toEqual([]);
      const first = await store.leads.upsertForConversation({ ...lead({ name: null, phone: null }), conversationId: 'conv-1' });
      expect(await store.leads.correctForConversation(named)).toEqual({ ...first, name: 'Ada' });
      expect(await store.leads.list(bot.id, {}, ALL)).toEqual([{ ...first, name: 'Ada' }]);
    });

    it('keeps one lead per conversation and per chatbot', async () => {
      const other = await seedChatbot(store, owner);
      const a = await store.leads.upsertForConversation({ ...lead(), conversationId: 'conv-1' });
      const b = await store.leads.upsertForConversation({ ...lead(), conversationId: 'conv-2' });
      const c = await store.leads.upsertForConversation({ ...lead({ chatbotId: other.id }), conversationId: 'conv-1' });
      expect(new Set([a.id, b.id, c.id]).size).toBe(3);
      expect(await store.leads.list(bot.id, {}, ALL)).toHaveLength(2);
      expect(await store.leads.list(other.id, {}, ALL)).toEqual([c]);
    });

    it('makes one lead of 10 concurrent upserts, every caller seeing it', async () => {
      const attempts = Array.from({ length: 10 }, (_, i) =>
        lead({ conversationId: 'busy', name: `caller ${i}`, createdAt: new Date(Date.UTC(2026, 2, 10, 0, 0, i)) }),
      );
      const answers = await Promise.all(
        attempts.map((attempt) => store.leads.upsertForConversation({ ...attempt, conversationId: 'busy' })),
      );
      const stored = await store.leads.list(bot.id, {}, ALL);
      expect(stored).toHaveLength(1);
      const [only] = stored as [Lead];
      expect(ids(attempts)).toContain(only.id);
      expect(new Set(ids(answers))).toEqual(new Set([only.id]));
      expect(attempts.map((attempt) => attempt.name)).toContain(only.name);
      expect(answers.map((answer) => answer.createdAt.getTime())).toEqual(
        answers.map(() => only.createdAt.getTime()),
      );
    });
  });

  it('finds the leads of some of the chatbot’s conversations, not another chatbot’s of the same ids', async () => {
    const other = await seedChatbot(store, owner);
    const first = await store.leads.upsertForConversation({ ...lead(), conversationId: 'conv-1' });
    const second = await store.leads.upsertForConversation({ ...lead({ name: 'Grace' }), conversationId: 'conv-2' });
    await store.leads.upsertForConversation({ ...lead(), conversationId: 'conv-3' });
    await store.leads.insert(lead());
    await store.leads.upsertForConversation({ ...lead({ chatbotId: other.id }), conversationId: 'conv-4' });
    await store.leads.upsertForConversation({ ...lead({ chatbotId: other.id, name: 'Theirs' }), conversationId: 'conv-1' });
    const found = await store.leads.findForConversations(bot.id, ['conv-2', 'conv-1', 'conv-4', 'unknown']);
    expect(found.sort((a, b) => (a.conversationId ?? '').localeCompare(b.conversationId ?? ''))).toEqual([first, second]);
    expect(await store.leads.findForConversations(bot.id, [])).toEqual([]);
  });

  it('deletes the leads with their chatbot', async () => {
    const other = await seedChatbot(store, owner);
    await store.leads.insert(lead());
    await store.leads.upsertForConversation({ ...lead(), conversationId: 'conv-1' });
    const kept = lead({ chatbotId: other.id });
    await store.leads.insert(kept);
    expect(await store.chatbots.delete(owner.id, bot.id)).toBe(true);
    expect(await store.leads.list(bot.id, {}, ALL)).toEqual([]);
    expect(await store.leads.list(other.id, {}, ALL)).toEqual([kept]);
  });
});
