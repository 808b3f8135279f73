import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import { listedHost, originAllowed } from '../../src/domain/widget.js';
import { call, createChatbotViaApi, INVALID, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// The widget's access rules below the browser: the domain rule, TRUST_PROXY and the ipLimit
// count, on every available store.

describe('the domain rule', () => {
  const restricted = (domains: string[]) => ({ ...defaultSettings('Bot'), onlyAllowOnAddedDomains: true, domains });

  it.each([
    ['example.com', 'example.com'],
    ['https://WWW.Example.com/shop?x=1', 'www.example.com'],
    ['example.com:8443', 'example.com'],
    ['*.example.com', 'example.com'],
    ['not a host', undefined],
  ])('reads %s as %s', (entry, host) => {
    expect(listedHost(entry)).toBe(host);
  });

  it.each([
    ['https://example.com', true],
    ['http://example.com:8080', true],
    ['https://shop.example.com', true],
    ['https://a.b.example.com', true],
    ['https://badexample.com', false],
    ['https://example.com.evil.net', false],
    ['not a url', false],
    [undefined, false],
  ])('a listed example.com lets %s show the widget: %s', (origin, allowed) => {
    expect(originAllowed(restricted(['example.com']), origin)).toBe(allowed);
  });

  it('allows every page when the restriction is off, and none when it is on with no domains', () => {
    expect(originAllowed(defaultSettings('Bot'), 'https://anywhere.net')).toBe(true);
    expect(originAllowed(restricted([]), 'https://example.com')).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });
});

describe.each(storeTargets.filter((target) => target.available))('$name store', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target, { trustProxy: true });
    bot = await createChatbotViaApi(app);
    await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, {
      chatbotId: bot,
      visibility: 'public',
      ipLimit: 1,
      ipLimitTimeframe: 3600,
      ipLimitMessage: 'Enough for now.',
    });
  });
  afterEach(async () => {
    await app.close();
  });

  const chat = async (ip: string, body: object = {}) => {
    const response = await fetch(`${app.origin}/widget/chatbots/${bot}/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({ conversationId: 'wc_cccccccccccccccccccccccc', message: 'When do you open?', ...body }),
    });
    return { status: response.status, text: await response.text() };
  };

  it('counts each forwarded client IP on its own behind a trusted proxy', async () => {
    expect((await chat('203.0.113.1')).status).toBe(200);
    expect(await chat('203.0.113.1')).toEqual({ status: 429, text: JSON.stringify({ message: 'Enough for now.' }) });
    expect((await chat('203.0.113.2')).status).toBe(200);
  });

  it('counts ratings against ipLimit on a count of their own: they spend none of a visitor’s messages, nor go unbounded', async () => {
    // Found auditing the widget: a script could post 👍/👎 without end, where a message is refused past ipLimit.
    const conversationId = 'wc_rrrrrrrrrrrrrrrrrrrrrrrr';
    const answered = await fetch(`${app.origin}/widget/chatbots/${bot}/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.7' },
      body: JSON.stringify({ conversationId, message: 'When do you open?' }),
    });
    await answered.text();
    const answer = answered.headers.get('X-Message-Id') ?? '';
    const rate = async (ip: string, feedback: string, messageId = answer) => {
      const response = await fetch(`${app.origin}/widget/chatbots/${bot}/conversations/${conversationId}/messages/${messageId}/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ feedback }),
      });
      return { status: response.status, text: await response.text() };
    };
    const rating = async () => (await app.store.conversations.find(bot, conversationId))?.messages.find((message) => message.id === answer)?.feedback;

    // The visitor used their one message, and may still rate its answer; once.
    expect(await rate('203.0.113.7', 'up')).toEqual({ status: 200, text: JSON.stringify({ id: answer, feedback: 'up' }) });
    expect(await rate('203.0.113.7', 'down')).toEqual({ status: 429, text: JSON.stringify({ message: 'Enough for now.' }) });
    expect(await rating()).toBe('up');
    // A rating spends none of a visitor's messages.
    expect((await rate('203.0.113.8', 'down')).status).toBe(200);
    expect((await chat('203.0.113.8')).status).toBe(200);
    // Guessing at ids counts too.
    expect((await rate('203.0.113.9', 'down', 'no-such-message')).status).toBe(404);
    expect((await rate('203.0.113.9', 'up')).status).toBe(429);
    expect(await rating()).toBe('down');
  });

  it('counts leads and handoffs left against ipLimit on counts of their own: one address cannot flood them, nor do they spend its messages', async () => {
    // Found auditing the widget: one address could post details (each a lead and a leads.submit event) without end.
    await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, collectCustomerInformation: { email: { active: true } } });
    const conversationId = 'wc_llllllllllllllllllllllll';
    expect((await chat('203.0.113.10', { conversationId })).status).toBe(200);
    const post = async (ip: string, path: string, body: object) => {
      const response = await fetch(`${app.origin}/widget/chatbots/${bot}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    };
    const lead = (ip: string, email: string) => post(ip, 'leads', { conversationId, email });
    const leave = (ip: string) => post(ip, `conversations/${conversationId}/handoff/end`, {});
    const refused = { status: 429, text: JSON.stringify({ message: 'Enough for now.' }) };
    const emails = async () => {
      const { body } = await call('GET', `${app.baseUrl}/get-leads?chatbotId=${bot}`, app.apiKey);
      return (body as { collectedCustomers: { email: string }[] }).collectedCustomers.map(({ email }) => email);
    };

    // The address used its one message, and may still leave its details and the handoff; once each.
    expect(await lead('203.0.113.10', 'ada@example.com')).toEqual({ status: 200, text: JSON.stringify({ message: 'Success' }) });
    expect(await lead('203.0.113.10', 'flood@example.com')).toEqual(refused);
    expect(await emails()).toEqual(['ada@example.com']);
    expect(await leave('203.0.113.10')).toEqual({ status: 200, text: JSON.stringify({ handoff: null }) });
    expect(await leave('203.0.113.10')).toEqual(refused);

    // Details refused as invalid count nothing; neither spends another address's messages.
    expect((await lead('203.0.113.11', 'not-an-email')).status).toBe(400);
    expect((await lead('203.0.113.11', 'grace@example.com')).status).toBe(200);
    expect((await leave('203.0.113.11')).status).toBe(200);
    expect((await chat('203.0.113.11', { conversationId })).status).toBe(200);
    expect(await emails()).toEqual(['grace@example.com']);
  });

  it('validates input with the contract’s error body and counts nothing for it', async () => {
    expect(await chat('203.0.113.4', { conversationId: 'slack:T1:C1:1.2' })).toEqual({ status: 400, text: JSON.stringify(INVALID) });
    expect(await chat('203.0.113.4', { message: '' })).toEqual({ status: 400, text: JSON.stringify(INVALID) });
    expect((await chat('203.0.113.4')).status).toBe(200);
  });

  it('reads at most 64 KB of JSON from anyone without a key, refused with the contract’s error body', async () => {
    // Public routes read whole bodies of up to 16 MB before checking anything, as keyed ones may.
    const padding = 'x'.repeat(100_000);
    expect(await chat('203.0.113.6', { padding })).toEqual({ status: 400, text: JSON.stringify(INVALID) });
    const lead = await call('POST', `${app.origin}/widget/chatbots/${bot}/leads`, undefined, { conversationId: 'wc_cccccccccccccccccccccccc', email: 'a@example.com', padding });
    expect(lead).toEqual({ status: 400, body: INVALID });
    expect(await call('POST', `${app.baseUrl}/console/sessions`, undefined, { apiKey: 'sb_nope', padding })).toEqual({ status: 400, body: INVALID });
    // Nothing was counted against the address, and a message of the longest kind still fits.
    expect((await chat('203.0.113.6', { message: '\u00e9'.repeat(4_000) })).status).toBe(200);
  });

  it('shows only what the button needs, and checks lead details on the server', async () => {
    const { body } = await call('GET', `${app.origin}/widget/chatbots/${bot}/config`, undefined);
    expect(Object.keys(body as object).sort()).toEqual(
      ['alignChatButton', 'allowed', 'autoOpenChatWindowAfter', 'buttonColor', 'iconUrl', 'name'].sort(),
    );
    await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, {
      chatbotId: bot,
      collectCustomerInformation: { phone: { active: true } },
    });
    expect((await chat('203.0.113.5')).status).toBe(200);
    const lead = (phone: string) =>
      call('POST', `${app.origin}/widget/chatbots/${bot}/leads`, undefined, { conversationId: 'wc_cccccccccccccccccccccccc', phone });
    expect(await lead('call me maybe')).toEqual({ status: 400, body: INVALID });
    expect(await lead('+47 123 45 678')).toEqual({ status: 200, body: { message: 'Success' } });
    const { body: leads } = await call('GET', `${app.baseUrl}/get-leads?chatbotId=${bot}`, app.apiKey);
    expect((leads as { collectedCustomers: { phone: string }[] }).collectedCustomers.map(({ phone }) => phone)).toEqual([
      '+47 123 45 678',
    ]);
  });
});
