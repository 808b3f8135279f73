import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/accounts.js';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import type { Responder } from '../../src/engine/responder.js';
import { createChatEngine } from '../../src/engine/index.js';
import { API_PREFIX, createApp } from '../../src/http/app.js';
import type { Store } from '../../src/store/port.js';
import {
  bearer,
  call,
  createChatbotViaApi,
  DENIED,
  INVALID,
  jsonRequest,
  NO_KEY,
  NOT_FOUND,
  startApp,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// POST /chat end to end: the real app over HTTP, the offline responder, every available store.

const OPENING = 'Harbor Lights Bakery opens at seven in the morning on weekdays and at eight on weekends.';
const RETURNS = 'Returns are accepted within 30 days of purchase with the original receipt.';
const STARTER = [
  'Our sourdough starter was founded in 1998 by the original owner, who carried it across the ocean in a clay jar ' +
    'wrapped in linen so that the culture would survive the long voyage from the old country.',
  'Every loaf we bake today still rises with that same starter, fed twice a day with organic rye flour and ' +
    'filtered water from the mountain spring behind the bakery.',
  'Bakers arrive before dawn to shape the dough by hand, and each batch rests for at least eighteen hours in cool ' +
    'cellars before it goes into the wood-fired oven.',
];
const DELIVERY = 'Cakes can be delivered anywhere in Portsmouth for a flat fee of 6 pounds.';
const SOURCE = [OPENING, RETURNS, STARTER.join(' '), DELIVERY].join('\n\n');

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LEAD_REQUEST = 'Stay in touch: please share your Email.';

type Turn = { role: 'user' | 'assistant'; content: string };
type ConversationItem = {
  id: string;
  source: string;
  contact_id: string | null;
  messages: { id: string; role: string; content: string; created_at: string }[];
};
type LeadItem = { id: string; name: string; email: string; phone: string; chatbot_id: string };

const user = (content: string): Turn => ({ role: 'user', content });
const assistant = (content: string): Turn => ({ role: 'assistant', content });

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target);
    bot = await createChatbotViaApi(app, 'Harbor Lights', SOURCE);
  });
  afterEach(async () => {
    await app.close();
  });

  // `null` sends no key (an undefined argument would take the default).
  const chat = (body: unknown, apiKey: string | null = app.apiKey) =>
    call('POST', `${app.baseUrl}/chat`, apiKey ?? undefined, body);

  /** Asks and expects a 200 `{text}`; answers the text. */
  const ask = async (body: Record<string, unknown>): Promise<string> => {
    const { status, body: answer } = await chat({ chatbotId: bot, ...body });
    expect(status).toBe(200);
    expect(Object.keys(answer as object)).toEqual(['text']);
    const { text } = answer as { text: unknown };
    expect(typeof text).toBe('string');
    return text as string;
  };
  const askOne = (question: string, extra: Record<string, unknown> = {}) =>
    ask({ messages: [user(question)], ...extra });

  const conversations = async (chatbotId = bot): Promise<ConversationItem[]> => {
    const { status, body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${chatbotId}&size=100`, app.apiKey);
    expect(status).toBe(200);
    return (body as { data: ConversationItem[] }).data;
  };
  const conversation = async (id: string): Promise<ConversationItem> => {
    const found = (await conversations()).filter((item) => item.id === id);
    expect(found).toHaveLength(1);
    return found[0] as ConversationItem;
  };
  const leads = async (): Promise<LeadItem[]> => {
    const { status, body } = await call('GET', `${app.baseUrl}/get-leads?chatbotId=${bot}`, app.apiKey);
    expect(status).toBe(200);
    return (body as { collectedCustomers: LeadItem[] }).collectedCustomers;
  };
  const messagesUsed = () => app.store.usage.messagesUsed(app.accountId, new Date().toISOString().slice(0, 7));
  const updateSettings = async (settings: Record<string, unknown>) => {
    const result = await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, ...settings });
    expect(result).toEqual({ status: 202, body: { message: 'Your changes are saved.' } });
  };

  /** Streams a reply and answers its response and the chunks as they arrived. */
  const streamChat = async (body: Record<string, unknown>) => {
    const response = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, stream: true, ...body });
    const chunks: string[] = [];
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(decoder.decode(value, { stream: true }));
    }
    return { response, chunks, text: chunks.join('') + decoder.decode() };
  };

  describe('answers', () => {
    it('answers {text} drawn from the training text', async () => {
      expect(await askOne('When do you open on weekends?')).toBe(OPENING);
      expect(await askOne('How many days do I have for returns?')).toContain(RETURNS);
      expect(await askOne('Do you deliver cakes?')).toContain(DELIVERY);
    });

    it('answers the same question the same way every time', async () => {
      const first = await askOne('Tell me about the sourdough starter');
      expect(first).toContain(STARTER[0]);
      for (let i = 0; i < 3; i += 1) expect(await askOne('Tell me about the sourdough starter')).toBe(first);
    });

    it('accepts every model of the contract, the bounds of temperature and an explicit stream false', async () => {
      const expected = await askOne('When do you open on weekends?');
      for (const extra of [
        { model: 'vendor2-opus-4-8', temperature: 0 },
        { model: 'auto', temperature: 1 },
        { model: 'vendor6-4-Maverick-17B-128E-Instruct-FP8', temperature: 0.5, stream: false },
      ]) {
        expect(await askOne('When do you open on weekends?', extra)).toBe(expected);
      }
    });

    it('streams the same answer as text/plain, in more than one chunk when it is long', async () => {
      const question = 'Tell me about the sourdough starter';
      const whole = await askOne(question);
      expect(whole).toBe(STARTER.join(' '));

      const { response, chunks, text } = await streamChat({ messages: [user(question)] });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(text).toBe(whole);
      expect(chunks.length).toBeGreaterThan(1);
    });

    it('streams a short answer too', async () => {
      const { response, text } = await streamChat({ messages: [user('When do you open on weekends?')] });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(text).toBe(OPENING);
    });

    it("says it couldn't find an answer when the material has none", async () => {
      const answer = await askOne('Do you repair bicycles?');
      expect(answer).toBe(NO_ANSWER);
      expect(answer).toContain("couldn't find an answer");
    });

    it("greets with the chatbot's first initial message", async () => {
      await updateSettings({ initialMessages: ['Welcome to Harbor Lights! Ask me about our bread.', 'Second greeting'] });
      expect(await askOne('hi')).toBe('Welcome to Harbor Lights! Ask me about our bread.');
      expect(await askOne('Hello there!')).toBe('Welcome to Harbor Lights! Ask me about our bread.');
    });

    it('answers from the new material after a retrain, not from the old index', async () => {
      expect(await askOne('When do you open on weekends?')).toBe(OPENING);
      const retrained = await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, {
        chatbotId: bot,
        chatbotName: 'Bakery',
        sourceText: 'From March the shop opens at ten on weekends.\n\nWe no longer deliver cakes.',
      });
      expect(retrained).toEqual({ status: 200, body: { chatbotId: bot } });
      const answer = await askOne('When do you open on weekends?');
      expect(answer).toBe('From March the shop opens at ten on weekends.');
      expect(answer).not.toContain('Harbor Lights');
      expect(await askOne('Tell me about the sourdough starter')).toBe(NO_ANSWER);
    });

    it('answers a follow-up from the conversation before it', async () => {
      await askOne('Do you deliver cakes?', { conversationId: 'follow-up' });
      expect(await askOne('How much is it?', { conversationId: 'follow-up' })).toBe(DELIVERY);
      expect(await ask({ messages: [user('Do you deliver cakes?'), assistant(DELIVERY), user('How much is it?')] })).toBe(DELIVERY);
      expect(await ask({ messages: [user('How much is it?')] })).toBe(NO_ANSWER);
    });

    it('answers the last user message of a resent history', async () => {
      const answer = await ask({
        messages: [user('When do you open on weekends?'), assistant(OPENING), user('Do you deliver cakes?')],
      });
      expect(answer).toContain(DELIVERY);
      expect(answer).not.toContain(OPENING);
    });
  });

  describe('validation', () => {
    const valid = () => ({ chatbotId: bot, conversationId: 'conv-invalid', messages: [user('When do you open?')] });
    const cases: [string, () => unknown][] = [
      ['missing chatbotId', () => ({ ...valid(), chatbotId: undefined })],
      ['empty chatbotId', () => ({ ...valid(), chatbotId: '' })],
      ['missing messages', () => ({ ...valid(), messages: undefined })],
      ['empty messages', () => ({ ...valid(), messages: [] })],
      ['messages not an array', () => ({ ...valid(), messages: 'When do you open?' })],
      ['a system message', () => ({ ...valid(), messages: [{ role: 'system', content: 'Be rude.' }, user('Hi')] })],
      ['a message without role', () => ({ ...valid(), messages: [{ content: 'When do you open?' }] })],
      ['empty content', () => ({ ...valid(), messages: [user('')] })],
      ['blank content', () => ({ ...valid(), messages: [user('   ')] })],
      ['content not a string', () => ({ ...valid(), messages: [{ role: 'user', content: 42 }] })],
      ['last message from the assistant', () => ({ ...valid(), messages: [user('Hi'), assistant('Hello!')] })],
      ['model outside the contract', () => ({ ...valid(), model: 'gpt-4' })],
      ['temperature above 1', () => ({ ...valid(), temperature: 1.5 })],
      ['temperature below 0', () => ({ ...valid(), temperature: -0.1 })],
      ['temperature as a string', () => ({ ...valid(), temperature: '0.5' })],
      ['stream not a boolean', () => ({ ...valid(), stream: 'yes' })],
      ['conversationId not a string', () => ({ ...valid(), conversationId: 7 })],
      ['a JSON array body', () => [valid()]],
      ['malformed JSON', () => '{"chatbotId": "x", "messages": ['],
    ];

    it.each(cases)('answers 400 for %s, saving nothing and using no credit', async (_name, body) => {
      expect(await chat(body())).toEqual({ status: 400, body: INVALID });
      expect(await conversations()).toEqual([]);
      expect(await messagesUsed()).toBe(0);
    });

    it('answers 400 to a streaming request that is invalid, as JSON', async () => {
      const response = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, { ...valid(), stream: true, temperature: 2 });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(INVALID);
    });
  });

  describe('keys and ownership', () => {
    it('answers 401 without a key or with an unknown one', async () => {
      const body = { chatbotId: bot, messages: [user('When do you open?')] };
      expect(await chat(body, null)).toEqual({ status: 401, body: NO_KEY });
      expect(await chat(body, 'sb_not-a-real-key')).toEqual({ status: 401, body: NO_KEY });
      const malformed = await fetch(`${app.baseUrl}/chat`, {
        method: 'POST',
        headers: { Authorization: 'Basic abc', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(malformed.status).toBe(401);
      expect(await malformed.json()).toEqual(NO_KEY);
      expect(await messagesUsed()).toBe(0);
    });

    it("answers 404 for an unknown chatbot and for another account's chatbot", async () => {
      expect(await chat({ chatbotId: 'no-such-chatbot', messages: [user('Hi')] })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: other.apiKey }, 'Theirs', SOURCE);
      const asMe = await chat({ chatbotId: theirs, conversationId: 'sneaky', messages: [user('When do you open?')] });
      expect(asMe).toEqual({ status: 404, body: NOT_FOUND });
      expect(await messagesUsed()).toBe(0);
      // The owner gets an answer, and the foreign attempt saved nothing in the owner's chatbot.
      const asOwner = await chat({ chatbotId: theirs, messages: [user('When do you open on weekends?')] }, other.apiKey);
      expect(asOwner).toEqual({ status: 200, body: { text: OPENING } });
      const listed = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${theirs}`, other.apiKey);
      expect(listed).toEqual({ status: 200, body: { data: [] } });
    });
  });

  describe('quota', () => {
    it('answers 403 once the monthly messages are used; failed requests use no credit', async () => {
      const limited = await app.addAccount('limited', { messagesPerMonth: 3, maxChatbots: 5 });
      const ownBot = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: limited.apiKey }, 'Limited', SOURCE);
      const used = () => app.store.usage.messagesUsed(limited.accountId, new Date().toISOString().slice(0, 7));
      const question = { chatbotId: ownBot, messages: [user('When do you open on weekends?')] };

      expect(await chat({ ...question, temperature: 3 }, limited.apiKey)).toEqual({ status: 400, body: INVALID });
      expect(await chat({ ...question, chatbotId: 'missing' }, limited.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await chat({ ...question, chatbotId: bot }, limited.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await used()).toBe(0);

      expect(await chat(question, limited.apiKey)).toEqual({ status: 200, body: { text: OPENING } });
      const streamed = await jsonRequest('POST', `${app.baseUrl}/chat`, limited.apiKey, { ...question, stream: true });
      expect(streamed.status).toBe(200);
      expect(await streamed.text()).toBe(OPENING);
      expect(await chat(question, limited.apiKey)).toEqual({ status: 200, body: { text: OPENING } });
      expect(await used()).toBe(3);

      expect(await chat(question, limited.apiKey)).toEqual({ status: 403, body: DENIED });
      const refusedStream = await jsonRequest('POST', `${app.baseUrl}/chat`, limited.apiKey, {
        ...question,
        stream: true,
        conversationId: 'over-quota',
      });
      expect(refusedStream.status).toBe(403);
      expect(await refusedStream.json()).toEqual(DENIED);
      expect(await used()).toBe(3);
      const listed = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${ownBot}`, limited.apiKey);
      expect(listed).toEqual({ status: 200, body: { data: [] } });

      // Other accounts keep their own quota.
      expect(await askOne('When do you open on weekends?')).toBe(OPENING);
    });

    it('never lets concurrent requests overdraw the quota', async () => {
      const limited = await app.addAccount('racing', { messagesPerMonth: 3, maxChatbots: 5 });
      const ownBot = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: limited.apiKey }, 'Racing', SOURCE);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          chat({ chatbotId: ownBot, messages: [user('When do you open on weekends?')] }, limited.apiKey),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(results.filter((r) => r.status === 403)).toEqual(Array.from({ length: 5 }, () => ({ status: 403, body: DENIED })));
    });
  });

  describe('conversations', () => {
    it('saves the exchange of a request with a conversationId and continues it with only the new message', async () => {
      const before = Date.now();
      const first = await askOne('When do you open on weekends?', { conversationId: 'conv-1' });
      expect(first).toBe(OPENING);

      let saved = await conversation('conv-1');
      expect(saved.source).toBe('API');
      expect(saved.contact_id).toBeNull();
      expect(saved.messages).toEqual([
        { id: expect.any(String), role: 'user', content: 'When do you open on weekends?', created_at: expect.stringMatching(ISO_8601) },
        {
          id: expect.any(String),
          role: 'assistant',
          content: OPENING,
          created_at: expect.stringMatching(ISO_8601),
          // The answer quotes the chatbot's API text source (the v1 sourceText): an extension.
          sources: [{ id: `api_${bot}`, title: 'API text' }],
        },
      ]);
      for (const message of saved.messages) {
        expect(Date.parse(message.created_at)).toBeGreaterThanOrEqual(before - 1);
        expect(Date.parse(message.created_at)).toBeLessThanOrEqual(Date.now());
      }

      const second = await askOne('Do you deliver cakes?', { conversationId: 'conv-1' });
      expect(second).toContain(DELIVERY);
      saved = await conversation('conv-1');
      expect(saved.messages.map(({ role, content }) => ({ role, content }))).toEqual([
        user('When do you open on weekends?'),
        assistant(OPENING),
        user('Do you deliver cakes?'),
        assistant(second),
      ]);
      expect(await conversations()).toHaveLength(1);
    });

    it('does not duplicate earlier messages when the client resends the whole history', async () => {
      const first = await askOne('When do you open on weekends?', { conversationId: 'hosted' });
      const second = await ask({
        conversationId: 'hosted',
        messages: [user('When do you open on weekends?'), assistant(first), user('Do you deliver cakes?')],
      });
      const third = await ask({
        conversationId: 'hosted',
        messages: [
          user('When do you open on weekends?'),
          assistant(first),
          user('Do you deliver cakes?'),
          assistant(second),
          user('How many days do I have for returns?'),
        ],
      });
      expect(third).toContain(RETURNS);
      const saved = await conversation('hosted');
      expect(saved.messages.map(({ role, content }) => ({ role, content }))).toEqual([
        user('When do you open on weekends?'),
        assistant(first),
        user('Do you deliver cakes?'),
        assistant(second),
        user('How many days do I have for returns?'),
        assistant(third),
      ]);
    });

    it('saves nothing without a conversationId', async () => {
      await askOne('When do you open on weekends?');
      await streamChat({ messages: [user('Tell me about the sourdough starter')] });
      expect(await conversations()).toEqual([]);
      expect(await messagesUsed()).toBe(2);
    });

    it('saves the whole streamed reply', async () => {
      const { text } = await streamChat({ conversationId: 'streamed', messages: [user('Tell me about the sourdough starter')] });
      expect(text).toBe(STARTER.join(' '));
      const saved = await conversation('streamed');
      expect(saved.messages.map(({ role, content }) => ({ role, content }))).toEqual([
        user('Tell me about the sourdough starter'),
        assistant(text),
      ]);
    });

    it('keeps every exchange of 10 concurrent requests on one conversation, each reply after its question', async () => {
      const questions = [
        'When do you open on weekends?',
        'How many days do I have for returns?',
        'Do you deliver cakes?',
        'Tell me about the sourdough starter',
        'Do you repair bicycles?',
        'What flour feeds the starter?',
        'How long does the dough rest?',
        'Who founded the starter?',
        'Is there a fee for delivery to Portsmouth?',
        'Do I need a receipt for a return?',
      ];
      // What each request saw of the others depends on timing (an exchange saved a moment earlier is
      // context, and the contact request rides only on a conversation's first reply), so each saved
      // reply is checked against what its own request answered.
      const replies = await Promise.all(questions.map((question) => askOne(question, { conversationId: 'busy' })));
      const expected = new Map(questions.map((question, i) => [question, replies[i]]));

      const { messages } = await conversation('busy');
      expect(messages).toHaveLength(20);
      const asked: string[] = [];
      for (let i = 0; i < messages.length; i += 2) {
        const [question, reply] = [messages[i], messages[i + 1]];
        expect(question?.role).toBe('user');
        expect(reply?.role).toBe('assistant');
        expect(reply?.content).toBe(expected.get(question?.content ?? ''));
        asked.push(question?.content ?? '');
      }
      expect([...asked].sort()).toEqual([...questions].sort());
    });

    it('accepts the contactId of an existing contact, and an unknown one', async () => {
      const created = await call('POST', `${app.baseUrl}/chatbots/${bot}/contacts`, app.apiKey, {
        users: [{ external_id: 'crm-42', name: 'Ana Lima', email: 'ana@example.com' }],
      });
      expect(created.status).toBe(200);
      expect(await askOne('When do you open on weekends?', { contactId: 'crm-42', conversationId: 'with-contact' })).toBe(
        OPENING,
      );
      expect((await conversation('with-contact')).contact_id).toBe('crm-42');
      expect(await askOne('When do you open on weekends?', { contactId: 'nobody-we-know' })).toBe(OPENING);
    });

    it("keeps one chatbot's conversation apart from another's with the same id", async () => {
      const sibling = await createChatbotViaApi(app, 'Sibling', SOURCE);
      await askOne('When do you open on weekends?', { conversationId: 'shared-id' });
      await ask({ chatbotId: sibling, conversationId: 'shared-id', messages: [user('Do you deliver cakes?')] });
      expect((await conversation('shared-id')).messages).toHaveLength(2);
      const theirs = await conversations(sibling);
      expect(theirs.map((item) => item.messages.length)).toEqual([2]);
    });
  });

  describe('lead capture', () => {
    const activateEmail = () =>
      updateSettings({ collectCustomerInformation: { title: 'Stay in touch', email: { active: true, label: 'Email' } } });

    it('asks once per conversation, at the end of the first reply', async () => {
      await activateEmail();
      const first = await askOne('When do you open on weekends?', { conversationId: 'lead-1' });
      expect(first).toBe(`${OPENING}\n\n${LEAD_REQUEST}`);
      const second = await askOne('Do you deliver cakes?', { conversationId: 'lead-1' });
      expect(second).toContain(DELIVERY);
      expect(second).not.toContain(LEAD_REQUEST);

      // A client that resends the history, with no saved conversation, is asked once too.
      const resent = await ask({ messages: [user('When do you open on weekends?'), assistant(first), user('Do you deliver cakes?')] });
      expect(resent).toBe(second);
      // A new conversation is asked again.
      expect(await askOne('Do you deliver cakes?', { conversationId: 'lead-2' })).toBe(`${second}\n\n${LEAD_REQUEST}`);
    });

    it('streams the request for details as the end of the first reply and saves it', async () => {
      await activateEmail();
      const { text } = await streamChat({ conversationId: 'streamed-lead', messages: [user('When do you open on weekends?')] });
      expect(text).toBe(`${OPENING}\n\n${LEAD_REQUEST}`);
      const saved = await conversation('streamed-lead');
      expect(saved.messages.at(-1)?.content).toBe(text);
      const next = await streamChat({ conversationId: 'streamed-lead', messages: [user('Do you deliver cakes?')] });
      expect(next.text).toContain(DELIVERY);
      expect(next.text).not.toContain(LEAD_REQUEST);
    });

    it('creates one lead per conversation from an email in a message and updates it with a later one', async () => {
      await activateEmail();
      await askOne('When do you open on weekends?', { conversationId: 'lead-conv' });
      const afterEmail = await askOne('my email is Ana@Example.com', { conversationId: 'lead-conv' });
      expect(afterEmail).not.toContain(LEAD_REQUEST);

      let found = await leads();
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ email: 'ana@example.com', chatbot_id: bot });
      const leadId = found[0]?.id;

      await askOne('Do you deliver cakes?', { conversationId: 'lead-conv' });
      expect(await leads()).toEqual(found);

      await askOne('Sorry, use ana.lima@work.example instead', { conversationId: 'lead-conv' });
      found = await leads();
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ id: leadId, email: 'ana.lima@work.example' });

      // Another conversation is another lead.
      await askOne('I am reachable at bo@example.org', { conversationId: 'lead-conv-2' });
      expect((await leads()).map((lead) => lead.email).sort()).toEqual(['ana.lima@work.example', 'bo@example.org']);
    });

    it('keeps one lead for a conversation whose messages with emails arrive at once', async () => {
      await activateEmail();
      const emails = Array.from({ length: 6 }, (_, i) => `buyer${i}@example.com`);
      await Promise.all(emails.map((email) => askOne(`my email is ${email}`, { conversationId: 'racing-lead' })));
      const found = await leads();
      expect(found).toHaveLength(1);
      expect(emails).toContain(found[0]?.email);
      expect((await conversation('racing-lead')).messages).toHaveLength(12);
    });

    it('thanks by name a message that gives contact details, keeps the name with the lead, and answers a follow-up', async () => {
      await updateSettings({
        collectCustomerInformation: { title: 'Stay in touch', name: { active: true, label: 'Name' }, email: { active: true, label: 'Email' } },
      });
      await askOne('Do you deliver cakes?', { conversationId: 'ada' });
      expect(await askOne("I'm Ada Lovelace, ada@example.com", { conversationId: 'ada' })).toBe(
        "Thank you, Ada! We'll get back to you at ada@example.com.",
      );
      expect(await leads()).toEqual([expect.objectContaining({ name: 'Ada Lovelace', email: 'ada@example.com' })]);
      // A follow-up leans on the question before the details, not on the details.
      expect(await askOne('How much is it?', { conversationId: 'ada' })).toBe(DELIVERY);
    });

    it('does not ask for details in a conversation that already gave them', async () => {
      await activateEmail();
      const reply = await askOne('Hello, my email is ana@example.com. When do you open on weekends?', {
        conversationId: 'gave-first',
      });
      expect(reply).not.toContain(LEAD_REQUEST);
      expect(await leads()).toHaveLength(1);
    });

    it('does not ask a known contact for details it already has', async () => {
      // Found in a Tallyho support channel on Slack: every thread's first answer asked the
      // colleague (a contact with their Slack name and email) to "please share your Name and Work email".
      await activateEmail();
      await call('POST', `${app.baseUrl}/chatbots/${bot}/contacts`, app.apiKey, {
        users: [
          { external_id: 'slack:T1:U1', name: 'Alice Andersen', email: 'alice@example.com' },
          { external_id: 'slack:T1:U2', name: 'Bob Berg' },
        ],
      });
      expect(await askOne('When do you open on weekends?', { contactId: 'slack:T1:U1', conversationId: 'known' })).toBe(OPENING);
      // One whose email the contact lacks is asked, as anyone is.
      expect(await askOne('When do you open on weekends?', { contactId: 'slack:T1:U2', conversationId: 'half-known' })).toBe(
        `${OPENING}\n\n${LEAD_REQUEST}`,
      );
    });

    it('asks for nothing when only the name is active, as a lead needs an email or a phone', async () => {
      // Found setting up Harbour House: with the name alone the chat asked "please share your Name",
      // and the widget showed a form whose Submit answered "Please give an email address or a phone
      // number." with no field to give one in.
      await updateSettings({ collectCustomerInformation: { title: 'Stay in touch', name: { active: true, label: 'Name' } } });
      expect(await askOne('When do you open on weekends?', { conversationId: 'name-only' })).toBe(OPENING);
      expect(await leads()).toEqual([]);
    });

    it('neither asks nor collects when no field is active', async () => {
      const first = await askOne('When do you open on weekends?', { conversationId: 'no-lead' });
      expect(first).toBe(OPENING);
      const second = await askOne('my email is Ana@Example.com', { conversationId: 'no-lead' });
      expect(second).not.toContain('please share');
      expect(await leads()).toEqual([]);

      await activateEmail();
      await updateSettings({ collectCustomerInformation: { email: { active: false } } });
      expect(await askOne('When do you open on weekends?', { conversationId: 'switched-off' })).toBe(OPENING);
      await askOne('my email is Ana@Example.com', { conversationId: 'switched-off' });
      expect(await leads()).toEqual([]);
    });
  });

  it('authenticates the streaming request with the same bearer key', async () => {
    const response = await fetch(`${app.baseUrl}/chat`, {
      method: 'POST',
      headers: { ...bearer(app.apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId: bot, stream: true, messages: [user('When do you open on weekends?')] }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(OPENING);
  });
});

// A client that goes away: the route must abort generation, save nothing and give the credit back.
// The offline responder finishes too fast to be interrupted, so these run the real app with a
// responder that produces its reply slowly and records what it saw.
describe.each(storeTargets.filter((t) => t.available))('$name store, client disconnect', (target) => {
  const PIECES = 400;
  let store: Store;
  let server: Server;
  let baseUrl: string;
  let apiKey: string;
  let accountId: string;
  let bot: string;
  let seen: { started: boolean; pieces: number; aborted: boolean; finished: boolean; ignoresAbort?: boolean };

  const slow: Responder = {
    async complete(input) {
      seen.started = true;
      if (seen.ignoresAbort) {
        // Like the offline responder: it finishes its reply whether or not anyone is listening.
        while (!input.signal.aborted) await sleep(5);
        seen.finished = true;
        return 'finished anyway';
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 10_000);
        input.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          seen.aborted = true;
          reject(new Error('aborted'));
        });
      });
      seen.finished = true;
      return 'too late';
    },
    async *stream(input) {
      for (let i = 0; i < PIECES; i += 1) {
        if (input.signal.aborted) {
          seen.aborted = true;
          return;
        }
        seen.pieces += 1;
        yield `piece${i} `;
        await sleep(5);
      }
      seen.finished = true;
    },
  };

  beforeEach(async () => {
    seen = { started: false, pieces: 0, aborted: false, finished: false };
    store = await target.open();
    const created = await createAccount(store, 'disconnecting', { messagesPerMonth: 100, maxChatbots: 5 });
    apiKey = created.apiKey;
    accountId = created.account.id;
    const app = createApp({
      store,
      logger: pino({ level: 'silent' }),
      engine: createChatEngine(store, { providerFor: () => slow }),
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
    bot = await createChatbotViaApi({ baseUrl, apiKey }, 'Slow', SOURCE);
  });
  afterEach(async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    await store.close();
  });

  const used = () => store.usage.messagesUsed(accountId, new Date().toISOString().slice(0, 7));
  const until = async (condition: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 400 && !(await condition()); i += 1) await sleep(5);
  };

  it('stops streaming when the client disconnects, saving nothing and refunding the credit', async () => {
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/chat`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId: bot, conversationId: 'gone', stream: true, messages: [user('Hello?')] }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^piece0 /);
    expect(await used()).toBe(1);
    controller.abort();

    await until(() => seen.aborted);
    expect(seen.aborted).toBe(true);
    expect(seen.finished).toBe(false);
    expect(seen.pieces).toBeLessThan(PIECES);
    await until(async () => (await used()) === 0);
    expect(await used()).toBe(0);
    expect(await store.conversations.find(bot, 'gone')).toBeUndefined();
  });

  it('aborts a whole reply when the client disconnects, saving nothing and refunding the credit', async () => {
    const controller = new AbortController();
    const pending = fetch(`${baseUrl}/chat`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId: bot, conversationId: 'gone-whole', messages: [user('Hello?')] }),
      signal: controller.signal,
    });
    // Disconnect while the reply is being generated.
    await until(() => seen.started);
    expect(await used()).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();

    await until(() => seen.aborted);
    expect(seen.aborted).toBe(true);
    expect(seen.finished).toBe(false);
    await until(async () => (await used()) === 0);
    expect(await used()).toBe(0);
    expect(await store.conversations.find(bot, 'gone-whole')).toBeUndefined();
  });

  it('saves and counts nothing when a responder finishes a reply after its client left', async () => {
    seen.ignoresAbort = true;
    const controller = new AbortController();
    const pending = fetch(`${baseUrl}/chat`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId: bot, conversationId: 'left', messages: [user('Hello?')] }),
      signal: controller.signal,
    });
    await until(() => seen.started);
    controller.abort();
    await expect(pending).rejects.toThrow();

    await until(() => seen.finished);
    expect(seen.finished).toBe(true);
    await until(async () => (await used()) === 0);
    expect(await used()).toBe(0);
    expect(await store.conversations.find(bot, 'left')).toBeUndefined();
  });
});

describe.each(storeTargets.filter((target) => target.available))('$name: POST /chat history window', (target) => {
  const WINDOW = 4;
  let store: Store;
  let server: Server;
  let baseUrl: string;
  let apiKey: string;
  let seen: string[][];
  const recording: Responder = {
    async complete(input) {
      seen.push(input.messages.map((message) => message.content));
      return `reply ${seen.length}`;
    },
    async *stream(input) {
      yield await this.complete(input);
    },
  };

  beforeEach(async () => {
    seen = [];
    store = await target.open();
    ({ apiKey } = await createAccount(store, 'windowed', { messagesPerMonth: 100, maxChatbots: 5 }));
    const app = createApp({
      store,
      logger: pino({ level: 'silent' }),
      engine: createChatEngine(store, { providerFor: () => recording, historyMessages: WINDOW }),
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
  });

  const chat = (chatbotId: string, body: object) =>
    call('POST', `${baseUrl}/chat`, apiKey, { chatbotId, ...body }).then((response) => response.status);

  it('gives the responder only the latest messages of a long saved conversation, all of which stay saved', async () => {
    const bot = await createChatbotViaApi({ baseUrl, apiKey }, 'Windowed', SOURCE);
    for (let turn = 1; turn <= 6; turn += 1) {
      expect(await chat(bot, { conversationId: 'long', messages: [user(`question ${turn}`)] })).toBe(200);
    }
    expect(seen.at(-1)).toEqual(['reply 4', 'question 5', 'reply 5', 'question 6']);
    expect((await store.conversations.find(bot, 'long'))?.messages).toHaveLength(12);
  });

  it('bounds a resent history the same way', async () => {
    const bot = await createChatbotViaApi({ baseUrl, apiKey }, 'Windowed', SOURCE);
    const history = Array.from({ length: 9 }, (_, i) => (i % 2 ? { role: 'assistant', content: `a${i}` } : user(`q${i}`)));
    expect(await chat(bot, { messages: history })).toBe(200);
    expect(seen).toEqual([['q4', 'a5', 'q6', 'a7', 'q8'].slice(-WINDOW)]);
  });
});
