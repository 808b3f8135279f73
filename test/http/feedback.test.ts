import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Feedback on answers: the chat reply names its saved message (X-Message-Id), a 👍/👎 is recorded
// on it, and get-conversations shows it.

type Message = { id: string; role: string; content: string; created_at: string; feedback?: string };

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

  const chat = (body: Record<string, unknown>, chatbotId = bot) =>
    fetch(`${app.baseUrl}/chat`, {
      method: 'POST',
      headers: { ...bearer(app.apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId, messages: [{ role: 'user', content: 'When do you open?' }], ...body }),
    });
  const messagesOf = async (conversationId: string, chatbotId = bot, apiKey = app.apiKey): Promise<Message[]> => {
    const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${chatbotId}`, apiKey);
    return (body as { data: { id: string; messages: Message[] }[] }).data.find((item) => item.id === conversationId)?.messages ?? [];
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
