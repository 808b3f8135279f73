import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account, Binding, Chatbot, Digest, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Bindings and digest subscriptions: one behaviour for every adapter that can be had here.

const ALL = { page: 1, size: 100 };
const CREATED = new Date('2026-03-10T12:00:00.000Z');
const LATER = new Date('2026-03-11T08:30:00.000Z');

describe.each(storeTargets.filter((target) => target.available))('$name store: integrations', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;
  let otherBot: Chatbot;

  const binding = (overrides: Partial<Binding> = {}): Binding => ({
    id: randomUUID(),
    accountId: owner.id,
    platform: 'slack',
    workspaceId: 'T0001',
    channelId: 'C0001',
    chatbotId: bot.id,
    mode: 'mentions',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  });
  const digest = (overrides: Partial<Digest> = {}): Digest => ({
    id: randomUUID(),
    accountId: owner.id,
    chatbotId: bot.id,
    platform: 'slack',
    workspaceId: 'T0001',
    channelId: 'C0001',
    time: '09:00',
    timezone: 'Europe/Oslo',
    postWhenEmpty: false,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  });
  const ids = (items: { id: string }[]) => items.map((item) => item.id);
  const slack = (channelId: string, workspaceId = 'T0001') => ({ platform: 'slack' as const, workspaceId, channelId });

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
    otherBot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  describe('bindings', () => {
    it('round-trips a binding exactly', async () => {
      const created = binding({ mode: 'all', platform: 'discord', workspaceId: '112233', channelId: '445566' });
      expect(await store.bindings.upsert(created)).toEqual(created);
      expect(await store.bindings.list(owner.id, {}, ALL)).toEqual([created]);
    });

    it('replaces chatbotId, mode and updatedAt of the channel’s binding, keeping id and createdAt', async () => {
      const first = await store.bindings.upsert(binding());
      const again = binding({ chatbotId: otherBot.id, mode: 'all', createdAt: LATER, updatedAt: LATER });
      const replaced = await store.bindings.upsert(again);
      expect(replaced).toEqual({ ...first, chatbotId: otherBot.id, mode: 'all', updatedAt: LATER });
      expect(replaced.id).not.toBe(again.id);
      expect(await store.bindings.list(owner.id, {}, ALL)).toEqual([replaced]);
    });

    it('keeps one binding per (platform, workspace, channel)', async () => {
      const a = await store.bindings.upsert(binding());
      const b = await store.bindings.upsert(binding({ channelId: 'C0002' }));
      const c = await store.bindings.upsert(binding({ workspaceId: 'T0002' }));
      const d = await store.bindings.upsert(binding({ platform: 'discord' }));
      const e = await store.bindings.upsert(binding({ channelId: '*' }));
      await store.bindings.upsert(binding({ channelId: 'C0002', mode: 'all' }));
      expect(new Set(ids([a, b, c, d, e])).size).toBe(5);
      const stored = await store.bindings.list(owner.id, {}, ALL);
      expect(ids(stored).sort()).toEqual(ids([a, b, c, d, e]).sort());
      expect(stored.find((one) => one.id === b.id)?.mode).toBe('all');
    });

    it('makes one binding of 10 concurrent binds of one channel, every caller seeing it', async () => {
      const attempts = Array.from({ length: 10 }, (_, i) =>
        binding({ chatbotId: i % 2 ? bot.id : otherBot.id, updatedAt: new Date(CREATED.getTime() + i) }),
      );
      const answers = await Promise.all(attempts.map((attempt) => store.bindings.upsert(attempt)));
      const stored = await store.bindings.list(owner.id, {}, ALL);
      expect(stored).toHaveLength(1);
      const [only] = stored as [Binding];
      expect(ids(attempts)).toContain(only.id);
      expect(new Set(ids(answers))).toEqual(new Set([only.id]));
    });

    it('resolves the channel’s own binding, else the workspace default, else nothing', async () => {
      expect(await store.bindings.resolve(owner.id, slack('C0001'))).toBeUndefined();
      const fallback = await store.bindings.upsert(binding({ channelId: '*', chatbotId: otherBot.id }));
      expect(await store.bindings.resolve(owner.id, slack('C0001'))).toEqual(fallback);
      expect(await store.bindings.resolve(owner.id, slack('*'))).toEqual(fallback);
      const own = await store.bindings.upsert(binding({ channelId: 'C0001' }));
      expect(await store.bindings.resolve(owner.id, slack('C0001'))).toEqual(own);
      expect(await store.bindings.resolve(owner.id, slack('C0009'))).toEqual(fallback);
      // The default of one workspace or platform is not another's.
      expect(await store.bindings.resolve(owner.id, slack('C0001', 'T0002'))).toBeUndefined();
      expect(await store.bindings.resolve(owner.id, { ...slack('C0001'), platform: 'discord' })).toBeUndefined();
    });

    it('prefers the channel’s binding over a default created after it', async () => {
      const own = await store.bindings.upsert(binding({ channelId: 'C0001' }));
      await store.bindings.upsert(binding({ channelId: '*', chatbotId: otherBot.id, createdAt: LATER }));
      expect(await store.bindings.resolve(owner.id, slack('C0001'))).toEqual(own);
    });

    it('filters by exact platform, workspace, channel and chatbot', async () => {
      const a = await store.bindings.upsert(binding());
      const b = await store.bindings.upsert(binding({ channelId: 'C0002', chatbotId: otherBot.id }));
      const c = await store.bindings.upsert(binding({ workspaceId: 'T0002', channelId: '*' }));
      const d = await store.bindings.upsert(binding({ platform: 'discord', workspaceId: 'G1', channelId: 'C0001' }));
      const listed = async (filter: Parameters<Store['bindings']['list']>[1]) =>
        ids(await store.bindings.list(owner.id, filter, ALL)).sort();
      expect(await listed({ platform: 'slack' })).toEqual(ids([a, b, c]).sort());
      expect(await listed({ platform: 'discord' })).toEqual([d.id]);
      expect(await listed({ workspaceId: 'T0001' })).toEqual(ids([a, b]).sort());
      expect(await listed({ channelId: 'C0001' })).toEqual(ids([a, d]).sort());
      expect(await listed({ channelId: '*' })).toEqual([c.id]);
      expect(await listed({ chatbotId: otherBot.id })).toEqual([b.id]);
      expect(await listed({ platform: 'slack', channelId: 'C0001' })).toEqual([a.id]);
      expect(await listed({ workspaceId: 'T0' })).toEqual([]);
    });

    it('lists oldest first, ties by id, in pages without gaps or repeats', async () => {
      const made = [];
      for (let i = 0; i < 7; i += 1) {
        made.push(
          await store.bindings.upsert(
            binding({ id: `b-${6 - (i % 3)}-${i}`, channelId: `C${i}`, createdAt: new Date(CREATED.getTime() + Math.floor(i / 2)) }),
          ),
        );
      }
      const expected = [...made]
        .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1))
        .map((one) => one.id);
      const pages = [];
      for (let page = 1; page <= 4; page += 1) pages.push(ids(await store.bindings.list(owner.id, {}, { page, size: 3 })));
      expect(pages).toEqual([expected.slice(0, 3), expected.slice(3, 6), expected.slice(6), []]);
    });

    it('scopes bindings by account: same channel, separate bindings', async () => {
      const stranger = await seedAccount(store);
      const theirBot = await seedChatbot(store, stranger);
      const mine = await store.bindings.upsert(binding());
      const theirs = await store.bindings.upsert(binding({ accountId: stranger.id, chatbotId: theirBot.id }));
      expect(theirs.id).not.toBe(mine.id);
      expect(await store.bindings.list(owner.id, {}, ALL)).toEqual([mine]);
      expect(await store.bindings.list(stranger.id, {}, ALL)).toEqual([theirs]);
      expect(await store.bindings.resolve(stranger.id, slack('C0001'))).toEqual(theirs);
      expect(await store.bindings.delete(stranger.id, mine.id)).toBeUndefined();
      expect(await store.bindings.list(owner.id, {}, ALL)).toEqual([mine]);
    });

    it('deletes a binding, answering it', async () => {
      const gone = await store.bindings.upsert(binding());
      const kept = await store.bindings.upsert(binding({ channelId: 'C0002' }));
      expect(await store.bindings.delete(owner.id, gone.id)).toEqual(gone);
      expect(await store.bindings.delete(owner.id, gone.id)).toBeUndefined();
      expect(await store.bindings.delete(owner.id, 'nothing')).toBeUndefined();
      expect(await store.bindings.list(owner.id, {}, ALL)).toEqual([kept]);
    });
  });

  describe('digests', () => {
    it('round-trips a subscription exactly', async () => {
      const created = digest({ postWhenEmpty: true, timezone: 'UTC', time: '23:59' });
      expect(await store.digests.upsert(created)).toEqual(created);
      expect(await store.digests.list(owner.id, {}, ALL)).toEqual([created]);
    });

    it('replaces time, timezone, postWhenEmpty and updatedAt, keeping id and createdAt', async () => {
      const first = await store.digests.upsert(digest());
      const replaced = await store.digests.upsert(
        digest({ time: '17:45', timezone: 'America/New_York', postWhenEmpty: true, createdAt: LATER, updatedAt: LATER }),
      );
      expect(replaced).toEqual({
        ...first,
        time: '17:45',
        timezone: 'America/New_York',
        postWhenEmpty: true,
        updatedAt: LATER,
      });
      const back = await store.digests.upsert(digest({ postWhenEmpty: false }));
      expect(back.postWhenEmpty).toBe(false);
      expect(await store.digests.list(owner.id, {}, ALL)).toEqual([back]);
    });

    it('keeps one subscription per chatbot and channel', async () => {
      const a = await store.digests.upsert(digest());
      const b = await store.digests.upsert(digest({ chatbotId: otherBot.id }));
      const c = await store.digests.upsert(digest({ channelId: 'C0002' }));
      const d = await store.digests.upsert(digest({ workspaceId: 'T0002' }));
      const e = await store.digests.upsert(digest({ platform: 'discord' }));
      await store.digests.upsert(digest({ chatbotId: otherBot.id, time: '10:00' }));
      expect(new Set(ids([a, b, c, d, e])).size).toBe(5);
      const stored = await store.digests.list(owner.id, {}, ALL);
      expect(ids(stored).sort()).toEqual(ids([a, b, c, d, e]).sort());
      expect(stored.find((one) => one.id === b.id)?.time).toBe('10:00');
    });

    it('makes one subscription of 10 concurrent subscribes', async () => {
      const attempts = Array.from({ length: 10 }, (_, i) => digest({ time: `0${i}:00` }));
      const answers = await Promise.all(attempts.map((attempt) => store.digests.upsert(attempt)));
      const stored = await store.digests.list(owner.id, {}, ALL);
      expect(stored).toHaveLength(1);
      expect(new Set(ids(answers))).toEqual(new Set(ids(stored)));
      expect(attempts.map((attempt) => attempt.time)).toContain(stored[0]?.time);
    });

    it('filters by exact chatbot, platform, workspace and channel', async () => {
      const a = await store.digests.upsert(digest());
      const b = await store.digests.upsert(digest({ chatbotId: otherBot.id, channelId: 'C0002' }));
      const c = await store.digests.upsert(digest({ platform: 'discord', workspaceId: 'G1' }));
      const listed = async (filter: Parameters<Store['digests']['list']>[1]) =>
        ids(await store.digests.list(owner.id, filter, ALL)).sort();
      expect(await listed({ chatbotId: bot.id })).toEqual(ids([a, c]).sort());
      expect(await listed({ platform: 'discord' })).toEqual([c.id]);
      expect(await listed({ workspaceId: 'T0001' })).toEqual(ids([a, b]).sort());
      expect(await listed({ channelId: 'C0002' })).toEqual([b.id]);
      expect(await listed({ chatbotId: bot.id, platform: 'slack' })).toEqual([a.id]);
      expect(await listed({ channelId: 'C000' })).toEqual([]);
    });

    it('pages oldest first', async () => {
      const made = [];
      for (let i = 0; i < 5; i += 1) {
        made.push(await store.digests.upsert(digest({ channelId: `C${i}`, createdAt: new Date(CREATED.getTime() + i) })));
      }
      expect(ids(await store.digests.list(owner.id, {}, { page: 1, size: 2 }))).toEqual(ids(made.slice(0, 2)));
      expect(ids(await store.digests.list(owner.id, {}, { page: 3, size: 2 }))).toEqual(ids(made.slice(4)));
    });

    it('scopes subscriptions by account, and listAll answers every account’s', async () => {
      const stranger = await seedAccount(store);
      const theirBot = await seedChatbot(store, stranger);
      const mine = await store.digests.upsert(digest());
      const theirs = await store.digests.upsert(
        digest({ accountId: stranger.id, chatbotId: theirBot.id, createdAt: LATER, updatedAt: LATER }),
      );
      expect(await store.digests.list(owner.id, {}, ALL)).toEqual([mine]);
      expect(await store.digests.list(stranger.id, {}, ALL)).toEqual([theirs]);
      expect(await store.digests.delete(stranger.id, mine.id)).toBeUndefined();
      expect(await store.digests.listAll()).toEqual([mine, theirs]);
    });

    it('deletes a subscription, answering it', async () => {
      const gone = await store.digests.upsert(digest());
      const kept = await store.digests.upsert(digest({ channelId: 'C0002' }));
      expect(await store.digests.delete(owner.id, gone.id)).toEqual(gone);
      expect(await store.digests.delete(owner.id, gone.id)).toBeUndefined();
      expect(await store.digests.listAll()).toEqual([kept]);
    });

    it('listAll answers nothing on an empty store', async () => {
      expect(await store.digests.listAll()).toEqual([]);
    });
  });

  it('deletes a chatbot’s bindings and digests with it, and nothing else', async () => {
    await store.bindings.upsert(binding());
    await store.bindings.upsert(binding({ channelId: '*' }));
    const keptBinding = await store.bindings.upsert(binding({ channelId: 'C0002', chatbotId: otherBot.id }));
    await store.digests.upsert(digest());
    const keptDigest = await store.digests.upsert(digest({ chatbotId: otherBot.id }));
    expect(await store.chatbots.delete(owner.id, bot.id)).toBe(true);
    expect(await store.bindings.list(owner.id, {}, ALL)).toEqual([keptBinding]);
    expect(await store.bindings.resolve(owner.id, slack('C0001'))).toBeUndefined();
    expect(await store.digests.listAll()).toEqual([keptDigest]);
  });
});
