import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

describe.each(storeTargets.filter((t) => t.available))('$name store: /integrations/chatbots/{id}/prompts', (target) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  const prompts = (id: string, apiKey: string | null = app.apiKey) =>
    call('GET', `${app.baseUrl}/integrations/chatbots/${encodeURIComponent(id)}/prompts`, apiKey ?? undefined);

  it("answers the chatbot's greeting and suggested questions, to its own account only", async () => {
    const bot = await createChatbotViaApi(app, 'Support');
    const saved = await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, {
      chatbotId: bot,
      initialMessages: ['Hello there!', 'Ask me anything.'],
      suggestedMessages: ['Opening hours?', 'Shipping?'],
    });
    expect(saved.status).toBe(202);
    expect(await prompts(bot)).toEqual({
      status: 200,
      body: {
        message: 'Success',
        data: { initialMessages: ['Hello there!', 'Ask me anything.'], suggestedMessages: ['Opening hours?', 'Shipping?'] },
      },
    });
    const other = await app.addAccount('other');
    expect(await prompts(bot, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await prompts('no-such-bot')).toEqual({ status: 404, body: NOT_FOUND });
    expect(await prompts(bot, null)).toEqual({ status: 401, body: NO_KEY });
  });
});
