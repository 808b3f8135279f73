import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordUnanswered } from '../../src/domain/unanswered.js';
import { NOT_COVERED } from '../../src/engine/prompt.js';
import { startFakeOpenAI } from '../fakes/openai.js';
import type { FakeProvider } from '../fakes/provider-server.js';
import { fakeModelEngine } from '../support/fake-model.js';
import { call, createChatbotViaApi, jsonRequest, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Review and improve with a model (the real AI SDK against a fake OpenAI server that records its
// prompts): a model's "not covered" reply is an unanswered question; a resolved question's answer
// is in the prompt of the same and a paraphrased question; a reply that fails records nothing.

const SOURCE = 'Velo Shop opens at 9am.\n\nReturns are accepted within 30 days.';
const ANSWER = 'Gift cards are sold at the counter, from 10 to 500 euros.';

describe.each(storeTargets.filter((target) => target.available))('$name store', (target) => {
  let provider: FakeProvider;
  let app: TestApp;
  let chatbotId: string;

  beforeAll(async () => {
    provider = await startFakeOpenAI();
  });
  afterAll(async () => {
    await provider.close();
  });
  beforeEach(async () => {
    provider.requests.length = 0;
    provider.script({ type: 'reply', pieces: ['Yes', ', at the counter.'] });
    app = await startApp(target, { engine: fakeModelEngine(provider) });
    chatbotId = await createChatbotViaApi(app, 'Velo', SOURCE);
  });
  afterEach(async () => {
    await app.close();
  });

  const ask = (content: string) =>
    jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId, messages: [{ role: 'user', content }] });
  const systemPrompt = () => JSON.stringify((provider.requests.at(-1)?.body.messages as unknown[])[0]);

  it('gives the model a resolved question’s answer for the same and a paraphrased question', async () => {
    const example = { conversationId: null, messageId: null, source: 'API' as const, askedAt: new Date() };
    await recordUnanswered(app.store, { id: chatbotId, accountId: app.accountId }, 'Do you sell gift cards?', example);
    const [group] = await app.store.unanswered.list(chatbotId, {}, { page: 1, size: 1 });
    const resolved = await call('POST', `${app.baseUrl}/chatbots/${chatbotId}/unanswered/${group?.id}/resolve`, app.apiKey, { answer: ANSWER });
    expect(resolved.status).toBe(200);
    for (const question of ['Do you sell gift cards?', 'Can I purchase a gift card?']) {
      expect((await ask(question)).status).toBe(200);
      expect(systemPrompt(), question).toContain(ANSWER);
    }
  });

  it('records a model’s “not covered” reply as unanswered and counts it declined', async () => {
    provider.script({ type: 'reply', pieces: [NOT_COVERED] });
    const response = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId,
      conversationId: 'c-1',
      messages: [{ role: 'user', content: 'Do you sell gift cards?' }],
    });
    expect(response.status).toBe(200);
    const messageId = response.headers.get('x-message-id');
    await response.json();
    await expect.poll(() => app.store.unanswered.count(chatbotId, {})).toBe(1);
    const [group] = await app.store.unanswered.list(chatbotId, {}, { page: 1, size: 1 });
    expect(group).toMatchObject({ question: 'Do you sell gift cards?', examples: [{ conversationId: 'c-1', messageId, source: 'API' }] });
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await call('GET', `${app.baseUrl}/chatbots/${chatbotId}/analytics?startDate=${today}&endDate=${today}`, app.apiKey);
    expect((body as { data: { totals: { declined: number } } }).data.totals.declined).toBe(1);
  });

  it('records nothing for a reply that failed', async () => {
    provider.script({ type: 'error', status: 500 });
    const response = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId,
      conversationId: 'c-1',
      messages: [{ role: 'user', content: 'Do you sell gift cards?' }],
    });
    expect(response.status).toBe(500);
    await response.text();
    expect(await app.store.unanswered.count(chatbotId, {})).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await call('GET', `${app.baseUrl}/chatbots/${chatbotId}/analytics?startDate=${today}&endDate=${today}`, app.apiKey);
    expect((body as { data: { totals: { credits: number; declined: number } } }).data.totals).toMatchObject({ credits: 0, declined: 0 });
  });
});
