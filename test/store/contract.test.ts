import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import { UniqueViolation } from '../../src/store/errors.js';
import type { Account, Chatbot, Store } from '../../src/store/port.js';
import { countTurns } from '../support/event-loop.js';
import { storeTargets } from '../support/stores.js';

// One behaviour for every adapter: each case runs on each store that can be had here.

const quota = { messagesPerMonth: 100, maxChatbots: 5 };

function account(name = `acct-${randomUUID().slice(0, 8)}`): Account {
  return { id: randomUUID(), name, quota, createdAt: new Date('2026-01-02T03:04:05.678Z') };
}

function chatbot(accountId: string, overrides: Partial<Chatbot> = {}): Chatbot {
  const at = new Date('2026-02-03T04:05:06.789Z');
  return {
    id: randomUUID().replace(/-/g, '').slice(0, 21),
    accountId,
    name: 'Helper',
    status: 'ready',
    settings: defaultSettings('Helper'),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe.each(storeTargets.filter((target) => target.available))('$name store', (target) => {
  let store: Store;
  let owner: Account;

  beforeEach(async () => {
    store = await target.open();
    owner = account();
    await store.accounts.create(owner);
  });
  afterEach(async () => {
    await store.close();
  });

  describe('accounts', () => {
    it('finds an account by id and name, and counts them', async () => {
      expect(await store.accounts.findById(owner.id)).toEqual(owner);
      expect(await store.accounts.findByName(owner.name)).toEqual(owner);
      expect(await store.accounts.findByName('nobody')).toBeUndefined();
      await store.accounts.create(account('second'));
      expect(await store.accounts.count()).toBe(2);
      expect((await store.accounts.list()).map((a) => a.name)).toContain('second');
    });

    it('refuses a second account with the same name', async () => {
      await expect(store.accounts.create(account(owner.name))).rejects.toBeInstanceOf(UniqueViolation);
      expect(await store.accounts.count()).toBe(1);
    });

    it('finds the account holding a key hash, and refuses a duplicate hash', async () => {
      const key = { hash: 'a'.repeat(64), id: 'k1', accountId: owner.id, label: 'CI', prefix: 'sb_AbC1', createdAt: new Date() };
      await store.accounts.addKey(key);
      expect(await store.accounts.findByKeyHash(key.hash)).toEqual(owner);
      expect(await store.accounts.findByKeyHash('b'.repeat(64))).toBeUndefined();
      await expect(store.accounts.addKey(key)).rejects.toBeInstanceOf(UniqueViolation);
    });

    it('changes only the quota fields given', async () => {
      const changed = await store.accounts.setQuota(owner.id, { maxChatbots: 9 });
      expect(changed?.quota).toEqual({ messagesPerMonth: 100, maxChatbots: 9 });
      expect(await store.accounts.setQuota('missing', { maxChatbots: 1 })).toBeUndefined();
    });
  });

  describe('chatbots', () => {
    it('round-trips a chatbot exactly, scoped to its account', async () => {
      const bot = chatbot(owner.id);
      expect(await store.chatbots.insertWithinLimit(bot, 5)).toBe(true);
      expect(await store.chatbots.find(owner.id, bot.id)).toEqual(bot);
      const stranger = account();
      await store.accounts.create(stranger);
      expect(await store.chatbots.find(stranger.id, bot.id)).toBeUndefined();
      expect(await store.chatbots.list(stranger.id)).toEqual([]);
    });

    it('finds a chatbot by id alone for public routes', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      expect(await store.chatbots.findPublic(bot.id)).toEqual(bot);
      expect(await store.chatbots.findPublic('no-such-bot')).toBeUndefined();
    });

    it('lists oldest first', async () => {
      const older = chatbot(owner.id, { name: 'older', createdAt: new Date('2026-01-01T00:00:00Z') });
      const newer = chatbot(owner.id, { name: 'newer', createdAt: new Date('2026-03-01T00:00:00Z') });
      await store.chatbots.insertWithinLimit(newer, 5);
      await store.chatbots.insertWithinLimit(older, 5);
      expect((await store.chatbots.list(owner.id)).map((c) => c.name)).toEqual(['older', 'newer']);
      const [listed] = await store.chatbots.list(owner.id);
      expect(listed).toEqual({
        id: older.id,
        name: 'older',
        status: older.status,
        settings: { model: older.settings.model, instructions: older.settings.instructions, visibility: older.settings.visibility },
        createdAt: older.createdAt,
        updatedAt: older.updatedAt,
      });
    });

    it('lists what another instance and it itself changed, right after each change', async () => {
      const database = target.shared();
      const [first, second] = [await database.open(), await database.open()];
      const names = async () => (await first.chatbots.list(owned.id)).map((c) => c.name);
      const owned = account();
      try {
        await first.accounts.create(owned);
        const bot = chatbot(owned.id, { name: 'one' });
        await first.chatbots.insertWithinLimit(bot, 5);
        expect(await names()).toEqual(['one']);
        await second.chatbots.insertWithinLimit(chatbot(owned.id, { name: 'two', createdAt: new Date('2026-03-01T00:00:00Z') }), 5);
        expect(await names()).toEqual(['one', 'two']);
        await second.chatbots.update(owned.id, bot.id, { name: 'renamed', updatedAt: new Date() });
        expect(await names()).toEqual(['renamed', 'two']);
        await first.chatbots.update(owned.id, bot.id, { name: 'again', updatedAt: new Date() });
        expect(await names()).toEqual(['again', 'two']);
        await second.chatbots.delete(owned.id, bot.id);
        expect(await names()).toEqual(['two']);
      } finally {
        await Promise.all([first.close(), second.close()]);
        database.remove();
      }
    });

    it('never exceeds the limit, even when inserts race', async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => store.chatbots.insertWithinLimit(chatbot(owner.id), 4)),
      );
      expect(results.filter(Boolean)).toHaveLength(4);
      expect(await store.chatbots.list(owner.id)).toHaveLength(4);
    });

    it('frees a slot when a chatbot is deleted', async () => {
      const first = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(first, 1);
      expect(await store.chatbots.insertWithinLimit(chatbot(owner.id), 1)).toBe(false);
      expect(await store.chatbots.delete(owner.id, first.id)).toBe(true);
      expect(await store.chatbots.insertWithinLimit(chatbot(owner.id), 1)).toBe(true);
    });

    it('updates only what a change names, merging nested settings', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      const at = new Date('2026-04-05T06:07:08.009Z');
      const updated = await store.chatbots.update(owner.id, bot.id, {
        settings: { temp: 0.7, styles: { buttonColor: '#000000' }, collectCustomerInformation: { email: { active: true } } },
        updatedAt: at,
      });
      const expected: Chatbot = {
        ...bot,
        updatedAt: at,
        settings: {
          ...bot.settings,
          temp: 0.7,
          styles: { ...bot.settings.styles, buttonColor: '#000000' },
          collectCustomerInformation: {
            ...bot.settings.collectCustomerInformation,
            email: { active: true, label: 'Email' },
          },
        },
      };
      expect(updated).toEqual(expected);
      expect(await store.chatbots.find(owner.id, bot.id)).toEqual(expected);
    });

    it('replaces arrays and renames', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      await store.chatbots.update(owner.id, bot.id, { settings: { initialMessages: ['a', 'b'] }, updatedAt: new Date() });
      const updated = await store.chatbots.update(owner.id, bot.id, {
        name: 'Renamed',
        status: 'training',
        settings: { initialMessages: ['c'] },
        updatedAt: new Date(),
      });
      expect(updated?.name).toBe('Renamed');
      expect(updated?.status).toBe('training');
      expect(updated?.settings.initialMessages).toEqual(['c']);
    });

    it('keeps every field when concurrent updates change different ones', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      await Promise.all([
        store.chatbots.update(owner.id, bot.id, { settings: { temp: 0.3 }, updatedAt: new Date() }),
        store.chatbots.update(owner.id, bot.id, { settings: { visibility: 'public' }, updatedAt: new Date() }),
        store.chatbots.update(owner.id, bot.id, { settings: { styles: { theme: 'dark' } }, updatedAt: new Date() }),
        store.chatbots.update(owner.id, bot.id, { name: 'Both', updatedAt: new Date() }),
      ]);
      const after = await store.chatbots.find(owner.id, bot.id);
      expect(after?.settings.temp).toBe(0.3);
      expect(after?.settings.visibility).toBe('public');
      expect(after?.settings.styles.theme).toBe('dark');
      expect(after?.name).toBe('Both');
    });

    it('does not update or delete another account’s chatbot', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      const stranger = account();
      await store.accounts.create(stranger);
      expect(await store.chatbots.update(stranger.id, bot.id, { name: 'x', updatedAt: new Date() })).toBeUndefined();
      expect(await store.chatbots.delete(stranger.id, bot.id)).toBe(false);
      expect(await store.chatbots.find(owner.id, bot.id)).toEqual(bot);
    });

    it('deletes a chatbot with its training material and assets', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      await store.training.replace(bot.id, { sourceText: 'text', chunks: ['text'] });
      await store.assets.put(asset(bot.id, 'icon'));
      expect(await store.chatbots.delete(owner.id, bot.id)).toBe(true);
      expect(await store.chatbots.delete(owner.id, bot.id)).toBe(false);
      expect(await store.training.material(bot.id)).toEqual({ version: undefined, chunks: [] });
      expect(await store.training.sourceText(bot.id)).toBeUndefined();
      expect(await store.assets.get(bot.id, 'icon')).toBeUndefined();
    });
  });

  describe('training material', () => {
    it('replaces chunks and source text whole, in order', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      await store.training.replace(bot.id, { sourceText: 'one two three', chunks: ['one', 'two', 'three'] });
      const before = await store.training.version(bot.id);
      expect(before).toBeDefined();
      await store.training.replace(bot.id, { sourceText: 'four five', chunks: ['four', 'five'] });
      const material = await store.training.material(bot.id);
      expect(material.chunks).toEqual([
        { seq: 0, text: 'four' },
        { seq: 1, text: 'five' },
      ]);
      expect(material.version).toBe(await store.training.version(bot.id));
      expect(material.version).not.toBe(before);
      expect(await store.training.sourceText(bot.id)).toBe('four five');
    });

    it('never shows readers a mix of old and new material', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      const material = (tag: string) => Array.from({ length: 1_500 }, (_, i) => `${tag}-${i}`);
      await store.training.replace(bot.id, { sourceText: 'old', chunks: material('old') });
      const replacing = store.training.replace(bot.id, { sourceText: 'new', chunks: material('new') });
      const seen: string[][] = [];
      for (let i = 0; i < 5; i += 1) seen.push(((await store.training.material(bot.id)).chunks).map((c) => c.text));
      await replacing;
      seen.push(((await store.training.material(bot.id)).chunks).map((c) => c.text));
      for (const texts of seen) {
        expect([material('old'), material('new')]).toContainEqual(texts);
      }
      expect(seen.at(-1)).toEqual(material('new'));
    });

    it('reads back the material it just wrote as another process reads it, and never once another process replaced it', async () => {
      const database = target.shared();
      const [first, second] = [await database.open(), await database.open()];
      try {
        const owned = account();
        await first.accounts.create(owned);
        const bot = chatbot(owned.id);
        await first.chatbots.insertWithinLimit(bot, 5);
        const source = { id: 'src', title: 'Handbook', type: 'text' as const };
        await first.training.replace(bot.id, { chunks: [{ text: 'one', source }, 'two'], revision: 1 });
        const fromElsewhere = await second.training.material(bot.id);
        expect(fromElsewhere.chunks).toEqual([
          { seq: 0, text: 'one', source },
          { seq: 1, text: 'two' },
        ]);
        expect(await first.training.material(bot.id)).toEqual(fromElsewhere);

        await first.training.replace(bot.id, { chunks: ['three'], revision: 2 });
        await second.training.replace(bot.id, { chunks: ['four'], revision: 3 });
        expect((await first.training.material(bot.id)).chunks).toEqual([{ seq: 0, text: 'four' }]);
      } finally {
        await Promise.all([first.close(), second.close()]);
        database.remove();
      }
    });

    it('serves other work while it writes a large material', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      const chunks = Array.from({ length: 5_000 }, (_, i) => `chunk ${i} `.repeat(60));
      const sourceText = chunks.join('\n') + ' \u{1F6B2}'.repeat(300_000);
      const turns = countTurns();
      try {
        await store.training.replace(bot.id, { sourceText, chunks });
      } finally {
        turns.stop();
      }
      // A write that held the event loop until it committed would let no other callback run.
      expect(turns.count).toBeGreaterThan(2);
      expect(await store.training.sourceText(bot.id)).toBe(sourceText);
      expect((await store.training.material(bot.id)).chunks.map((chunk) => chunk.text)).toEqual(chunks);
    });
  });

  describe('rate limits', () => {
    const minute = new Date('2026-06-01T12:00:00Z');
    const nextMinute = new Date('2026-06-01T12:01:00Z');

    it('counts hits per key and per window', async () => {
      expect(await store.rateLimits.hit('contacts:a', minute, 60_000)).toBe(1);
      expect(await store.rateLimits.hit('contacts:a', minute, 60_000)).toBe(2);
      expect(await store.rateLimits.hit('contacts:b', minute, 60_000)).toBe(1);
      expect(await store.rateLimits.hit('contacts:a', nextMinute, 60_000)).toBe(1);
    });

    it('reads the count of a window without counting a hit', async () => {
      expect(await store.rateLimits.count('sign-in:a', minute)).toBe(0);
      await store.rateLimits.hit('sign-in:a', minute, 60_000);
      await store.rateLimits.hit('sign-in:a', minute, 60_000);
      expect(await store.rateLimits.count('sign-in:a', minute)).toBe(2);
      expect(await store.rateLimits.count('sign-in:a', minute)).toBe(2);
      expect(await store.rateLimits.count('sign-in:a', nextMinute)).toBe(0);
      expect(await store.rateLimits.count('sign-in:b', minute)).toBe(0);
    });

    it('loses no hit when many arrive at once', async () => {
      const counts = await Promise.all(
        Array.from({ length: 40 }, () => store.rateLimits.hit('contacts:busy', minute, 60_000)),
      );
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  });

  describe('message usage', () => {
    it('takes credits up to the limit, even when requests race, and gives them back', async () => {
      const taken = await Promise.all(
        Array.from({ length: 9 }, () => store.usage.reserveMessage(owner.id, '2026-11', 5)),
      );
      expect(taken.filter(Boolean)).toHaveLength(5);
      expect(await store.usage.messagesUsed(owner.id, '2026-11')).toBe(5);
      await store.usage.releaseMessage(owner.id, '2026-11');
      expect(await store.usage.reserveMessage(owner.id, '2026-11', 5)).toBe(true);
      expect(await store.usage.reserveMessage(owner.id, '2026-11', 5)).toBe(false);
      expect(await store.usage.reserveMessage(owner.id, '2026-12', 5)).toBe(true);
      expect(await store.usage.reserveMessage(owner.id, '2027-01', 0)).toBe(false);
    });
  });

  describe('assets', () => {
    it('stores, replaces, reads and deletes one asset per kind', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      const first = asset(bot.id, 'icon', Buffer.from([1, 2, 3]));
      const second = asset(bot.id, 'icon', Buffer.from([4, 5]));
      await store.assets.put(first);
      await store.assets.put(second);
      expect(await store.assets.get(bot.id, 'icon')).toEqual(second);
      expect(await store.assets.get(bot.id, 'profile-picture')).toBeUndefined();
      expect(await store.assets.delete(bot.id, 'icon')).toBe(true);
      expect(await store.assets.delete(bot.id, 'icon')).toBe(false);
      expect(await store.assets.get(bot.id, 'icon')).toBeUndefined();
    });

    it('reads an asset\'s etag alone, and none for a kind not stored', async () => {
      const bot = chatbot(owner.id);
      await store.chatbots.insertWithinLimit(bot, 5);
      expect(await store.assets.etag(bot.id, 'icon')).toBeUndefined();
      await store.assets.put(asset(bot.id, 'icon', Buffer.from([1, 2, 3])));
      expect(await store.assets.etag(bot.id, 'icon')).toBe('"010203"');
      await store.assets.put(asset(bot.id, 'icon', Buffer.from([4, 5])));
      expect(await store.assets.etag(bot.id, 'icon')).toBe('"0405"');
      expect(await store.assets.etag(bot.id, 'profile-picture')).toBeUndefined();
      await store.assets.delete(bot.id, 'icon');
      expect(await store.assets.etag(bot.id, 'icon')).toBeUndefined();
    });
  });
});

function asset(chatbotId: string, kind: 'icon' | 'profile-picture', data = Buffer.from([9, 8, 7])) {
  return {
    chatbotId,
    kind,
    contentType: 'image/png',
    data,
    etag: `"${data.toString('hex')}"`,
    updatedAt: new Date('2026-05-06T07:08:09.010Z'),
  };
}
