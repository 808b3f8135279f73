import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, DENIED, INVALID, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import type { SourceItem } from '../support/sources.js';
import { storeTargets } from '../support/stores.js';

// Knowledge sources over HTTP: text and Q&A sources end to end, the v1 sourceText as the
// chatbot's API text source, and answers drawn from several sources.

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HOURS = 'Harbor Lights Bakery opens at seven in the morning on weekdays.';
const PARKING = 'Parking\nFree parking for customers is behind the bakery on Mill Lane.';

describe.each(storeTargets.filter((t) => t.available))('$name store: sources', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target, { sourceLimits: { maxCharsPerChatbot: 1_000, maxFileBytes: 1024 } });
    bot = await createChatbotViaApi(app, 'Harbor Lights', HOURS);
  });
  afterEach(async () => {
    await app.close();
  });

  const sources = (chatbotId = bot) => `${app.baseUrl}/chatbots/${chatbotId}/sources`;
  const list = async (chatbotId = bot): Promise<SourceItem[]> => {
    const { status, body } = await call('GET', sources(chatbotId), app.apiKey);
    expect(status).toBe(200);
    return (body as { data: SourceItem[] }).data;
  };
  const add = async (input: object): Promise<SourceItem> => {
    const { status, body } = await call('POST', sources(), app.apiKey, input);
    expect(status).toBe(201);
    expect((body as { message: string }).message).toBe('Success');
    return (body as { data: SourceItem }).data;
  };
  const ask = async (question: string): Promise<string> => {
    const { status, body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      messages: [{ role: 'user', content: question }],
    });
    expect(status).toBe(200);
    return (body as { text: string }).text;
  };

  it('lists the v1 sourceText as the chatbot’s API text source', async () => {
    const [apiText, ...others] = await list();
    expect(others).toEqual([]);
    expect(apiText).toMatchObject({ type: 'text', title: 'API text', status: 'ready', error: null, chars: HOURS.length });
    expect(apiText?.created_at).toMatch(ISO_8601);
    const { body } = await call('GET', `${sources()}/${apiText?.id}`, app.apiKey);
    expect((body as { data: SourceItem }).data.text).toBe(HOURS);
  });

  it('shows the first 200,000 characters of a source’s text in its detail, and counts them all', async () => {
    const roomy = await startApp(target, { sourceLimits: { maxCharsPerChatbot: 1_000_000, maxFileBytes: 1024 } });
    try {
      const chatbotId = await createChatbotViaApi(roomy, 'Long reads', HOURS);
      const text = `${'a'.repeat(200_000)}THE END`;
      const { body } = await call('POST', `${roomy.baseUrl}/chatbots/${chatbotId}/sources`, roomy.apiKey, { type: 'text', title: 'Long', text });
      const added = (body as { data: SourceItem }).data;
      expect(added.chars).toBe(text.length);
      const shown = ((await call('GET', `${roomy.baseUrl}/chatbots/${chatbotId}/sources/${added.id}`, roomy.apiKey)).body as { data: SourceItem }).data;
      expect(shown).toMatchObject({ chars: text.length, text: text.slice(0, 200_000) });
    } finally {
      await roomy.close();
    }
  });

  it('adds a text source (201) and answers from it beside the others', async () => {
    const parking = await add({ type: 'text', title: 'Parking', text: PARKING });
    expect(parking).toMatchObject({ type: 'text', title: 'Parking', status: 'ready', error: null, chars: PARKING.length });
    expect(await ask('Where can I park?')).toContain('Mill Lane');
    expect(await ask('When do you open?')).toContain('seven');
    expect((await list()).map((source) => source.title)).toEqual(['API text', 'Parking']);
  });

  it('adds a Q&A source (201) whose answer the chatbot gives', async () => {
    const qa = await add({ type: 'qa', question: 'Do you bake gluten-free bread?', answer: 'Yes, every Friday.' });
    expect(qa).toMatchObject({ type: 'qa', title: 'Do you bake gluten-free bread?', question: 'Do you bake gluten-free bread?', answer: 'Yes, every Friday.', status: 'ready' });
    expect(await ask('Do you bake gluten-free bread?')).toContain('every Friday');
  });

  it("gives a Q&A's answer to its question asked after another subject in the same conversation", async () => {
    await add({ type: 'text', title: 'Rooms', text: '# Meeting rooms\n\n| Room | Floor |\n| --- | --- |\n| Kestrel | 3 |\n| Osprey | 2 |' });
    await add({ type: 'qa', question: 'Is there parking?', answer: 'Yes, at the back.' });
    const first = { role: 'user', content: 'Which floor is the Kestrel room on?' };
    const { body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, messages: [first] });
    const reply = { role: 'assistant', content: (body as { text: string }).text };
    expect(reply.content).toContain('Floor: 3');
    const next = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      messages: [first, reply, { role: 'user', content: 'Is there parking?' }],
    });
    expect((next.body as { text: string }).text).toBe('Yes, at the back.');
  });

  it('edits a Q&A source and retrains', async () => {
    const qa = await add({ type: 'qa', question: 'Do you bake gluten-free bread?', answer: 'Yes, every Friday.' });
    const { status, body } = await call('PATCH', `${sources()}/${qa.id}`, app.apiKey, { answer: 'Yes, on Tuesdays.' });
    expect(status).toBe(200);
    expect((body as { data: SourceItem }).data).toMatchObject({ answer: 'Yes, on Tuesdays.', question: qa.question });
    const answer = await ask('Do you bake gluten-free bread?');
    expect(answer).toContain('Tuesdays');
    expect(answer).not.toContain('Friday');
  });

  it('edits a text source’s title and text', async () => {
    const parking = await add({ type: 'text', title: 'Parking', text: PARKING });
    const edited = 'Parking\nFree parking for customers is at the harbour car park.';
    const { status, body } = await call('PATCH', `${sources()}/${parking.id}`, app.apiKey, { title: 'Car park', text: edited });
    expect(status).toBe(200);
    expect((body as { data: SourceItem }).data).toMatchObject({ title: 'Car park', chars: edited.length });
    expect(await ask('Where can I park?')).toContain('harbour');
  });

  it('refuses to edit a text source by question or answer, or to a blank text, and changes nothing', async () => {
    const parking = await add({ type: 'text', title: 'Parking', text: PARKING });
    expect(await call('PATCH', `${sources()}/${parking.id}`, app.apiKey, { answer: 'No.' })).toEqual({ status: 400, body: INVALID });
    expect(await call('PATCH', `${sources()}/${parking.id}`, app.apiKey, {})).toEqual({ status: 400, body: INVALID });
    expect(await call('PATCH', `${sources()}/${parking.id}`, app.apiKey, { text: ' \n ' })).toEqual({ status: 400, body: INVALID });
    expect((await list())[1]).toEqual(parking);
  });

  it('deletes a source: answers stop using it once the call returns', async () => {
    const parking = await add({ type: 'text', title: 'Parking', text: PARKING });
    expect(await ask('Where can I park?')).toContain('Mill Lane');
    const { status, body } = await call('DELETE', `${sources()}/${parking.id}`, app.apiKey);
    expect(status).toBe(200);
    expect((body as { data: SourceItem }).data.id).toBe(parking.id);
    expect(await ask('Where can I park?')).not.toContain('Mill Lane');
    expect(await call('GET', `${sources()}/${parking.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('DELETE', `${sources()}/${parking.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('update-chatbot-data replaces the API text source and leaves the others', async () => {
    await add({ type: 'text', title: 'Parking', text: PARKING });
    const newHours = 'Harbor Lights Bakery opens at eight in the morning on weekdays.';
    const { status } = await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, {
      chatbotId: bot,
      chatbotName: 'Harbor Lights',
      sourceText: newHours,
    });
    expect(status).toBe(200);
    const [apiText, parking] = await list();
    expect(apiText).toMatchObject({ title: 'API text', chars: newHours.length });
    expect(parking?.title).toBe('Parking');
    const opening = await ask('When do you open?');
    expect(opening).toContain('eight');
    expect(opening).not.toContain('seven');
    expect(await ask('Where can I park?')).toContain('Mill Lane');
  });

  it('update-chatbot-data with a sourceText of white space alone removes the API text source, as an empty one does', async () => {
    await add({ type: 'text', title: 'Parking', text: PARKING });
    for (const sourceText of [' \n\t ', '']) {
      const { status } = await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, { chatbotId: bot, chatbotName: 'Harbor Lights', sourceText });
      expect(status).toBe(200);
      expect((await list()).map((source) => source.title)).toEqual(['Parking']);
    }
  });

  it('refuses a source over the chatbot’s character limit with 403, and changes nothing', async () => {
    const { status, body } = await call('POST', sources(), app.apiKey, { type: 'text', title: 'Long', text: 'x'.repeat(1_000) });
    expect({ status, body }).toEqual({ status: 403, body: DENIED });
    expect(await list()).toHaveLength(1);
  });

  /**
   * A hub whose store holds each call of `method` until `racing` calls have come that far: a
   * check made apart from the write has passed for each by then.
   */
  const startGated = (racing: number, method: 'insert' | 'update') => {
    let waiting = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    return startApp(target, {
      sourceLimits: { maxCharsPerChatbot: 1_000, maxFileBytes: 1024 },
      wrapStore: (store) => {
        const write = store.sources[method] as (...args: unknown[]) => ReturnType<(typeof store.sources)[typeof method]>;
        const held = async (...args: unknown[]) => {
          if (++waiting === racing) release();
          await gate;
          return write(...args);
        };
        return { ...store, engine: store.engine, sources: { ...store.sources, [method]: held } };
      },
    });
  };
  const listOf = async (hub: TestApp, chatbotId: string) =>
    ((await call('GET', `${hub.baseUrl}/chatbots/${chatbotId}/sources`, hub.apiKey)).body as { data: SourceItem[] }).data;
  const charsOf = (listed: SourceItem[]) => listed.reduce((sum, source) => sum + source.chars, 0);

  it('refuses with 403 the concurrent adds that together would pass the character limit', async () => {
    const racing = 3;
    const gated = await startGated(racing, 'insert');
    try {
      const chatbotId = await createChatbotViaApi(gated, 'Tides', HOURS);
      const adds = Array.from({ length: racing }, (_, k) =>
        call('POST', `${gated.baseUrl}/chatbots/${chatbotId}/sources`, gated.apiKey, { type: 'text', title: `Tides ${k}`, text: `${k}`.repeat(400) }),
      );
      const answers = await Promise.all(adds);
      const added = answers.filter((answer) => answer.status === 201);
      for (const refused of answers.filter((answer) => answer.status !== 201)) expect(refused).toEqual({ status: 403, body: DENIED });
      expect(added.length).toBeGreaterThan(0);
      const listed = await listOf(gated, chatbotId);
      expect(listed).toHaveLength(1 + added.length);
      expect(charsOf(listed)).toBeLessThanOrEqual(1_000);
    } finally {
      await gated.close();
    }
  });

  it('refuses with 403 the concurrent edits that together would pass the character limit, leaving those sources as they were', async () => {
    const racing = 3;
    const gated = await startGated(racing, 'update');
    try {
      const chatbotId = await createChatbotViaApi(gated, 'Tides', HOURS);
      const url = `${gated.baseUrl}/chatbots/${chatbotId}/sources`;
      const ids: string[] = [];
      for (let k = 0; k < racing; k += 1) {
        const { body } = await call('POST', url, gated.apiKey, { type: 'text', title: `Tides ${k}`, text: `${k}` });
        ids.push((body as { data: SourceItem }).data.id);
      }
      const answers = await Promise.all(ids.map((id, k) => call('PATCH', `${url}/${id}`, gated.apiKey, { text: `${k}`.repeat(400) })));
      const edited = answers.filter((answer) => answer.status === 200);
      for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused).toEqual({ status: 403, body: DENIED });
      expect(edited.length).toBeGreaterThan(0);
      const listed = await listOf(gated, chatbotId);
      expect(charsOf(listed)).toBeLessThanOrEqual(1_000);
      expect(listed.filter((source) => source.chars === 400)).toHaveLength(edited.length);
      expect(listed.filter((source) => source.chars === 1)).toHaveLength(racing - edited.length);
    } finally {
      await gated.close();
    }
  });

  it('refuses with 403 an update-chatbot-data whose text a source added meanwhile takes past the character limit', async () => {
    // The API text's write waits until the add is stored: a check made apart from the write has
    // passed by then.
    let added = () => {};
    const addStored = new Promise<void>((resolve) => (added = resolve));
    const gated = await startApp(target, {
      sourceLimits: { maxCharsPerChatbot: 1_000, maxFileBytes: 1024 },
      wrapStore: (store) => ({
        ...store,
        engine: store.engine,
        sources: {
          ...store.sources,
          insert: async (...args) => {
            try {
              return await store.sources.insert(...args);
            } finally {
              added();
            }
          },
          put: async (...args) => {
            await addStored;
            return store.sources.put(...args);
          },
        },
      }),
    });
    try {
      const chatbotId = await createChatbotViaApi(gated, 'Tides', '');
      const answers = await Promise.all([
        call('POST', `${gated.baseUrl}/update-chatbot-data`, gated.apiKey, { chatbotId, chatbotName: 'Tides', sourceText: 'a'.repeat(600) }),
        call('POST', `${gated.baseUrl}/chatbots/${chatbotId}/sources`, gated.apiKey, { type: 'text', title: 'Tides', text: 'b'.repeat(600) }),
      ]);
      expect(answers.map(({ status }) => status)).toEqual([403, 201]);
      expect(answers[0]?.body).toEqual(DENIED);
      expect((await listOf(gated, chatbotId)).map(({ title, chars }) => ({ title, chars }))).toEqual([{ title: 'Tides', chars: 600 }]);
    } finally {
      await gated.close();
    }
  });

  it('refuses malformed sources with 400, and changes nothing', async () => {
    for (const input of [
      {},
      { type: 'poem', text: 'Roses' },
      { type: 'text', title: 'Empty', text: '' },
      // Only spaces and line breaks: as a file with no text fails, a text of none is refused.
      { type: 'text', title: 'Blank', text: '  \n\n \t ' },
      { type: 'qa', question: 'Why?' },
      { type: 'qa', question: '', answer: 'Because.' },
      { type: 'text', title: 7, text: 'Seven' },
    ]) {
      expect(await call('POST', sources(), app.apiKey, input)).toEqual({ status: 400, body: INVALID });
    }
    expect(await list()).toHaveLength(1);
  });

  it('refuses a new source with a key it does not take, as an edit is, and changes nothing', async () => {
    for (const input of [
      { type: 'text', title: 'Parking', text: PARKING, tags: ['cars'] },
      { type: 'qa', question: 'Do you deliver?', answer: 'No.', title: 'Delivery' },
      { type: 'website', url: 'https://example.com/', maxPages: 5, maxDepth: 2 },
      { type: 'website', url: 'https://example.com/', max_pages: 5 },
    ]) {
      expect(await call('POST', sources(), app.apiKey, input)).toEqual({ status: 400, body: INVALID });
    }
    const [apiText] = await list();
    expect(await call('PATCH', `${sources()}/${apiText?.id}`, app.apiKey, { text: HOURS, tags: ['cars'] })).toEqual({ status: 400, body: INVALID });
    expect(await list()).toEqual([apiText]);
  });

  it('answers 404 for another account’s chatbot and for another chatbot’s source', async () => {
    const stranger = await app.addAccount('stranger');
    const theirs = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: stranger.apiKey }, 'Theirs', 'Their secret text.');
    const [their] = (
      (await call('GET', sources(theirs), stranger.apiKey)).body as { data: SourceItem[] }
    ).data as [SourceItem];
    expect(await call('GET', sources(theirs), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('POST', sources(theirs), app.apiKey, { type: 'qa', question: 'Q?', answer: 'A.' })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('DELETE', `${sources(theirs)}/${their.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('GET', `${sources(theirs)}/${their.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('POST', `${sources(theirs)}/${their.id}/refresh`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    // Their source named under my chatbot is not mine either.
    expect(await call('GET', `${sources()}/${their.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('PATCH', `${sources()}/${their.id}`, app.apiKey, { text: 'Mine now.' })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('DELETE', `${sources()}/${their.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(((await call('GET', sources(theirs), stranger.apiKey)).body as { data: SourceItem[] }).data).toEqual([their]);
  });

  it('cites the sources an answer drew on in get-conversations, and none for a greeting', async () => {
    const parking = await add({ type: 'text', title: 'Parking', text: PARKING });
    const say = (content: string) =>
      call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId: 'cited', messages: [{ role: 'user', content }] });
    await say('Hello!');
    await say('Where can I park?');
    const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
    const [conversation] = (body as { data: { messages: { role: string; content: string; sources?: unknown }[] }[] }).data;
    const [greeting, parkingAnswer] = conversation?.messages.filter((message) => message.role === 'assistant') ?? [];
    expect(greeting).not.toHaveProperty('sources');
    expect(parkingAnswer?.content).toContain('Mill Lane');
    expect(parkingAnswer?.sources).toEqual([{ id: parking.id, title: 'Parking' }]);
    for (const message of conversation?.messages.filter((item) => item.role === 'user') ?? []) expect(message).not.toHaveProperty('sources');
  });
});
