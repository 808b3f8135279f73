import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordExchange } from '../../src/domain/conversations.js';
import type { Chatbot, ConversationSource } from '../../src/store/port.js';
import { call, createChatbotViaApi, INVALID, jsonRequest, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { INVALID_LISTING_PARAMS, queryString, type QueryParams } from '../support/listing.js';
import { storeTargets } from '../support/stores.js';

const ITEM_KEYS = ['id', 'chatbot_id', 'source', 'contact_id', 'created_at', 'updated_at', 'messages'];

type Message = { id: string; role: string; content: string; created_at: string; feedback?: string };
type Item = {
  id: string;
  chatbot_id: string;
  source: string;
  contact_id: string | null;
  created_at: string;
  updated_at: string;
  messages: Message[];
};

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
  const getConversations = (params: QueryParams, apiKey: string | null = app.apiKey) =>
    call('GET', `${app.baseUrl}/get-conversations${queryString(params)}`, apiKey ?? undefined);
  const ids = async (params: QueryParams = {}) => {
    const { status, body } = await getConversations({ chatbotId: bot, size: '100', ...params });
    expect(status).toBe(200);
    return (body as { data: Item[] }).data.map((item) => item.id);
  };
  /** Stores a one-message conversation of `chatbotId` created at an exact time. */
  const seed = (id: string, createdAt: string, source: ConversationSource = 'API', chatbotId = bot, accountId = app.accountId) =>
    app.store.conversations.append({
      chatbotId,
      accountId,
      id,
      source,
      contactId: null,
      messages: [{ role: 'user', content: `hello from ${id}`, createdAt: new Date(createdAt) }],
      at: new Date(createdAt),
    });

  it('answers an empty list for a chatbot without conversations', async () => {
    expect(await getConversations({ chatbotId: bot })).toEqual({ status: 200, body: { data: [] } });
  });

  it('answers recorded exchanges as whole conversations with ISO times', async () => {
    const chatbot = (await app.store.chatbots.find(app.accountId, bot)) as Chatbot;
    const asked = new Date('2026-03-10T12:00:00.000Z');
    const answered = new Date('2026-03-10T12:00:02.500Z');
    const thanked = new Date('2026-03-10T12:01:00.000Z');
    await recordExchange(app.store, chatbot, {
      conversationId: 'slack:T1:C1:1710072000.000100',
      source: 'Slack',
      contactId: 'slack:T1:U1',
      messages: [
        { role: 'user', content: 'When do you open?', createdAt: asked },
        { role: 'assistant', content: 'At nine.', createdAt: answered },
      ],
      at: answered,
    });
    await recordExchange(app.store, chatbot, {
      conversationId: 'slack:T1:C1:1710072000.000100',
      source: 'API',
      contactId: null,
      messages: [{ role: 'user', content: 'Thanks!', createdAt: thanked }],
      at: thanked,
    });

    const { status, body } = await getConversations({ chatbotId: bot });
    expect(status).toBe(200);
    expect(Object.keys(body as object)).toEqual(['data']);
    const [item, ...rest] = (body as { data: Item[] }).data;
    expect(rest).toEqual([]);
    expect(Object.keys(item as Item)).toEqual(ITEM_KEYS);
    expect(item).toEqual({
      id: 'slack:T1:C1:1710072000.000100',
      chatbot_id: bot,
      source: 'Slack',
      contact_id: 'slack:T1:U1',
      created_at: answered.toISOString(),
      updated_at: thanked.toISOString(),
      messages: [
        { id: expect.any(String), role: 'user', content: 'When do you open?', created_at: '2026-03-10T12:00:00.000Z' },
        { id: expect.any(String), role: 'assistant', content: 'At nine.', created_at: '2026-03-10T12:00:02.500Z' },
        { id: expect.any(String), role: 'user', content: 'Thanks!', created_at: '2026-03-10T12:01:00.000Z' },
      ],
    });
    const messageIds = (item as Item).messages.map((message) => message.id);
    expect(new Set(messageIds).size).toBe(3);
    const again = await getConversations({ chatbotId: bot });
    expect((again.body as { data: Item[] }).data[0]?.messages.map((message) => message.id)).toEqual(messageIds);
  });

  it("lists only the chatbot's conversations, newest first", async () => {
    await seed('older', '2026-03-01T08:00:00.000Z');
    await seed('newer', '2026-03-02T08:00:00.000Z');
    const sibling = await createChatbotViaApi(app, 'Sibling');
    await seed('sibling', '2026-03-03T08:00:00.000Z', 'API', sibling);
    expect(await ids()).toEqual(['newer', 'older']);
  });

  it('takes whole UTC days, both ends inclusive', async () => {
    await seed('last-of-9th', '2026-03-09T23:59:59.999Z');
    await seed('first-of-10th', '2026-03-10T00:00:00.000Z');
    await seed('last-of-10th', '2026-03-10T23:59:59.999Z');
    await seed('first-of-11th', '2026-03-11T00:00:00.000Z');
    expect(await ids({ startDate: '2026-03-10', endDate: '2026-03-10' })).toEqual(['last-of-10th', 'first-of-10th']);
    expect(await ids({ startDate: '2026-03-10' })).toEqual(['first-of-11th', 'last-of-10th', 'first-of-10th']);
    expect(await ids({ endDate: '2026-03-10' })).toEqual(['last-of-10th', 'first-of-10th', 'last-of-9th']);
  });

  it('takes whole days of a time zone when given one, and refuses one that is not', async () => {
    await seed('utc-9th-oslo-10th', '2026-03-09T23:30:00.000Z');
    await seed('last-of-oslo-10th', '2026-03-10T22:59:59.999Z');
    await seed('first-of-oslo-11th', '2026-03-10T23:00:00.000Z');
    const oslo10th = { startDate: '2026-03-10', endDate: '2026-03-10', timezone: 'Europe/Oslo' };
    expect(await ids(oslo10th)).toEqual(['last-of-oslo-10th', 'utc-9th-oslo-10th']);
    expect(await ids({ startDate: '2026-03-10', endDate: '2026-03-10' })).toEqual(['first-of-oslo-11th', 'last-of-oslo-10th']);
    expect(await ids({ startDate: '2026-03-11', timezone: 'Europe/Oslo' })).toEqual(['first-of-oslo-11th']);
    expect(await getConversations({ chatbotId: bot, ...oslo10th, timezone: 'Mars/Olympus' })).toEqual({ status: 400, body: INVALID });
  });

  it('pages 20 at a time by default, up to 100 when asked', async () => {
    const all: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      const id = `c${String(i).padStart(2, '0')}`;
      await seed(id, new Date(Date.UTC(2026, 2, 1, 0, i)).toISOString());
      all.unshift(id);
    }
    const page = async (params: QueryParams) => {
      const { status, body } = await getConversations({ chatbotId: bot, ...params });
      expect(status).toBe(200);
      return (body as { data: Item[] }).data.map((item) => item.id);
    };
    expect(await page({})).toEqual(all.slice(0, 20));
    expect(await page({ page: '2' })).toEqual(all.slice(20));
    expect(await page({ page: '2', size: '10' })).toEqual(all.slice(10, 20));
    expect(await page({ size: '100' })).toEqual(all);
    expect(await page({ page: '4', size: '10' })).toEqual([]);
  });

  describe('filteredSources', () => {
    beforeEach(async () => {
      await seed('api', '2026-03-01T00:00:00.000Z', 'API');
      await seed('slack', '2026-03-02T00:00:00.000Z', 'Slack');
      await seed('discord', '2026-03-03T00:00:00.000Z', 'Discord');
      await seed('widget', '2026-03-04T00:00:00.000Z', 'Widget or Iframe');
    });

    it.each([
      ['one source', 'Slack', ['slack']],
      ['comma-separated sources', 'Slack,Discord', ['discord', 'slack']],
      ['spaces after commas', 'API, Widget or Iframe', ['widget', 'api']],
      ['repeated parameters', ['API', 'Widget or Iframe'], ['widget', 'api']],
      ['repeated and comma-separated at once', ['API,Slack', 'Discord'], ['discord', 'slack', 'api']],
      ['a source named twice', ['Slack', 'Slack'], ['slack']],
      ['an empty value (every source)', '', ['widget', 'discord', 'slack', 'api']],
      ['any case', 'api,SLACK', ['slack', 'api']],
      ['the underscored and hyphenated spellings', 'widget_or_iframe,Widget-Or-Iframe', ['widget']],
    ] as [string, string | string[], string[]][])('filters by %s', async (_case, filteredSources, expected) => {
      expect(await ids({ filteredSources })).toEqual(expected);
    });

    it('filters together with the dates and pages', async () => {
      const filteredSources = 'API,Slack,Widget or Iframe';
      expect(await ids({ filteredSources, startDate: '2026-03-02' })).toEqual(['widget', 'slack']);
      expect(await ids({ filteredSources, page: '2', size: '2' })).toEqual(['api']);
    });

    it.each([
      ['an unknown source', 'Email'],
      ['a misspelling', 'widgetoriframe'],
      ['a known and an unknown source', 'Slack,Teams'],
      ['an unknown repeated value', ['Slack', 'Teams']],
    ] as [string, string | string[]][])('answers 400 for %s', async (_case, filteredSources) => {
      expect(await getConversations({ chatbotId: bot, filteredSources })).toEqual({ status: 400, body: INVALID });
    });
  });

  describe('handoffStatus', () => {
    beforeEach(async () => {
      await seed('never', '2026-03-01T00:00:00.000Z');
      await seed('waiting', '2026-03-02T00:00:00.000Z', 'Slack');
      await seed('taken', '2026-03-03T00:00:00.000Z');
      await seed('closed', '2026-03-04T00:00:00.000Z');
      await seed('waiting-too', '2026-03-05T00:00:00.000Z');
      const due = new Date('2026-03-10T00:00:00.000Z');
      for (const id of ['waiting', 'taken', 'closed', 'waiting-too']) await app.store.handoffs.request(bot, id, new Date(), due);
      await app.store.handoffs.transition(bot, 'taken', ['pending'], { status: 'active', takenBy: 'Ada', dueAt: due, at: new Date() });
      await app.store.handoffs.transition(bot, 'closed', ['pending'], { status: 'resolved', dueAt: null, at: new Date() });
    });

    it.each([
      ['one status', 'pending', ['waiting-too', 'waiting']],
      ['the open ones, comma-separated', 'pending,active', ['waiting-too', 'taken', 'waiting']],
      ['repeated parameters', ['pending', 'resolved'], ['waiting-too', 'closed', 'waiting']],
      ['a status named twice', 'active, active', ['taken']],
      ['a status none stands in', 'missed', []],
      ['an empty value (every conversation)', '', ['waiting-too', 'closed', 'taken', 'waiting', 'never']],
    ] as [string, string | string[], string[]][])('filters by %s', async (_case, handoffStatus, expected) => {
      expect(await ids({ handoffStatus })).toEqual(expected);
    });

    it('shows each conversation with its handoff, and filters together with the sources, dates and pages', async () => {
      const { body } = await getConversations({ chatbotId: bot, handoffStatus: 'active' });
      expect((body as { data: { id: string; handoff: unknown }[] }).data).toMatchObject([
        { id: 'taken', handoff: { status: 'active', taken_by: 'Ada' } },
      ]);
      const handoffStatus = 'pending,active';
      expect(await ids({ handoffStatus, filteredSources: 'API' })).toEqual(['waiting-too', 'taken']);
      expect(await ids({ handoffStatus, endDate: '2026-03-02' })).toEqual(['waiting']);
      expect(await ids({ handoffStatus, page: '1', size: '2' })).toEqual(['waiting-too', 'taken']);
      expect(await ids({ handoffStatus, page: '2', size: '2' })).toEqual(['waiting']);
    });

    it('lists none of another chatbot’s conversations', async () => {
      const other = await createChatbotViaApi(app, 'Other');
      await seed('theirs', '2026-03-06T00:00:00.000Z', 'API', other);
      await app.store.handoffs.request(other, 'theirs', new Date(), new Date('2026-03-10T00:00:00.000Z'));
      expect(await ids({ handoffStatus: 'pending' })).toEqual(['waiting-too', 'waiting']);
    });

    it.each([
      ['an unknown status', 'waiting'],
      ['another case', 'Pending'],
      ['a known and an unknown status', 'pending,open'],
      ['an unknown repeated value', ['pending', 'open']],
    ] as [string, string | string[]][])('answers 400 for %s', async (_case, handoffStatus) => {
      expect(await getConversations({ chatbotId: bot, handoffStatus })).toEqual({ status: 400, body: INVALID });
    });
  });

  describe('lead (an extension)', () => {
    const leadOf = async (chatbotId: string, conversationId: string, details: object, apiKey = app.apiKey) => {
      const { status, body } = await call('POST', `${app.baseUrl}/chatbots/${chatbotId}/leads`, apiKey, { ...details, conversationId });
      expect(status).toBe(200);
      return (body as { data: { id: string } }).data;
    };
    const listed = async () => {
      const { status, body } = await getConversations({ chatbotId: bot });
      expect(status).toBe(200);
      return (body as { data: (Item & { lead?: unknown })[] }).data.map(({ id, lead }) => ({ id, lead }));
    };

    it('shows on each conversation the lead collected in it, as get-leads shows it, and none on the others', async () => {
      await seed('with-lead', '2026-03-02T08:00:00.000Z', 'Widget or Iframe');
      await seed('without', '2026-03-01T08:00:00.000Z', 'Widget or Iframe');
      await leadOf(bot, 'with-lead', { email: 'ada@example.com' });
      const lead = await leadOf(bot, 'with-lead', { name: 'Ada Lovelace' });
      await call('POST', `${app.baseUrl}/chatbots/${bot}/leads`, app.apiKey, { name: 'No conversation', email: 'nobody@example.com' });
      const leads = await call('GET', `${app.baseUrl}/get-leads?chatbotId=${bot}`, app.apiKey);
      const shown = (leads.body as { collectedCustomers: { id: string }[] }).collectedCustomers.find((item) => item.id === lead.id);
      expect(shown).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '' });
      expect(await listed()).toEqual([
        { id: 'with-lead', lead: shown },
        { id: 'without', lead: undefined },
      ]);
      const { body } = await getConversations({ chatbotId: bot });
      expect(Object.keys((body as { data: object[] }).data[1] as object)).toEqual(ITEM_KEYS);
    });

    it('never shows the lead of another chatbot’s or another account’s conversation of the same id', async () => {
      await seed('shared-id', '2026-03-02T08:00:00.000Z', 'Widget or Iframe');
      const sibling = await createChatbotViaApi(app, 'Sibling');
      await seed('shared-id', '2026-03-02T08:00:00.000Z', 'Widget or Iframe', sibling);
      await leadOf(sibling, 'shared-id', { name: 'Sibling’s visitor', email: 'sibling@example.com' });
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      await seed('shared-id', '2026-03-02T08:00:00.000Z', 'Widget or Iframe', theirs, other.accountId);
      await leadOf(theirs, 'shared-id', { name: 'Their visitor', email: 'theirs@example.com' }, other.apiKey);
      expect(await listed()).toEqual([{ id: 'shared-id', lead: undefined }]);
    });

    it('shows the lead no more once it is erased', async () => {
      await seed('erased', '2026-03-02T08:00:00.000Z', 'Widget or Iframe');
      const lead = await leadOf(bot, 'erased', { email: 'ada@example.com' });
      expect((await listed())[0]?.lead).toMatchObject({ id: lead.id });
      expect((await call('DELETE', `${app.baseUrl}/chatbots/${bot}/leads/${lead.id}`, app.apiKey)).status).toBe(200);
      expect(await listed()).toEqual([{ id: 'erased', lead: undefined }]);
    });
  });

  it.each([
    ['no chatbotId', {}],
    ['an empty chatbotId', { chatbotId: '' }],
    ['two chatbotIds', { chatbotId: ['a', 'b'] }],
  ] as [string, QueryParams][])('answers 400 for %s', async (_case, params) => {
    expect(await getConversations(params)).toEqual({ status: 400, body: INVALID });
  });

  it.each(INVALID_LISTING_PARAMS)('answers 400 for %s', async (_case, params) => {
    await seed('c', '2026-03-10T12:00:00.000Z');
    expect(await getConversations({ chatbotId: bot, ...params })).toEqual({ status: 400, body: INVALID });
  });

  it('answers 401 without a key', async () => {
    expect(await getConversations({ chatbotId: bot }, null)).toEqual({ status: 401, body: NO_KEY });
  });

  it("answers 404 for an unknown chatbot and for another account's chatbot", async () => {
    expect(await getConversations({ chatbotId: 'no-such-chatbot' })).toEqual({ status: 404, body: NOT_FOUND });
    const other = await app.addAccount('other');
    const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
    await seed('theirs', '2026-03-10T12:00:00.000Z', 'API', theirs, other.accountId);
    expect(await getConversations({ chatbotId: theirs })).toEqual({ status: 404, body: NOT_FOUND });
    const { body } = await getConversations({ chatbotId: theirs }, other.apiKey);
    expect((body as { data: Item[] }).data.map((item) => item.id)).toEqual(['theirs']);
  });

  // Feedback on answers (an extension): the chat reply names its saved message (X-Message-Id), a
  // 👍/👎 is recorded on it, and get-conversations shows it.
  describe('POST /chatbots/{chatbotId}/messages/{messageId}/feedback', () => {
    const chat = (body: Record<string, unknown>, chatbotId = bot) =>
      jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, {
        chatbotId,
        messages: [{ role: 'user', content: 'When do you open?' }],
        ...body,
      });
    const messagesOf = async (conversationId: string, chatbotId = bot, apiKey = app.apiKey): Promise<Message[]> => {
      const { body } = await getConversations({ chatbotId }, apiKey);
      return (body as { data: Item[] }).data.find((item) => item.id === conversationId)?.messages ?? [];
    };
    // `null` sends no key (an undefined argument would take the default).
    const rate = (messageId: string, body: unknown, chatbotId = bot, apiKey: string | null = app.apiKey) =>
      call('POST', `${app.baseUrl}/chatbots/${chatbotId}/messages/${encodeURIComponent(messageId)}/feedback`, apiKey ?? undefined, body);

    it('names the saved answer in X-Message-Id, whole and streamed, and only when it is saved', async () => {
      const whole = await chat({ conversationId: 'c-1' });
      expect(whole.status).toBe(200);
      await whole.json();
      const streamed = await chat({ conversationId: 'c-1', stream: true, messages: [{ role: 'user', content: 'And returns?' }] });
      expect(streamed.headers.get('content-type')).toMatch(/^text\/plain/);
      const streamedId = streamed.headers.get('x-message-id');
      await streamed.text();

      const messages = await messagesOf('c-1');
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(whole.headers.get('x-message-id')).toBe(messages[1]?.id);
      expect(streamedId).toBe(messages[3]?.id);

      const unsaved = await chat({});
      expect(unsaved.status).toBe(200);
      expect(unsaved.headers.has('x-message-id')).toBe(false);
      const refused = await chat({ conversationId: 'c-2' }, 'no-such-chatbot');
      expect(refused.status).toBe(404);
      expect(refused.headers.has('x-message-id')).toBe(false);
    });

    it('records 👍 on an answer, shows it in get-conversations, and a later 👎 replaces it', async () => {
      const answer = (await chat({ conversationId: 'c-1' })).headers.get('x-message-id') ?? '';
      await chat({ conversationId: 'c-1', messages: [{ role: 'user', content: 'And returns?' }] });

      expect(await rate(answer, { feedback: 'up' })).toEqual({ status: 200, body: { message: 'Success', data: { id: answer, feedback: 'up' } } });
      const rated = await messagesOf('c-1');
      expect(rated.filter((message) => 'feedback' in message)).toEqual([expect.objectContaining({ id: answer, feedback: 'up' })]);

      expect((await rate(answer, { feedback: 'down' })).status).toBe(200);
      expect((await messagesOf('c-1')).find((message) => message.id === answer)?.feedback).toBe('down');
    });

    it('refuses a bad body with 400 and changes nothing', async () => {
      const answer = (await chat({ conversationId: 'c-1' })).headers.get('x-message-id') ?? '';
      for (const body of [{}, { feedback: 'sideways' }, { feedback: 'UP' }, { feedback: 'up', extra: 1 }, '{"feedback":', ['up']]) {
        expect(await rate(answer, body), JSON.stringify(body)).toEqual({ status: 400, body: INVALID });
      }
      expect((await messagesOf('c-1')).some((message) => 'feedback' in message)).toBe(false);
    });

    it('answers 404 for an unknown chatbot or message, a question, and another account’s answer', async () => {
      const answer = (await chat({ conversationId: 'c-1' })).headers.get('x-message-id') ?? '';
      const [question] = await messagesOf('c-1');
      const up = { feedback: 'up' };
      expect(await rate(answer, up, 'no-such-chatbot')).toEqual({ status: 404, body: NOT_FOUND });
      expect(await rate('12345678', up)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await rate('not a message', up)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await rate(question?.id ?? '', up)).toEqual({ status: 404, body: NOT_FOUND });

      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'We open at ten.', other.apiKey);
      const saved = await call('POST', `${app.baseUrl}/chat`, other.apiKey, {
        chatbotId: theirs,
        conversationId: 'theirs-1',
        messages: [{ role: 'user', content: 'When do you open?' }],
      });
      expect(saved.status).toBe(200);
      const [, theirAnswer] = await messagesOf('theirs-1', theirs, other.apiKey);
      // Their chatbot is not ours, and their answer is not one of our chatbot's.
      expect(await rate(theirAnswer?.id ?? '', up, theirs)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await rate(theirAnswer?.id ?? '', up, bot)).toEqual({ status: 404, body: NOT_FOUND });
      expect((await messagesOf('theirs-1', theirs, other.apiKey)).some((message) => 'feedback' in message)).toBe(false);
      expect((await messagesOf('c-1')).some((message) => 'feedback' in message)).toBe(false);
    });

    it('answers 401 without a key', async () => {
      expect(await rate('1', { feedback: 'up' }, bot, null)).toEqual({ status: 401, body: NO_KEY });
    });
  });
});
