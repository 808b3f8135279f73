import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Lead } from '../../src/store/port.js';
import { call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { INVALID_LISTING_PARAMS, queryString, type QueryParams } from '../support/listing.js';
import { storeTargets } from '../support/stores.js';

const LEAD_KEYS = ['id', 'name', 'email', 'phone', 'created_at', 'chatbot_id', 'account_id'] as const;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type LeadItem = Record<(typeof LEAD_KEYS)[number], string>;

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target);
    bot = await createChatbotViaApi(app);
  });
  afterEach(async () => {
    await app.close();
  });

  // `null` sends no key (an undefined argument would take the default).
  const postLead = (body: unknown, chatbotId = bot, apiKey: string | null = app.apiKey) =>
    call('POST', `${app.baseUrl}/chatbots/${encodeURIComponent(chatbotId)}/leads`, apiKey ?? undefined, body);
  const getLeads = (params: QueryParams, apiKey: string | null = app.apiKey) =>
    call('GET', `${app.baseUrl}/get-leads${queryString(params)}`, apiKey ?? undefined);
  const listed = async (params: QueryParams = {}) => {
    const { status, body } = await getLeads({ chatbotId: bot, size: '100', ...params });
    expect(status).toBe(200);
    return (body as { collectedCustomers: LeadItem[] }).collectedCustomers;
  };
  const stored = () => app.store.leads.list(bot, {}, { page: 1, size: 100 });
  /** Stores a lead of `bot` created at an exact time. */
  const seed = async (createdAt: string, chatbotId = bot, accountId = app.accountId): Promise<Lead> => {
    const lead: Lead = {
      id: randomUUID(),
      chatbotId,
      accountId,
      name: `Lead of ${createdAt}`,
      email: 'lead@example.com',
      phone: null,
      conversationId: null,
      createdAt: new Date(createdAt),
    };
    await app.store.leads.insert(lead);
    return lead;
  };

  describe('POST /chatbots/{chatbotId}/leads', () => {
    it('records a trimmed lead and answers it with exactly the contract fields', async () => {
      const before = Date.now();
      const { status, body } = await postLead({
        name: '  Ada Lovelace ',
        email: ' ada@example.com ',
        phone: ' +47 (0) 123-45.678 ',
      });
      expect(status).toBe(200);
      expect(Object.keys(body as object)).toEqual(['message', 'data']);
      const { message, data } = body as { message: string; data: LeadItem };
      expect(message).toBe('Success');
      expect(Object.keys(data)).toEqual(LEAD_KEYS);
      expect(data).toEqual({
        id: expect.any(String),
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+47 (0) 123-45.678',
        created_at: expect.stringMatching(ISO_8601),
        chatbot_id: bot,
        account_id: app.accountId,
      });
      expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(data.created_at)).toBeLessThanOrEqual(Date.now());
      expect(await listed()).toEqual([data]);
    });

    it('takes an email alone or a phone alone, answering missing fields as empty strings', async () => {
      const byEmail = await postLead({ email: 'only@example.com' });
      expect(byEmail.status).toBe(200);
      expect((byEmail.body as { data: LeadItem }).data).toMatchObject({ name: '', email: 'only@example.com', phone: '' });
      const byPhone = await postLead({ name: null, email: '   ', phone: '+1 555 0100' });
      expect(byPhone.status).toBe(200);
      expect((byPhone.body as { data: LeadItem }).data).toMatchObject({ name: '', email: '', phone: '+1 555 0100' });
      expect((await stored()).map(({ name, email, phone }) => ({ name, email, phone }))).toEqual([
        { name: null, email: null, phone: '+1 555 0100' },
        { name: null, email: 'only@example.com', phone: null },
      ]);
    });

    it('keeps one lead per conversation, updating the fields each call gives', async () => {
      const first = await postLead({ email: 'ada@example.com', conversationId: 'conv-1' });
      const second = await postLead({ name: 'Ada', phone: '+47 12345678', conversationId: 'conv-1' });
      const firstLead = (first.body as { data: LeadItem }).data;
      expect(second).toEqual({
        status: 200,
        body: {
          message: 'Success',
          data: { ...firstLead, name: 'Ada', phone: '+47 12345678' },
        },
      });
      const elsewhere = await postLead({ email: 'ada@example.com', conversationId: 'conv-2' });
      const loose = await postLead({ email: 'ada@example.com' });
      const ids = [firstLead.id, (elsewhere.body as { data: LeadItem }).data.id, (loose.body as { data: LeadItem }).data.id];
      expect(new Set(ids).size).toBe(3);
      expect((await listed()).map((lead) => lead.id).sort()).toEqual([...ids].sort());
    });

    it('takes a name alone given later to a conversation whose lead has an email or phone, and for one without records nothing', async () => {
      expect(await postLead({ name: 'Ada', conversationId: 'conv-1' })).toEqual({ status: 400, body: INVALID });
      expect(await stored()).toEqual([]);
      const first = (await postLead({ email: 'ada@example.com', conversationId: 'conv-1' })).body as { data: LeadItem };
      expect(await postLead({ name: 'Ada Lovelace', conversationId: 'conv-1' })).toEqual({
        status: 200,
        body: { message: 'Success', data: { ...first.data, name: 'Ada Lovelace' } },
      });
      expect(await postLead({ conversationId: 'conv-1' })).toEqual({ status: 400, body: INVALID });
      expect((await listed()).map(({ name, email }) => ({ name, email }))).toEqual([{ name: 'Ada Lovelace', email: 'ada@example.com' }]);
    });

    const invalidBodies: [string, unknown][] = [
      ['an empty body', {}],
      ['a name alone', { name: 'Ada' }],
      ['blank email and phone', { email: '', phone: '   ' }],
      ['null email and phone', { name: 'Ada', email: null, phone: null }],
      ['an email without @', { email: 'not-an-email' }],
      ['an email without a domain dot', { email: 'ada@example' }],
      ['an email of 255 characters', { email: `${'a'.repeat(243)}@example.com` }],
      ['a numeric email', { email: 42 }],
      ['a phone in words', { phone: 'call me maybe' }],
      ['a phone without digits', { phone: '+ ( )' }],
      ['a phone of 41 characters', { phone: '1'.repeat(41) }],
      ['a name of 201 characters', { name: 'n'.repeat(201), email: 'ada@example.com' }],
      ['a numeric name', { name: 7, email: 'ada@example.com' }],
      ['an empty conversationId', { email: 'ada@example.com', conversationId: '' }],
      ['a conversationId of 257 characters', { email: 'ada@example.com', conversationId: 'c'.repeat(257) }],
      ['a JSON array', [{ email: 'ada@example.com' }]],
      ['malformed JSON', '{"email": "ada@example.com"'],
    ];
    it.each(invalidBodies)('answers 400 for %s and records nothing', async (_case, body) => {
      expect(await postLead(body)).toEqual({ status: 400, body: INVALID });
      expect(await stored()).toEqual([]);
    });

    it('accepts the longest allowed values', async () => {
      const email = `${'a'.repeat(242)}@example.com`;
      const { status, body } = await postLead({ name: 'n'.repeat(200), email, phone: '1'.repeat(40) });
      expect(status).toBe(200);
      expect((body as { data: LeadItem }).data).toMatchObject({ name: 'n'.repeat(200), email, phone: '1'.repeat(40) });
    });

    it('answers 401 without a key, or with an unknown one, and records nothing', async () => {
      expect(await postLead({ email: 'ada@example.com' }, bot, null)).toEqual({ status: 401, body: NO_KEY });
      expect(await postLead({ email: 'ada@example.com' }, bot, 'sb_not-a-key')).toEqual({ status: 401, body: NO_KEY });
      expect(await stored()).toEqual([]);
    });

    it("answers 404 for an unknown chatbot and for another account's chatbot", async () => {
      expect(await postLead({ email: 'ada@example.com' }, 'no-such-chatbot')).toEqual({ status: 404, body: NOT_FOUND });
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      expect(await postLead({ email: 'ada@example.com' }, theirs)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await app.store.leads.list(theirs, {}, { page: 1, size: 10 })).toEqual([]);
    });
  });

  describe('GET /get-leads', () => {
    it('answers an empty list for a chatbot without leads', async () => {
      expect(await getLeads({ chatbotId: bot })).toEqual({ status: 200, body: { collectedCustomers: [] } });
    });

    it("lists the chatbot's leads newest first with exactly the contract fields", async () => {
      const older = await seed('2026-03-01T08:00:00.000Z');
      const newer = await seed('2026-03-02T08:00:00.000Z');
      const sibling = await createChatbotViaApi(app, 'Sibling');
      await seed('2026-03-03T08:00:00.000Z', sibling);
      const { status, body } = await getLeads({ chatbotId: bot });
      expect(status).toBe(200);
      expect(Object.keys(body as object)).toEqual(['collectedCustomers']);
      const items = (body as { collectedCustomers: LeadItem[] }).collectedCustomers;
      for (const item of items) expect(Object.keys(item)).toEqual(LEAD_KEYS);
      expect(items).toEqual(
        [newer, older].map((lead) => ({
          id: lead.id,
          name: lead.name,
          email: lead.email,
          phone: '',
          created_at: lead.createdAt.toISOString(),
          chatbot_id: bot,
          account_id: app.accountId,
        })),
      );
    });

    it('takes whole UTC days, both ends inclusive', async () => {
      const lastOfNinth = await seed('2026-03-09T23:59:59.999Z');
      const firstOfTenth = await seed('2026-03-10T00:00:00.000Z');
      const lastOfTenth = await seed('2026-03-10T23:59:59.999Z');
      const firstOfEleventh = await seed('2026-03-11T00:00:00.000Z');
      const ids = async (params: QueryParams) => (await listed(params)).map((item) => item.id);
      expect(await ids({ startDate: '2026-03-10', endDate: '2026-03-10' })).toEqual([lastOfTenth.id, firstOfTenth.id]);
      expect(await ids({ startDate: '2026-03-10' })).toEqual([firstOfEleventh.id, lastOfTenth.id, firstOfTenth.id]);
      expect(await ids({ endDate: '2026-03-10' })).toEqual([lastOfTenth.id, firstOfTenth.id, lastOfNinth.id]);
      expect(await ids({ startDate: '2026-03-09', endDate: '2026-03-11' })).toHaveLength(4);
      expect(await ids({ startDate: '2024-02-29', endDate: '2026-03-08' })).toEqual([]);
    });

    it('pages 20 at a time by default, up to 100 when asked', async () => {
      const leads = [];
      for (let i = 0; i < 25; i += 1) leads.push(await seed(new Date(Date.UTC(2026, 2, 1, 0, i)).toISOString()));
      const newestFirst = leads.map((lead) => lead.id).reverse();
      const page = async (params: QueryParams) => {
        const { status, body } = await getLeads({ chatbotId: bot, ...params });
        expect(status).toBe(200);
        return (body as { collectedCustomers: LeadItem[] }).collectedCustomers.map((item) => item.id);
      };
      expect(await page({})).toEqual(newestFirst.slice(0, 20));
      expect(await page({ page: '2' })).toEqual(newestFirst.slice(20));
      expect(await page({ page: '3', size: '10' })).toEqual(newestFirst.slice(20));
      expect(await page({ page: '2', size: '10' })).toEqual(newestFirst.slice(10, 20));
      expect(await page({ size: '100' })).toEqual(newestFirst);
      expect(await page({ page: '4', size: '10' })).toEqual([]);
      expect(await page({ page: '1000000' })).toEqual([]);
    });

    it.each([
      ['no chatbotId', {}],
      ['an empty chatbotId', { chatbotId: '' }],
      ['two chatbotIds', { chatbotId: ['a', 'b'] }],
    ] as [string, QueryParams][])('answers 400 for %s', async (_case, params) => {
      expect(await getLeads(params)).toEqual({ status: 400, body: INVALID });
    });

    it.each(INVALID_LISTING_PARAMS)('answers 400 for %s', async (_case, params) => {
      await seed('2026-03-10T12:00:00.000Z');
      expect(await getLeads({ chatbotId: bot, ...params })).toEqual({ status: 400, body: INVALID });
    });

    it('answers 401 without a key', async () => {
      expect(await getLeads({ chatbotId: bot }, null)).toEqual({ status: 401, body: NO_KEY });
    });

    it("answers 404 for an unknown chatbot and for another account's chatbot", async () => {
      expect(await getLeads({ chatbotId: 'no-such-chatbot' })).toEqual({ status: 404, body: NOT_FOUND });
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      await seed('2026-03-10T12:00:00.000Z', theirs, other.accountId);
      expect(await getLeads({ chatbotId: theirs })).toEqual({ status: 404, body: NOT_FOUND });
      expect((await getLeads({ chatbotId: theirs }, other.apiKey)).status).toBe(200);
    });
  });
});
