import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/openai.js';
import type { FakeProvider } from '../fakes/provider-server.js';
import { fakeModelEngine } from '../support/fake-model.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// POST /chat through a configured LLM provider: the real AI SDK against a fake OpenAI server.

const INTERNAL = { message: 'Internal server error' };
const SOURCE = 'Velo Shop opens at 9am.\n\nReturns are accepted within 30 days.';

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
    provider.script({ type: 'reply', pieces: ['We open', ' at nine', ' every day.'] });
    app = await startApp(target, { engine: fakeModelEngine(provider) });
    chatbotId = await createChatbotViaApi(app, 'Velo', SOURCE);
  });
  afterEach(async () => {
    await app.close();
  });

  const chat = (body: Record<string, unknown>) =>
    fetch(`${app.baseUrl}/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId, messages: [{ role: 'user', content: 'When do you open?' }], ...body }),
    });
  const conversation = async (id: string) =>
    (await app.store.conversations.find(chatbotId, id))?.messages.map((m) => [m.role, m.content]);
  const creditsUsed = () => app.store.usage.messagesUsed(app.accountId, new Date().toISOString().slice(0, 7));

  it('answers with the provider’s reply, prompted with the instructions and the retrieved passage', async () => {
    const response = await chat({ temperature: 0.4, conversationId: 'c1' });
    expect(await response.json()).toEqual({ text: 'We open at nine every day.' });
    const [request] = provider.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.body).toMatchObject({ model: 'gpt-test', temperature: 0.4 });
    const system = JSON.stringify((request?.body.messages as unknown[])[0]);
    expect(system).toContain('Velo Shop opens at 9am.');
    expect(system).toContain('You are a helpful assistant');
    expect(await conversation('c1')).toEqual([
      ['user', 'When do you open?'],
      ['assistant', 'We open at nine every day.'],
    ]);
  });

  it('counts the tokens the provider reports in switchboard_chat_tokens_total, streamed or not', async () => {
    /** The counter's value for `kind`, summed over models. */
    const tokens = async (kind: 'input' | 'output') => {
      const text = await (await fetch(`${app.origin}/metrics`)).text();
      const rows = text.split('\n').filter((row) => row.startsWith('switchboard_chat_tokens_total{') && row.includes(`kind="${kind}"`));
      return rows.reduce((sum, row) => sum + Number(row.slice(row.lastIndexOf(' ') + 1)), 0);
    };
    const before = { input: await tokens('input'), output: await tokens('output') };
    expect((await chat({})).status).toBe(200);
    await (await chat({ stream: true })).text();
    // The fake provider reports 42 prompt and 7 completion tokens a call.
    expect({ input: await tokens('input'), output: await tokens('output') }).toEqual({ input: before.input + 84, output: before.output + 14 });
  });

  it('streams the provider’s pieces and saves the whole reply', async () => {
    const response = await chat({ stream: true, conversationId: 'c2' });
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('We open at nine every day.');
    expect(provider.requests[0]?.body.stream).toBe(true);
    expect(await conversation('c2')).toEqual([
      ['user', 'When do you open?'],
      ['assistant', 'We open at nine every day.'],
    ]);
  });

  it('answers 500 when the provider fails, saving nothing and using no credit', async () => {
    for (const status of [500, 429, 401] as const) {
      provider.script({ type: 'error', status });
      for (const stream of [false, true]) {
        const response = await chat({ stream, conversationId: `failed-${status}` });
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual(INTERNAL);
      }
    }
    expect(await conversation('failed-500')).toBeUndefined();
    expect(await creditsUsed()).toBe(0);
  });

  it('cuts the response when the provider’s stream breaks midway, saving nothing', async () => {
    provider.script({ type: 'truncate' });
    const response = await chat({ stream: true, conversationId: 'broken' });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(await conversation('broken')).toBeUndefined();
    expect(await creditsUsed()).toBe(0);
  });

  it('stops generation when the client disconnects mid-stream', async () => {
    let release = () => {};
    provider.script({ type: 'reply', pieces: ['first', ' second'], beforeLast: new Promise<void>((r) => (release = r)) });
    const response = await chat({ stream: true, conversationId: 'gone' });
    const reader = response.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('first');
    await reader?.cancel();
    const upstream = provider.requests[0];
    expect(await upstream?.closed).toEqual({ completed: false });
    release();
    expect(await conversation('gone')).toBeUndefined();
    await expect.poll(creditsUsed).toBe(0);
  });

  it('answers from the offline responder for a family without a provider', async () => {
    const { body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId,
      model: 'vendor2-haiku-4-5',
      messages: [{ role: 'user', content: 'Can I return things?' }],
    });
    expect(body).toEqual({ text: 'Returns are accepted within 30 days.' });
    expect(provider.requests).toHaveLength(0);
  });
});
