import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Erasing one person's conversation or lead through the API (GDPR art. 17), on every store:
// the account's own only, bad input changing nothing.

const NOW = new Date('2026-03-10T12:00:00.000Z');
/** Conversation ids as the widget makes them. */
const ADA = `wc_${'a'.repeat(24)}`;
const BO = `wc_${'b'.repeat(24)}`;
const NEVER = `wc_${'n'.repeat(24)}`;

type LeadItem = { id: string; email: string };

describe.each(storeTargets.filter((target) => target.available))('$name store: erasure', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target);
    bot = await createChatbotViaApi(app, 'Shop', 'The shop opens at nine in the morning.');
    const visible = await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, visibility: 'public' });
    expect(visible.status).toBe(202);
  });
  afterEach(async () => {
    await app.close();
  });

  const conversationUrl = (id: string, chatbotId = bot) => `${app.baseUrl}/chatbots/${chatbotId}/conversations/${encodeURIComponent(id)}`;
  const leadUrl = (id: string, chatbotId = bot) => `${app.baseUrl}/chatbots/${chatbotId}/leads/${encodeURIComponent(id)}`;
  const widgetHistory = (id: string) => call('GET', `${app.origin}/widget/chatbots/${bot}/conversations/${encodeURIComponent(id)}`, undefined);
  const converse = (id: string, text: string) =>
    app.store.conversations.append({
      chatbotId: bot,
      accountId: app.accountId,
      id,
      source: 'Widget or Iframe',
      contactId: null,
      messages: [
        { role: 'user', content: text, createdAt: NOW },
        { role: 'assistant', content: 'The shop opens at nine.', createdAt: NOW, kind: 'answer' },
      ],
      at: NOW,
    });
  const conversationIds = async () => {
    const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
    return (body as { data: { id: string }[] }).data.map((conversation) => conversation.id).sort();
  };
  const leave = async (email: string, conversationId?: string) => {
    const { status, body } = await call('POST', `${app.baseUrl}/chatbots/${bot}/leads`, app.apiKey, { email, conversationId });
    expect(status).toBe(200);
    return (body as { data: LeadItem }).data;
  };
  const leadEmails = async () => {
    const { body } = await call('GET', `${app.baseUrl}/get-leads?chatbotId=${bot}`, app.apiKey);
    return (body as { collectedCustomers: LeadItem[] }).collectedCustomers.map((lead) => lead.email).sort();
  };

  it('erases a conversation and the lead given in it; the widget then answers as for an unknown conversation', async () => {
    await converse(ADA, 'I am Ada, when do you open?');
    await converse(BO, 'When do you open?');
    await leave('ada@example.com', ADA);
    await leave('bo@example.com', BO);
    expect((await widgetHistory(ADA)).status).toBe(200);

    const erased = await call('DELETE', conversationUrl(ADA), app.apiKey);
    expect(erased).toEqual({ status: 200, body: { message: 'Success', data: { id: ADA, chatbot_id: bot } } });

    expect(await conversationIds()).toEqual([BO]);
    expect(await leadEmails()).toEqual(['bo@example.com']);
    expect(await widgetHistory(ADA)).toEqual(await widgetHistory(NEVER));
    expect((await widgetHistory(BO)).status).toBe(200);
    expect(await call('DELETE', conversationUrl(ADA), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('erases a lead, answering it as get-leads showed it', async () => {
    const ada = await leave('ada@example.com');
    await leave('bo@example.com');
    const erased = await call('DELETE', leadUrl(ada.id), app.apiKey);
    expect(erased).toEqual({ status: 200, body: { message: 'Success', data: ada } });
    expect(await leadEmails()).toEqual(['bo@example.com']);
    expect(await call('DELETE', leadUrl(ada.id), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('erases nothing of another account’s, answering 404 as for an unknown id', async () => {
    await converse(ADA, 'Hello');
    const lead = await leave('ada@example.com');
    const other = await app.addAccount('other');
    const theirBot = await createChatbotViaApi(app, 'Theirs', 'Something else.', other.apiKey);
    for (const url of [conversationUrl(ADA), leadUrl(lead.id), conversationUrl(ADA, theirBot), leadUrl(lead.id, theirBot)]) {
      expect(await call('DELETE', url, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect(await call('DELETE', conversationUrl('wc-unknown'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('DELETE', leadUrl('unknown'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await conversationIds()).toEqual([ADA]);
    expect(await leadEmails()).toEqual(['ada@example.com']);
  });

  it('refuses bad input and calls without a key, changing nothing', async () => {
    await converse(ADA, 'Hello');
    const lead = await leave('ada@example.com');
    expect(await call('DELETE', conversationUrl('x'.repeat(513)), app.apiKey)).toEqual({ status: 400, body: INVALID });
    expect(await call('DELETE', leadUrl('x'.repeat(257)), app.apiKey)).toEqual({ status: 400, body: INVALID });
    expect(await call('DELETE', conversationUrl(ADA), undefined)).toEqual({ status: 401, body: NO_KEY });
    expect(await call('DELETE', leadUrl(lead.id), undefined)).toEqual({ status: 401, body: NO_KEY });
    expect(await conversationIds()).toEqual([ADA]);
    expect(await leadEmails()).toEqual(['ada@example.com']);
  });
});
