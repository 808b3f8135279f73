import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  createChatbotViaApi,
  INVALID,
  NO_KEY,
  NOT_FOUND,
  startApp,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

const CONFLICT = { message: 'Error saving chatbot contact. External ID or email already exists.' };
const CONTACT_KEYS = [
  'created_at',
  'custom_attributes',
  'email',
  'external_id',
  'id',
  'name',
  'payment_accounts',
  'phonenumber',
  'updated_at',
];

type ContactBody = {
  id: string;
  external_id: string;
  name: string;
  email: string;
  phonenumber: string;
  payment_accounts: { label: string; payment_id: string; payment_email: string }[];
  custom_attributes: Record<string, unknown>;
  created_at: number;
  updated_at: number;
};

const ATTRIBUTES = [
  { name: 'plan', label: 'Plan', type: 'text' },
  { name: 'seats', label: 'Seats', type: 'number' },
  { name: 'vip', label: 'VIP', type: 'boolean' },
  { name: 'renews', label: 'Renews', type: 'date' },
  { name: 'legacy', label: 'Legacy', type: 'text' },
];

const ada = {
  external_id: 'user-ada',
  name: 'Ada Lovelace',
  email: 'Ada@Example.COM',
  phonenumber: '+47 123 45 678',
  payment_accounts: [{ label: 'Main', payment_id: 'pay-1', payment_email: 'billing@example.com' }],
  custom_attributes: { plan: 'pro', seats: 3 },
};

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let chatbotId: string;

  const contactsUrl = (bot = chatbotId) => `${app.baseUrl}/chatbots/${bot}/contacts`;
  const contactUrl = (externalId: string, bot = chatbotId) =>
    `${contactsUrl(bot)}/${encodeURIComponent(externalId)}`;

  async function createContacts(users: object[], bot = chatbotId): Promise<ContactBody[]> {
    const { status, body } = await call('POST', contactsUrl(bot), app.apiKey, { users });
    expect(status).toBe(200);
    return (body as { data: ContactBody[] }).data;
  }

  async function getContact(externalId: string): Promise<ContactBody> {
    const { status, body } = await call('GET', contactUrl(externalId), app.apiKey);
    expect(status).toBe(200);
    return (body as { data: ContactBody }).data;
  }

  async function allContacts(): Promise<ContactBody[]> {
    const { status, body } = await call('GET', `${contactsUrl()}?size=100`, app.apiKey);
    expect(status).toBe(200);
    return (body as { data: ContactBody[] }).data;
  }

  beforeEach(async () => {
    app = await startApp(target);
    chatbotId = await createChatbotViaApi(app);
    for (const attribute of ATTRIBUTES) {
      const { status } = await call('POST', `${app.baseUrl}/chatbots/${chatbotId}/custom-attributes`, app.apiKey, attribute);
      expect(status).toBe(200);
    }
    const archived = await call('PUT', `${app.baseUrl}/chatbots/${chatbotId}/custom-attributes/legacy`, app.apiKey, {
      archived: true,
    });
    expect(archived.status).toBe(200);
  });
  afterEach(async () => {
    await app.close();
  });

  /** A chatbot of another account, with a contact `user-ada`. */
  async function strangersChatbot() {
    const stranger = await app.addAccount('stranger');
    const bot = await createChatbotViaApi(app, 'Theirs', 'text', stranger.apiKey);
    const { status } = await call('POST', contactsUrl(bot), stranger.apiKey, { users: [{ external_id: 'user-ada' }] });
    expect(status).toBe(200);
    return { ...stranger, bot };
  }

  describe('POST /chatbots/{chatbotId}/contacts', () => {
    it('creates contacts and answers them with exactly the contract’s fields', async () => {
      const before = Math.floor(Date.now() / 1000);
      const { status, body } = await call('POST', contactsUrl(), app.apiKey, {
        users: [ada, { external_id: 'user-bare' }],
      });
      const after = Math.ceil(Date.now() / 1000);
      expect(status).toBe(200);
      const { message, data } = body as { message: string; data: ContactBody[] };
      expect(message).toBe('Success');
      expect(data).toHaveLength(2);
      for (const contact of data) {
        expect(Object.keys(contact).sort()).toEqual(CONTACT_KEYS);
        expect(contact.id).toEqual(expect.any(String));
        expect(Number.isInteger(contact.created_at)).toBe(true);
        expect(contact.created_at).toBeGreaterThanOrEqual(before);
        expect(contact.created_at).toBeLessThanOrEqual(after);
        expect(contact.updated_at).toBe(contact.created_at);
      }
      expect(data[0]).toEqual({
        ...ada,
        email: 'ada@example.com',
        id: data[0]?.id,
        created_at: data[0]?.created_at,
        updated_at: data[0]?.updated_at,
      });
      expect(data[1]).toMatchObject({
        external_id: 'user-bare',
        name: '',
        email: '',
        phonenumber: '',
        payment_accounts: [],
        custom_attributes: {},
      });
      expect(data[0]?.id).not.toBe(data[1]?.id);
      expect(await getContact('user-ada')).toEqual(data[0]);
      expect(await getContact('user-bare')).toEqual(data[1]);
    });

    it('accepts a value of each attribute type', async () => {
      const custom_attributes = { plan: 'basic', seats: 2.5, vip: false, renews: '2026-12-31' };
      const [created] = await createContacts([{ external_id: 'typed', custom_attributes }]);
      expect(created?.custom_attributes).toEqual(custom_attributes);
      const [withTime] = await createContacts([{ external_id: 'timed', custom_attributes: { renews: '2026-12-31T10:00:00+01:00' } }]);
      expect(withTime?.custom_attributes).toEqual({ renews: '2026-12-31T10:00:00+01:00' });
    });

    it('coerces values to their attribute types, on create and on update', async () => {
      const sent = { plan: 3, seats: ' 2.5 ', vip: 'true', renews: '2026-12-31' };
      const [created] = await createContacts([{ external_id: 'coerced', custom_attributes: sent }]);
      const expected = { plan: '3', seats: 2.5, vip: true, renews: '2026-12-31' };
      expect(created?.custom_attributes).toEqual(expected);
      expect((await getContact('coerced')).custom_attributes).toEqual(expected);
      const { body } = await call('PATCH', `${contactsUrl()}/coerced`, app.apiKey, { data: { custom_attributes: { vip: 'false', plan: true } } });
      expect((body as { data: ContactBody }).data.custom_attributes).toEqual({ ...expected, vip: false, plan: 'true' });
      expect((await getContact('coerced')).custom_attributes).toEqual({ ...expected, vip: false, plan: 'true' });
    });

    it('accepts 1000 contacts in one batch and refuses 1001', async () => {
      const users = (count: number, prefix: string) =>
        Array.from({ length: count }, (_, i) => ({ external_id: `${prefix}-${i}`, email: `${prefix}-${i}@example.com` }));
      expect(await call('POST', contactsUrl(), app.apiKey, { users: users(1001, 'over') })).toEqual({
        status: 400,
        body: INVALID,
      });
      expect(await allContacts()).toEqual([]);
      expect(await createContacts(users(1000, 'bulk'))).toHaveLength(1000);
      const { body } = await call('GET', `${contactsUrl()}?page=10&size=100`, app.apiKey);
      expect((body as { data: ContactBody[] }).data).toHaveLength(100);
    });

    const clashingBatches: [string, object[]][] = [
      ['an external id already stored', [{ external_id: 'fresh-1' }, { external_id: 'user-ada' }]],
      ['an email already stored, in other case', [{ external_id: 'fresh-1' }, { external_id: 'fresh-2', email: 'ADA@example.com' }]],
      ['an external id twice', [{ external_id: 'fresh-1' }, { external_id: 'fresh-2' }, { external_id: 'fresh-1' }]],
      [
        'an email twice, in different case',
        [
          { external_id: 'fresh-1', email: 'same@example.com' },
          { external_id: 'fresh-2', email: 'Same@Example.com' },
        ],
      ],
    ];
    it.each(clashingBatches)('answers 409 for a batch repeating %s, creating none of it', async (_case, users) => {
      const [stored] = await createContacts([ada]);
      expect(await call('POST', contactsUrl(), app.apiKey, { users })).toEqual({ status: 409, body: CONFLICT });
      expect(await allContacts()).toEqual([stored]);
    });

    const invalidBodies: [string, unknown][] = [
      ['no users', {}],
      ['an empty users list', { users: [] }],
      ['users that is not a list', { users: { external_id: 'a' } }],
      ['a user without external_id', { users: [{ name: 'Nameless' }] }],
      ['an empty external_id', { users: [{ external_id: '' }] }],
      ['a numeric external_id', { users: [{ external_id: 42 }] }],
      ['an external_id over 256 characters', { users: [{ external_id: 'x'.repeat(257) }] }],
      ['a malformed email', { users: [{ external_id: 'a', email: 'not-an-email' }] }],
      ['a numeric name', { users: [{ external_id: 'a', name: 7 }] }],
      ['a payment account without payment_email', { users: [{ external_id: 'a', payment_accounts: [{ label: 'x', payment_id: 'y' }] }] }],
      ['a numeric payment_id', { users: [{ external_id: 'a', payment_accounts: [{ label: 'x', payment_id: 1, payment_email: 'z' }] }] }],
      ['payment_accounts that is an object', { users: [{ external_id: 'a', payment_accounts: { label: 'x' } }] }],
      ['custom_attributes that is a list', { users: [{ external_id: 'a', custom_attributes: ['pro'] }] }],
      ['an unknown custom attribute', { users: [{ external_id: 'a', custom_attributes: { colour: 'red' } }] }],
      ['an archived custom attribute', { users: [{ external_id: 'a', custom_attributes: { legacy: 'yes' } }] }],
      ['an object for a text attribute', { users: [{ external_id: 'a', custom_attributes: { plan: { a: 1 } } }] }],
      ['a non-numeric string for a number attribute', { users: [{ external_id: 'a', custom_attributes: { seats: 'three' } }] }],
      ['a word other than true or false for a boolean', { users: [{ external_id: 'a', custom_attributes: { vip: 'yes' } }] }],
      ['a non-date for a date attribute', { users: [{ external_id: 'a', custom_attributes: { renews: 'tomorrow' } }] }],
      ['an impossible date', { users: [{ external_id: 'a', custom_attributes: { renews: '2026-02-30' } }] }],
      ['a null attribute value', { users: [{ external_id: 'a', custom_attributes: { plan: null } }] }],
      ['one bad user among good ones', { users: [{ external_id: 'a' }, { external_id: 'b', email: 'bad' }] }],
      ['malformed JSON', '{"users": [{"external_id": "a"}'],
    ];
    it.each(invalidBodies)('answers 400 for %s and creates nothing', async (_case, body) => {
      expect(await call('POST', contactsUrl(), app.apiKey, body)).toEqual({ status: 400, body: INVALID });
      expect(await allContacts()).toEqual([]);
    });

    it('answers 404 for an unknown chatbot or another account’s', async () => {
      const stranger = await strangersChatbot();
      const users = [{ external_id: 'intruder' }];
      expect(await call('POST', contactsUrl('no-such-chatbot'), app.apiKey, { users })).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('POST', contactsUrl(stranger.bot), app.apiKey, { users })).toEqual({ status: 404, body: NOT_FOUND });
      const theirs = await call('GET', contactsUrl(stranger.bot), stranger.apiKey);
      expect((theirs.body as { data: ContactBody[] }).data.map((c) => c.external_id)).toEqual(['user-ada']);
    });

    it('answers 401 without a key', async () => {
      expect(await call('POST', contactsUrl(), undefined, { users: [ada] })).toEqual({ status: 401, body: NO_KEY });
      expect(await allContacts()).toEqual([]);
    });
  });

  describe('GET /chatbots/{chatbotId}/contacts', () => {
    it('pages in a stable order, each contact once, with the hosted reference\'s total and pages', async () => {
      await createContacts(Array.from({ length: 15 }, (_, i) => ({ external_id: `first-${i}` })));
      await createContacts(Array.from({ length: 10 }, (_, i) => ({ external_id: `second-${i}` })));
      const page = async (query: string) => {
        const { status, body } = await call('GET', `${contactsUrl()}${query}`, app.apiKey);
        expect(status).toBe(200);
        expect((body as { message: string }).message).toBe('Success');
        return (body as { data: ContactBody[] }).data;
      };
      const first = await page('?per_page=20');
      const second = await page('?page=2&per_page=20');
      expect(first).toHaveLength(20);
      expect(second).toHaveLength(5);
      expect(await page('?page=3&per_page=20')).toEqual([]);
      const everything = [...first, ...second];
      expect(await page('')).toEqual(everything);
      const { body } = await call('GET', `${contactsUrl()}?per_page=10&page=2`, app.apiKey);
      expect(body).toEqual({
        message: 'Success',
        data: everything.slice(10, 20),
        total: 25,
        pages: { page: 2, per_page: 10, total_pages: 3 },
      });
      expect(new Set(everything.map((c) => c.external_id)).size).toBe(25);
      const bySevens = [...(await page('?size=7')), ...(await page('?size=7&page=2')), ...(await page('?page=3&size=7')), ...(await page('?page=4&size=7'))];
      expect(bySevens).toEqual(everything);
      expect(await page('?page=1&size=20')).toEqual(first);
      // The first batch was created first, so it comes first.
      expect(everything.slice(0, 15).every((c) => c.external_id.startsWith('first-'))).toBe(true);
      for (const contact of everything) expect(Object.keys(contact).sort()).toEqual(CONTACT_KEYS);
    });

    it('answers an empty page for a chatbot without contacts', async () => {
      expect(await call('GET', contactsUrl(), app.apiKey)).toEqual({
        status: 200,
        body: { message: 'Success', data: [], total: 0, pages: { page: 1, per_page: 100, total_pages: 0 } },
      });
    });

    it.each(['page=0', 'size=0', 'size=1001', 'per_page=9', 'per_page=1001', 'page=abc', 'size=1.5', 'page=-1'])('answers 400 for %s', async (query) => {
      expect(await call('GET', `${contactsUrl()}?${query}`, app.apiKey)).toEqual({ status: 400, body: INVALID });
    });

    it('answers 404 for an unknown chatbot or another account’s', async () => {
      const stranger = await strangersChatbot();
      expect(await call('GET', contactsUrl('no-such-chatbot'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('GET', contactsUrl(stranger.bot), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe('GET /chatbots/{chatbotId}/contacts/{contactId}', () => {
    it('answers the contact by its external id', async () => {
      const [created] = await createContacts([ada]);
      expect(await call('GET', contactUrl('user-ada'), app.apiKey)).toEqual({
        status: 200,
        body: { message: 'Success', data: created },
      });
    });

    it('finds external ids holding slashes, spaces and colons', async () => {
      const externalId = 'slack:T1/U 2?x#y';
      const [created] = await createContacts([{ external_id: externalId }]);
      expect(await getContact(externalId)).toEqual(created);
    });

    it('answers 404 for an unknown contact, a contact of another chatbot, and another account’s chatbot', async () => {
      await createContacts([ada]);
      const otherBot = await createChatbotViaApi(app, 'Other');
      const stranger = await strangersChatbot();
      expect(await call('GET', contactUrl('nobody'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('GET', contactUrl('user-ada', otherBot), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('GET', contactUrl('user-ada', stranger.bot), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('GET', contactUrl('user-ada', 'no-such-chatbot'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 401 without a key', async () => {
      await createContacts([ada]);
      expect(await call('GET', contactUrl('user-ada'), undefined)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  describe('PATCH /chatbots/{chatbotId}/contacts/{contactId}', () => {
    const patch = (externalId: string, data: unknown, bot = chatbotId, apiKey = app.apiKey) =>
      call('PATCH', contactUrl(externalId, bot), apiKey, { data });

    it('changes only the fields given and merges custom attributes by key', async () => {
      const [created] = await createContacts([ada]);
      const { status, body } = await patch('user-ada', {
        phonenumber: '+1 555 0100',
        custom_attributes: { seats: 5, vip: true, renews: '2027-01-01T00:00:00Z' },
      });
      expect(status).toBe(200);
      const { message, data } = body as { message: string; data: ContactBody };
      expect(message).toBe('Success');
      expect(data).toEqual({
        ...created,
        phonenumber: '+1 555 0100',
        custom_attributes: { plan: 'pro', seats: 5, vip: true, renews: '2027-01-01T00:00:00Z' },
        updated_at: data.updated_at,
      });
      expect(data.updated_at).toBeGreaterThanOrEqual(created?.created_at ?? Infinity);
      expect(await getContact('user-ada')).toEqual(data);
    });

    it('replaces payment accounts, lower-cases the email and clears fields set to null', async () => {
      const [created] = await createContacts([ada]);
      const payment_accounts = [{ label: 'Card', payment_id: 'pay-9', payment_email: 'card@example.com' }];
      const { status, body } = await patch('user-ada', { email: 'New@Example.com', name: null, phonenumber: null, payment_accounts });
      expect(status).toBe(200);
      expect((body as { data: ContactBody }).data).toMatchObject({
        id: created?.id,
        email: 'new@example.com',
        name: '',
        phonenumber: '',
        payment_accounts,
        custom_attributes: ada.custom_attributes,
      });
      const cleared = await patch('user-ada', { email: null });
      expect((cleared.body as { data: ContactBody }).data.email).toBe('');
      // A cleared email is free for another contact.
      expect(await createContacts([{ external_id: 'other', email: 'new@example.com' }])).toHaveLength(1);
    });

    it("takes the hosted reference's example: stripe_accounts as payment_accounts, unknown fields dropped", async () => {
      await createContacts([ada]);
      const stripe_accounts = [{ label: 'Main', stripe_id: 'cus_1', stripe_email: 'ada@example.com', extra: 1 }];
      const { status, body } = await patch('user-ada', { name: 'Ada L', stripe_accounts, nickname: 'A' });
      expect(status).toBe(200);
      const data = (body as { data: ContactBody }).data;
      expect(data).toMatchObject({ name: 'Ada L', payment_accounts: [{ label: 'Main', payment_id: 'cus_1', payment_email: 'ada@example.com' }] });
      expect(Object.keys(data)).not.toContain('nickname');
      expect(Object.keys(data)).not.toContain('stripe_accounts');
      expect(await getContact('user-ada')).toEqual(data);
      const [created] = await createContacts([{ external_id: 'stripe', stripe_accounts, colour: 'red' }]);
      expect(created?.payment_accounts).toEqual(data.payment_accounts);
    });

    it('moves the contact to a new external id', async () => {
      const [created] = await createContacts([ada]);
      const { status, body } = await patch('user-ada', { external_id: 'user-ada-2' });
      expect(status).toBe(200);
      expect((body as { data: ContactBody }).data).toMatchObject({ id: created?.id, external_id: 'user-ada-2' });
      expect(await call('GET', contactUrl('user-ada'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect((await getContact('user-ada-2')).id).toBe(created?.id);
    });

    it('answers the contact unchanged but for updated_at when data is empty', async () => {
      const [created] = await createContacts([ada]);
      const { status, body } = await patch('user-ada', {});
      expect(status).toBe(200);
      expect({ ...(body as { data: ContactBody }).data, updated_at: 0 }).toEqual({ ...created, updated_at: 0 });
    });

    it('removes a custom attribute set to null, keeping the others', async () => {
      const [created] = await createContacts([ada]);
      const { status, body } = await patch('user-ada', { custom_attributes: { plan: null, vip: true, renews: null } });
      expect(status).toBe(200);
      const data = (body as { data: ContactBody }).data;
      expect(data).toEqual({ ...created, custom_attributes: { seats: 3, vip: true }, updated_at: data.updated_at });
      expect(await getContact('user-ada')).toEqual(data);
    });

    it('removes an archived attribute set to null, which it may not set otherwise', async () => {
      const archive = (archived: boolean) => call('PUT', `${app.baseUrl}/chatbots/${chatbotId}/custom-attributes/legacy`, app.apiKey, { archived });
      await createContacts([ada]);
      await archive(false);
      await patch('user-ada', { custom_attributes: { legacy: 'v1' } });
      await archive(true);
      expect((await getContact('user-ada')).custom_attributes).toEqual({ ...ada.custom_attributes, legacy: 'v1' });
      const { status, body } = await patch('user-ada', { custom_attributes: { legacy: null } });
      expect(status).toBe(200);
      expect((body as { data: ContactBody }).data.custom_attributes).toEqual(ada.custom_attributes);
    });

    it('accepts an attribute again once it is unarchived', async () => {
      await createContacts([ada]);
      expect(await patch('user-ada', { custom_attributes: { legacy: 'v1' } })).toEqual({ status: 400, body: INVALID });
      const unarchived = await call('PUT', `${app.baseUrl}/chatbots/${chatbotId}/custom-attributes/legacy`, app.apiKey, {
        archived: false,
      });
      expect(unarchived.status).toBe(200);
      const { status, body } = await patch('user-ada', { custom_attributes: { legacy: 'v1' } });
      expect(status).toBe(200);
      expect((body as { data: ContactBody }).data.custom_attributes).toEqual({ ...ada.custom_attributes, legacy: 'v1' });
    });

    const clashes: [string, object][] = [
      ['an email another contact has (in other case)', { email: 'TAKEN@example.com', name: 'Changed' }],
      ['an external id another contact has', { external_id: 'taken', custom_attributes: { plan: 'changed' } }],
    ];
    it.each(clashes)('answers 409 for %s and changes nothing', async (_case, data) => {
      const [created, taken] = await createContacts([ada, { external_id: 'taken', email: 'taken@example.com' }]);
      expect(await patch('user-ada', data)).toEqual({ status: 409, body: CONFLICT });
      expect(await getContact('user-ada')).toEqual(created);
      expect(await getContact('taken')).toEqual(taken);
    });

    it('lets exactly one of 20 racing updates take the same email, writing nothing of the others', async () => {
      const users = Array.from({ length: 20 }, (_, i) => ({
        external_id: `racer-${i}`,
        name: `Racer ${i}`,
        email: `racer-${i}@example.com`,
        custom_attributes: { plan: 'before', seats: i },
      }));
      const before = await createContacts(users);
      const results = await Promise.all(
        users.map((user, i) =>
          patch(user.external_id, {
            email: i % 2 === 0 ? 'winner@example.com' : 'Winner@Example.COM',
            name: `Winner ${i}`,
            custom_attributes: { plan: 'after' },
          }),
        ),
      );

      const winners = results.flatMap((result, i) => (result.status === 200 ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const result of results) {
        if (result.status !== 200) expect(result).toEqual({ status: 409, body: CONFLICT });
      }
      const winner = `racer-${winners[0]}`;
      const after = await allContacts();
      expect(after).toHaveLength(20);
      expect(after.filter((contact) => contact.email === 'winner@example.com').map((c) => c.external_id)).toEqual([winner]);
      for (const contact of after) {
        if (contact.external_id === winner) {
          expect(contact).toMatchObject({ name: `Winner ${winners[0]}`, custom_attributes: { plan: 'after', seats: winners[0] } });
        } else {
          expect(contact).toEqual(before.find((original) => original.external_id === contact.external_id));
        }
      }
    });

    const invalidData: [string, unknown][] = [
      ['data that is not an object', 'Ada'],
      ['an empty external_id', { external_id: '' }],
      ['a null external_id', { external_id: null }],
      ['a malformed email', { email: 'ada@' }],
      ['a numeric phonenumber', { phonenumber: 12345 }],
      ['an unknown custom attribute', { custom_attributes: { colour: 'red' } }],
      ['an archived custom attribute', { custom_attributes: { legacy: 'v2' } }],
      ['null for an unknown custom attribute', { custom_attributes: { plan: null, colour: null } }],
      ['a string for a number attribute', { custom_attributes: { seats: 'many' } }],
      ['a number for a boolean attribute', { custom_attributes: { vip: 1 } }],
      ['a date with no day', { custom_attributes: { renews: '2026-12' } }],
      ['a good attribute beside a bad one', { name: 'Changed', custom_attributes: { plan: 'free', seats: 'x' } }],
    ];
    it.each(invalidData)('answers 400 for %s and changes nothing', async (_case, data) => {
      const [created] = await createContacts([ada]);
      expect(await patch('user-ada', data)).toEqual({ status: 400, body: INVALID });
      expect(await getContact('user-ada')).toEqual(created);
    });

    it.each([
      ['a body without data', { name: 'Ada' }],
      ['malformed JSON', '{"data": {"name": "Ada"}'],
    ])('answers 400 for %s and changes nothing', async (_case, body) => {
      const [created] = await createContacts([ada]);
      expect(await call('PATCH', contactUrl('user-ada'), app.apiKey, body)).toEqual({ status: 400, body: INVALID });
      expect(await getContact('user-ada')).toEqual(created);
    });

    it('answers 404 for an unknown contact, chatbot, or another account’s chatbot', async () => {
      await createContacts([ada]);
      const stranger = await strangersChatbot();
      expect(await patch('nobody', { name: 'x' })).toEqual({ status: 404, body: NOT_FOUND });
      expect(await patch('user-ada', { name: 'x' }, 'no-such-chatbot')).toEqual({ status: 404, body: NOT_FOUND });
      expect(await patch('user-ada', { name: 'Hijacked' }, stranger.bot)).toEqual({ status: 404, body: NOT_FOUND });
      const theirs = await call('GET', contactUrl('user-ada', stranger.bot), stranger.apiKey);
      expect((theirs.body as { data: ContactBody }).data.name).toBe('');
    });

    it('answers 401 without a key', async () => {
      const [created] = await createContacts([ada]);
      expect(await call('PATCH', contactUrl('user-ada'), undefined, { data: { name: 'x' } })).toEqual({
        status: 401,
        body: NO_KEY,
      });
      expect(await getContact('user-ada')).toEqual(created);
    });
  });

  describe('DELETE /chatbots/{chatbotId}/contacts/{contactId}', () => {
    it('deletes the contact and answers it', async () => {
      const [doomed, kept] = await createContacts([ada, { external_id: 'kept' }]);
      expect(await call('DELETE', contactUrl('user-ada'), app.apiKey)).toEqual({
        status: 200,
        body: { message: 'Success', data: doomed },
      });
      expect(await call('GET', contactUrl('user-ada'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('DELETE', contactUrl('user-ada'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await allContacts()).toEqual([kept]);
      // Its external id and email are free again.
      expect(await createContacts([ada])).toHaveLength(1);
    });

    it('answers 404 for an unknown contact, chatbot, or another account’s chatbot, deleting nothing', async () => {
      const [created] = await createContacts([ada]);
      const stranger = await strangersChatbot();
      expect(await call('DELETE', contactUrl('nobody'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('DELETE', contactUrl('user-ada', 'no-such-chatbot'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('DELETE', contactUrl('user-ada', stranger.bot), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect((await call('GET', contactUrl('user-ada', stranger.bot), stranger.apiKey)).status).toBe(200);
      expect(await allContacts()).toEqual([created]);
    });

    it('answers 401 without a key', async () => {
      await createContacts([ada]);
      expect(await call('DELETE', contactUrl('user-ada'), undefined)).toEqual({ status: 401, body: NO_KEY });
      expect((await getContact('user-ada')).external_id).toBe('user-ada');
    });
  });

  it('removes a chatbot’s contacts and attributes when the chatbot is deleted', async () => {
    await createContacts([ada]);
    expect((await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, { chatbotId })).status).toBe(200);
    expect(await app.store.contacts.find(chatbotId, 'user-ada')).toBeUndefined();
    expect(await app.store.attributes.list(chatbotId)).toEqual([]);
    expect(await call('GET', contactUrl('user-ada'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
  });
});
