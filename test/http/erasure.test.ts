import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import type { Store, UnansweredExample } from '../../src/store/port.js';

// Erasing one person's conversation or lead through the API (GDPR art. 17), on every store:
// the account's own only, bad input changing nothing.

const NOW = new Date('2026-03-10T12:00:00.000Z');
/** Conversation ids as the widget makes them. */
const ADA = `wc_${'a'.repeat(24)}`;
const BO = `wc_${'b'.repeat(24)}`;
const NEVER = `wc_${'n'.repeat(24)}`;

type LeadItem = { id: string; email: string };
type UnansweredItem = { question: string; count: number; examples: { conversationId: string | null }[] };

describe.each(storeTargets.filter((target) => target.available))('$name store: erasure', (target) => {
  let app: TestApp;
  let bot: string;
  /** Runs before the store counts an unanswered ask, once the reply that declined is saved. */
  let beforeCounting: ((example: UnansweredExample) => Promise<void>) | undefined;
  /** The conversations whose unanswered ask the store has finished recording (or not keeping). */
  let recorded: (string | null)[];

  /** The store, its unanswered asks seen through beforeCounting and recorded. */
  const watched = (store: Store): Store => ({
    ...store,
    unanswered: {
      ...store.unanswered,
      async repeat(ask) {
        await beforeCounting?.(ask.example);
        const counted = await store.unanswered.repeat(ask);
        if (counted) recorded.push(ask.example.conversationId);
        return counted;
      },
      async record(ask) {
        const result = await store.unanswered.record(ask);
        recorded.push(ask.example.conversationId);
        return result;
      },
    },
  });

  beforeEach(async () => {
    beforeCounting = undefined;
    recorded = [];
    app = await startApp(target, { wrapStore: watched });
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

  it('keeps no question of a conversation erased while its declined reply was being recorded', async () => {
    const CY = `wc_${'c'.repeat(24)}`;
    const ask = async (id: string, content: string) => {
      const { status } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId: id, messages: [{ role: 'user', content }] });
      expect(status).toBe(200);
      // Recorded after the reply, which does not wait for it (a busy machine may take a while).
      await expect.poll(() => recorded, { timeout: 10_000 }).toContain(id);
    };
    const unanswered = async () => {
      const { body } = await call('GET', `${app.baseUrl}/chatbots/${bot}/unanswered`, app.apiKey);
      return (body as { data: UnansweredItem[] }).data;
    };
    await ask(BO, 'Do you sell gift cards?');
    // The erasure runs after the turn saved the reply, before the store counts its question: into
    // Bo's group (Ada), or into a group of its own (Cy).
    beforeCounting = async ({ conversationId }) => {
      if (conversationId === ADA || conversationId === CY) {
        expect(await call('DELETE', conversationUrl(conversationId), app.apiKey)).toMatchObject({ status: 200 });
      }
    };
    await ask(ADA, 'Do you sell gift cards?');
    await ask(CY, 'Is there parking nearby?');
    expect(await conversationIds()).toEqual([BO]);
    expect(await unanswered()).toEqual([
      expect.objectContaining({ question: 'Do you sell gift cards?', count: 1, examples: [expect.objectContaining({ conversationId: BO })] }),
    ]);
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
