import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../src/store/errors.js';
import type { Account, Chatbot, Contact, CustomAttribute, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Contacts and custom attributes: one behaviour for every adapter that can be had here.

const CREATED = new Date('2026-03-04T05:06:07.089Z');

function contact(chatbotId: string, overrides: Partial<Contact> = {}): Contact {
  const externalId = `ext-${randomUUID().slice(0, 8)}`;
  return {
    id: randomUUID(),
    chatbotId,
    externalId,
    name: 'Ada Lovelace',
    email: `${externalId}@example.com`,
    phonenumber: '+47 123 45 678',
    paymentAccounts: [{ label: 'Main', payment_id: 'pay-1', payment_email: 'billing@example.com' }],
    customAttributes: { plan: 'pro', seats: 3 },
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

function attribute(chatbotId: string, overrides: Partial<CustomAttribute> = {}): CustomAttribute {
  return {
    chatbotId,
    name: 'plan',
    label: 'Plan',
    type: 'text',
    description: 'Subscription plan',
    archived: false,
    createdAt: CREATED,
    ...overrides,
  };
}

describe.each(storeTargets.filter((target) => target.available))('$name store', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;
  let otherBot: Chatbot;

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
    otherBot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  const everyContact = async (chatbotId: string) => store.contacts.list(chatbotId, { page: 1, size: 1_000 });

  describe('contacts', () => {
    it('round-trips contacts exactly, including unset fields', async () => {
      const full = contact(bot.id);
      const bare = contact(bot.id, {
        name: null,
        email: null,
        phonenumber: null,
        paymentAccounts: [],
        customAttributes: {},
      });
      await store.contacts.insertMany([full, bare]);
      expect(await store.contacts.find(bot.id, full.externalId)).toEqual(full);
      expect(await store.contacts.find(bot.id, bare.externalId)).toEqual(bare);
      expect(await store.contacts.find(bot.id, 'nobody')).toBeUndefined();
    });

    it('scopes contacts by chatbot', async () => {
      const mine = contact(bot.id);
      await store.contacts.insertMany([mine]);
      expect(await store.contacts.find(otherBot.id, mine.externalId)).toBeUndefined();
      expect(await everyContact(otherBot.id)).toEqual([]);
      expect(await store.contacts.update(otherBot.id, mine.externalId, { name: 'x', updatedAt: new Date() })).toBeUndefined();
      expect(await store.contacts.delete(otherBot.id, mine.externalId)).toBeUndefined();
      expect(await store.contacts.find(bot.id, mine.externalId)).toEqual(mine);
    });

    it('lets different chatbots use the same external id and email', async () => {
      const first = contact(bot.id);
      const twin = contact(otherBot.id, { externalId: first.externalId, email: first.email });
      await store.contacts.insertMany([first]);
      await store.contacts.insertMany([twin]);
      expect(await store.contacts.find(otherBot.id, first.externalId)).toEqual(twin);
    });

    it('allows any number of contacts without an email', async () => {
      const batch = [1, 2, 3].map(() => contact(bot.id, { email: null }));
      await store.contacts.insertMany(batch);
      expect(await everyContact(bot.id)).toHaveLength(3);
    });

    // The violation names the clashing field, which the 409's detail passes on.
    const clashes: [string, (stored: Contact) => Partial<Contact>, RegExp][] = [
      ['an external id', (stored) => ({ externalId: stored.externalId }), /external_?id/i],
      ['an email', (stored) => ({ email: stored.email }), /email/],
    ];

    it.each(clashes)('refuses a batch that repeats %s of a stored contact, inserting none of it', async (_, clash, field) => {
      const stored = contact(bot.id);
      await store.contacts.insertMany([stored]);
      const batch = [contact(bot.id), contact(bot.id, clash(stored)), contact(bot.id)];
      const refusal = store.contacts.insertMany(batch);
      await expect(refusal).rejects.toBeInstanceOf(UniqueViolation);
      await expect(refusal).rejects.toMatchObject({ index: expect.stringMatching(field) });
      expect(await everyContact(bot.id)).toEqual([stored]);
    });

    it.each(clashes)('refuses a batch that repeats %s within itself, inserting none of it', async (_, clash, field) => {
      const first = contact(bot.id);
      const batch = [first, contact(bot.id), contact(bot.id, clash(first))];
      const refusal = store.contacts.insertMany(batch);
      await expect(refusal).rejects.toBeInstanceOf(UniqueViolation);
      await expect(refusal).rejects.toMatchObject({ index: expect.stringMatching(field) });
      expect(await everyContact(bot.id)).toEqual([]);
    });

    it('merges an update: absent fields kept, custom attributes by key, arrays replaced, null clears', async () => {
      const stored = contact(bot.id);
      await store.contacts.insertMany([stored]);
      const at = new Date('2026-04-05T06:07:08.009Z');
      const updated = await store.contacts.update(bot.id, stored.externalId, {
        name: null,
        phonenumber: '+1 555 0100',
        paymentAccounts: [{ label: 'Card', payment_id: 'pay-2', payment_email: 'card@example.com' }],
        customAttributes: { seats: 5, region: 'eu' },
        updatedAt: at,
      });
      const expected: Contact = {
        ...stored,
        name: null,
        phonenumber: '+1 555 0100',
        paymentAccounts: [{ label: 'Card', payment_id: 'pay-2', payment_email: 'card@example.com' }],
        customAttributes: { plan: 'pro', seats: 5, region: 'eu' },
        updatedAt: at,
      };
      expect(updated).toEqual(expected);
      expect(await store.contacts.find(bot.id, stored.externalId)).toEqual(expected);
    });

    it('treats undefined fields in a change as absent', async () => {
      const stored = contact(bot.id);
      await store.contacts.insertMany([stored]);
      const at = new Date('2026-04-05T06:07:08.009Z');
      const updated = await store.contacts.update(bot.id, stored.externalId, {
        name: undefined,
        email: undefined,
        customAttributes: undefined,
        updatedAt: at,
      });
      expect(updated).toEqual({ ...stored, updatedAt: at });
    });

    it('moves a contact to a new external id', async () => {
      const stored = contact(bot.id);
      await store.contacts.insertMany([stored]);
      const updated = await store.contacts.update(bot.id, stored.externalId, { externalId: 'renamed', updatedAt: CREATED });
      expect(updated).toEqual({ ...stored, externalId: 'renamed' });
      expect(await store.contacts.find(bot.id, 'renamed')).toEqual(updated);
      expect(await store.contacts.find(bot.id, stored.externalId)).toBeUndefined();
    });

    it.each(clashes)('refuses an update to %s another contact has, changing nothing', async (_, clash) => {
      const [taken, target] = [contact(bot.id), contact(bot.id)];
      await store.contacts.insertMany([taken, target]);
      const change = { ...clash(taken), name: 'Changed', customAttributes: { plan: 'free' }, updatedAt: new Date() };
      await expect(store.contacts.update(bot.id, target.externalId, change)).rejects.toBeInstanceOf(UniqueViolation);
      expect(await store.contacts.find(bot.id, target.externalId)).toEqual(target);
      expect(await store.contacts.find(bot.id, taken.externalId)).toEqual(taken);
    });

    it('answers undefined when updating or deleting a missing contact', async () => {
      expect(await store.contacts.update(bot.id, 'missing', { name: 'x', updatedAt: new Date() })).toBeUndefined();
      expect(await store.contacts.delete(bot.id, 'missing')).toBeUndefined();
    });

    it('keeps every custom attribute when concurrent updates set different ones', async () => {
      const stored = contact(bot.id, { customAttributes: {} });
      await store.contacts.insertMany([stored]);
      const keys = Array.from({ length: 20 }, (_, i) => `attr_${i}`);
      await Promise.all(
        keys.map((key, i) =>
          store.contacts.update(bot.id, stored.externalId, { customAttributes: { [key]: i }, updatedAt: new Date() }),
        ),
      );
      const after = await store.contacts.find(bot.id, stored.externalId);
      expect(after?.customAttributes).toEqual(Object.fromEntries(keys.map((key, i) => [key, i])));
    });

    it('removes the custom attributes a change sets to null, keeping the others', async () => {
      const stored = contact(bot.id);
      await store.contacts.insertMany([stored]);
      const at = new Date('2026-04-05T06:07:08.009Z');
      const updated = await store.contacts.update(bot.id, stored.externalId, { customAttributes: { plan: null, region: 'eu', absent: null }, updatedAt: at });
      const expected: Contact = { ...stored, customAttributes: { seats: 3, region: 'eu' }, updatedAt: at };
      expect(updated).toEqual(expected);
      expect(await store.contacts.find(bot.id, stored.externalId)).toEqual(expected);
    });

    it('loses no custom attribute change when concurrent updates remove some and set others', async () => {
      const keys = Array.from({ length: 20 }, (_, i) => `attr_${i}`);
      const stored = contact(bot.id, { customAttributes: Object.fromEntries(keys.map((key) => [key, 'before'])) });
      await store.contacts.insertMany([stored]);
      await Promise.all(
        keys.map((key, i) =>
          store.contacts.update(bot.id, stored.externalId, { customAttributes: { [key]: i % 2 === 0 ? null : i, [`new_${i}`]: i }, updatedAt: new Date() }),
        ),
      );
      const after = await store.contacts.find(bot.id, stored.externalId);
      const kept = keys.flatMap((key, i) => (i % 2 === 0 ? [] : [[key, i]]));
      expect(after?.customAttributes).toEqual(Object.fromEntries([...kept, ...keys.map((_key, i) => [`new_${i}`, i])]));
    });

    it('pages oldest first with ties broken by id, each contact exactly once', async () => {
      const times = ['2026-01-03', '2026-01-01', '2026-01-02', '2026-01-01', '2026-01-02', '2026-01-01', '2026-01-04'];
      const contacts = times.map((day) => contact(bot.id, { createdAt: new Date(`${day}T00:00:00Z`) }));
      await store.contacts.insertMany(contacts.slice(0, 4));
      await store.contacts.insertMany(contacts.slice(4));
      const expected = [...contacts].sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
      );
      const pages = [];
      for (let page = 1; page <= 4; page += 1) pages.push(await store.contacts.list(bot.id, { page, size: 3 }));
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1, 0]);
      expect(pages.flat()).toEqual(expected);
      expect(await store.contacts.list(bot.id, { page: 2, size: 3 })).toEqual(pages[1]);
    });

    it('pages and counts exactly at any depth, across deletions and contacts dated earlier', async () => {
      const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + (n % 40)));
      const batches = [0, 1, 2].map((batch) =>
        Array.from({ length: 500 }, (_, i) => contact(bot.id, { createdAt: day(batch * 7 + i), email: null })),
      );
      for (const batch of batches) await store.contacts.insertMany(batch);
      const doomed = batches.flat().filter((_, i) => i % 7 === 3);
      for (const gone of doomed) await store.contacts.delete(bot.id, gone.externalId);
      await store.contacts.insertMany([contact(otherBot.id)]);

      const expected = batches
        .flat()
        .filter((item) => !doomed.includes(item))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map((item) => item.id);
      expect(await store.contacts.count(bot.id)).toBe(expected.length);
      const pages: string[][] = [];
      for (let page = 1; page <= Math.ceil(expected.length / 100) + 1; page += 1) {
        pages.push((await store.contacts.list(bot.id, { page, size: 100 })).map((item) => item.id));
      }
      expect(pages.flat()).toEqual(expected);
      expect(pages.at(-1)).toEqual([]);
    }, 60_000);

    it('counts the contacts of one chatbot', async () => {
      expect(await store.contacts.count(bot.id)).toBe(0);
      const others = [contact(otherBot.id, { createdAt: new Date(CREATED.getTime() - 1) })];
      await store.contacts.insertMany([contact(bot.id), contact(bot.id), ...others]);
      expect(await store.contacts.count(bot.id)).toBe(2);
      expect(await store.contacts.count(otherBot.id)).toBe(1);
      expect(await store.contacts.list(otherBot.id, { page: 1, size: 10 })).toEqual(others);
      expect(await store.contacts.list(bot.id, { page: 2, size: 1 })).toHaveLength(1);
    });

    it('deletes a contact and answers it', async () => {
      const [doomed, kept] = [contact(bot.id), contact(bot.id)];
      await store.contacts.insertMany([doomed, kept]);
      expect(await store.contacts.delete(bot.id, doomed.externalId)).toEqual(doomed);
      expect(await store.contacts.find(bot.id, doomed.externalId)).toBeUndefined();
      expect(await store.contacts.delete(bot.id, doomed.externalId)).toBeUndefined();
      expect(await everyContact(bot.id)).toEqual([kept]);
    });

    it('frees a deleted contact’s external id and email', async () => {
      const first = contact(bot.id);
      await store.contacts.insertMany([first]);
      await store.contacts.delete(bot.id, first.externalId);
      const again = contact(bot.id, { externalId: first.externalId, email: first.email });
      await store.contacts.insertMany([again]);
      expect(await store.contacts.find(bot.id, first.externalId)).toEqual(again);
    });
  });

  describe('custom attributes', () => {
    it('creates and lists attributes oldest first, scoped by chatbot', async () => {
      const later = attribute(bot.id, { name: 'seats', type: 'number', createdAt: new Date('2026-05-01T00:00:00Z') });
      const earlier = attribute(bot.id, { name: 'plan', description: '' });
      await store.attributes.create(later);
      await store.attributes.create(earlier);
      expect(await store.attributes.list(bot.id)).toEqual([earlier, later]);
      expect(await store.attributes.list(otherBot.id)).toEqual([]);
    });

    it('refuses a second attribute of the same name on a chatbot, not on another', async () => {
      await store.attributes.create(attribute(bot.id));
      await expect(store.attributes.create(attribute(bot.id, { type: 'number' }))).rejects.toBeInstanceOf(UniqueViolation);
      await store.attributes.create(attribute(otherBot.id));
      expect(await store.attributes.list(bot.id)).toEqual([attribute(bot.id)]);
      expect(await store.attributes.list(otherBot.id)).toEqual([attribute(otherBot.id)]);
    });

    it('changes only the fields given', async () => {
      const stored = attribute(bot.id);
      await store.attributes.create(stored);
      const archived = await store.attributes.update(bot.id, 'plan', { archived: true });
      expect(archived).toEqual({ ...stored, archived: true });
      const relabelled = await store.attributes.update(bot.id, 'plan', { label: 'Tier', description: '' });
      expect(relabelled).toEqual({ ...stored, archived: true, label: 'Tier', description: '' });
      const restored = await store.attributes.update(bot.id, 'plan', { archived: false });
      expect(restored).toEqual({ ...stored, label: 'Tier', description: '' });
      expect(await store.attributes.list(bot.id)).toEqual([restored]);
      expect(await store.attributes.update(bot.id, 'plan', {})).toEqual(restored);
    });

    it('answers undefined when changing a missing attribute or another chatbot’s', async () => {
      await store.attributes.create(attribute(bot.id));
      expect(await store.attributes.update(bot.id, 'missing', { label: 'x' })).toBeUndefined();
      expect(await store.attributes.update(otherBot.id, 'plan', { label: 'x' })).toBeUndefined();
      expect(await store.attributes.list(bot.id)).toEqual([attribute(bot.id)]);
    });
  });

  it('deletes a chatbot’s contacts and attributes with it', async () => {
    const mine = contact(bot.id);
    const theirs = contact(otherBot.id);
    await store.contacts.insertMany([mine]);
    await store.contacts.insertMany([theirs]);
    await store.attributes.create(attribute(bot.id));
    await store.attributes.create(attribute(otherBot.id));
    expect(await store.chatbots.delete(owner.id, bot.id)).toBe(true);
    expect(await store.contacts.find(bot.id, mine.externalId)).toBeUndefined();
    expect(await everyContact(bot.id)).toEqual([]);
    expect(await store.attributes.list(bot.id)).toEqual([]);
    expect(await store.contacts.find(otherBot.id, theirs.externalId)).toEqual(theirs);
    expect(await store.attributes.list(otherBot.id)).toEqual([attribute(otherBot.id)]);
  });
});
