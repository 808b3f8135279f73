import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandoffTimer } from '../../jobs/handoffs.js';
import { HANDED_BACK } from '../../src/domain/handoff.js';
import { PERSON_ASKED } from '../../src/domain/person-asked.js';
import { openEvents, type ReceivedEvent } from '../support/events.js';
import { call, createChatbotViaApi, DENIED, INVALID, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// The widget's side of a handoff below the browser: "Talk to a person" and the live stream of
// a conversation's replies (Server-Sent Events), read by an independent parser, on every store.
// Nothing here waits for time: each check waits for the events it expects, in their order.

const WAITING = 'Someone from the team will join you here.';
const OFFLINE = 'Nobody is in right now.';
const conversationId = (letter: string) => `wc_${letter.repeat(24)}`;

type Reply = { id: string; role: string; content: string; author?: { type: string; name: string } };
type State = { status: string; requested_at: string; taken_by: string | null } | null;

const replies = (events: ReceivedEvent[]) => events.filter((event) => event.event === 'reply').map((event) => event.data as Reply);
const states = (events: ReceivedEvent[]) => events.filter((event) => event.event === 'handoff').map((event) => event.data as State);
const hasReply = (text: string) => (events: ReceivedEvent[]) => replies(events).some((reply) => reply.content === text);
const hasStatus = (status: string) => (events: ReceivedEvent[]) => states(events).some((state) => state?.status === status);

describe.each(storeTargets.filter((target) => target.available))('$name store: the widget’s handoff', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target, { trustProxy: true });
    bot = await createChatbotViaApi(app, 'Shop', 'The shop opens at nine in the morning.');
    await settings({ visibility: 'public', handoff: { enabled: true, waitingMessage: WAITING, offlineMessage: OFFLINE } });
  });
  afterEach(async () => {
    await app.close();
  });

  const settings = async (changes: Record<string, unknown>, chatbotId = bot) => {
    expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, ...changes })).status).toBe(202);
  };
  const widget = (path: string, chatbotId = bot) => `${app.origin}/widget/chatbots/${chatbotId}${path}`;
  const askForPerson = async (id: string, body: object = {}, headers: Record<string, string> = {}) => {
    const response = await fetch(widget(`/conversations/${id}/handoff`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { handoff: State; messages: Reply[] } & { message?: string } };
  };
  const team = async (id: string, action: string, body?: unknown) => {
    const { status } = await call('POST', `${app.baseUrl}/chatbots/${bot}/conversations/${id}/handoff/${action}`, app.apiKey, body);
    expect(status).toBe(200);
  };
  const events = (id: string, query = '', headers: Record<string, string> = {}, chatbotId = bot) =>
    openEvents(widget(`/conversations/${id}/events${query}`, chatbotId), headers);
  /** A handoff asked for with the button, and a stream from its waiting message on. */
  const handedOff = async (id: string) => {
    const asked = await askForPerson(id);
    expect(asked.status).toBe(200);
    const opened = await events(id, `?after=${asked.body.messages.at(-1)?.id}`);
    expect(opened.status).toBe(200);
    return opened.events;
  };
  const widgetChat = (id: string, message: string) =>
    fetch(widget('/chat'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ conversationId: id, message }) });

  it('hands a new conversation to the team from the button, saving the request and the waiting message without a credit', async () => {
    const id = conversationId('a');
    const asked = await askForPerson(id);
    expect(asked).toEqual({
      status: 200,
      body: {
        handoff: { status: 'pending', requested_at: expect.stringMatching(/Z$/), taken_by: null },
        messages: [
          { id: expect.any(String), role: 'user', content: PERSON_ASKED.en },
          { id: expect.any(String), role: 'assistant', content: WAITING, kind: 'handoff' },
        ],
      },
    });
    // A second press while it is open saves nothing more.
    expect((await askForPerson(id)).body).toEqual({ handoff: asked.body.handoff, messages: [] });

    const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
    const [saved] = (body as { data: { source: string; handoff: State; messages: Reply[] }[] }).data;
    expect(saved?.source).toBe('Widget or Iframe');
    expect(saved?.handoff).toEqual(asked.body.handoff);
    expect(saved?.messages.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: PERSON_ASKED.en },
      { role: 'assistant', content: WAITING },
    ]);
    const account = await call('GET', `${app.baseUrl}/account`, app.apiKey);
    expect((account.body as { data: { usage: { messages: number } } }).data.usage.messages).toBe(0);

    // The window's history shows the state and who wrote what.
    const history = await call('GET', widget(`/conversations/${id}`), undefined);
    expect(history.body).toEqual({ messages: asked.body.messages, handoff: asked.body.handoff });
  });

  it('saves the request in the words the window’s button showed, and refuses a language it does not speak, saving nothing', async () => {
    const spanish = conversationId('es');
    expect((await askForPerson(spanish, { lang: 'es' })).body.messages.map(({ content }) => content)).toEqual([PERSON_ASKED.es, WAITING]);
    const unknown = conversationId('xx');
    expect(await askForPerson(unknown, { lang: 'xx' })).toEqual({ status: 400, body: { message: 'Invalid request data' } });
    expect((await call('GET', widget(`/conversations/${unknown}`), undefined)).status).toBe(404);
  });

  it('posts a widget visitor’s request, by the button or in words, and what they write meanwhile to the team’s platform', async () => {
    await settings({ handoff: { platform: 'slack', workspaceId: 'T0TEAM', channelId: 'C0HANDOFF' } });
    type Notice = { id: string; kind: string; conversationId: string; source: string; transcript?: unknown; text?: string; thread: unknown };
    const claim = async () => (await call('POST', `${app.baseUrl}/handoffs/notices/claim`, app.apiKey, { platform: 'slack' })).body as { data: Notice[] };
    const threadOf = (id: string) => ({ channelId: 'C0HANDOFF', threadId: `1712345678.${id}` });
    const byButton = conversationId('q');
    const inWords = conversationId('r');
    await askForPerson(byButton);
    await (await widgetChat(inWords, 'Can I talk to a person?')).text();
    const requests = (await claim()).data;
    expect(requests.map(({ kind, conversationId: id, source, transcript }) => ({ kind, id, source, transcript }))).toEqual([
      { kind: 'requested', id: byButton, source: 'Widget or Iframe', transcript: [{ role: 'user', content: PERSON_ASKED.en }, { role: 'assistant', content: WAITING }] },
      { kind: 'requested', id: inWords, source: 'Widget or Iframe', transcript: [{ role: 'user', content: 'Can I talk to a person?' }, { role: 'assistant', content: WAITING }] },
    ]);
    for (const request of requests) {
      const done = await call('POST', `${app.baseUrl}/handoffs/notices/${request.id}/done`, app.apiKey, { thread: threadOf(request.conversationId) });
      expect(done.status).toBe(200);
    }

    expect(await (await widgetChat(byButton, 'Hello? My order is late.')).text()).toBe('');
    expect((await claim()).data).toEqual([
      expect.objectContaining({ kind: 'message', conversationId: byButton, text: 'Hello? My order is late.', thread: threadOf(byButton) }),
    ]);
  });

  it('refuses the button where the chat is refused, and when the chatbot offers no handoff on request', async () => {
    const id = conversationId('b');
    await settings({ ipLimit: 1, ipLimitTimeframe: 3600, ipLimitMessage: 'Enough for now.' });
    expect(await askForPerson(id, {}, { 'X-Forwarded-For': '203.0.113.1' })).toMatchObject({ status: 200 });
    expect(await askForPerson(id, {}, { 'X-Forwarded-For': '203.0.113.1' })).toEqual({ status: 429, body: { message: 'Enough for now.' } });

    await settings({ ipLimit: 0, onlyAllowOnAddedDomains: true, domains: ['allowed.test'] });
    expect(await askForPerson(conversationId('c'), { host: 'https://other.test' })).toEqual({ status: 403, body: DENIED });
    expect(await askForPerson(conversationId('c'), { host: 'https://allowed.test' })).toMatchObject({ status: 200 });
    await settings({ onlyAllowOnAddedDomains: false });

    await settings({ handoff: { onRequest: false } });
    expect(await askForPerson(conversationId('d'))).toEqual({ status: 400, body: INVALID });
    await settings({ handoff: { onRequest: true, enabled: false } });
    expect(await askForPerson(conversationId('d'))).toEqual({ status: 400, body: INVALID });
    await settings({ handoff: { enabled: true } });

    // An API conversation is not the widget's, whatever its id looks like.
    await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId: conversationId('e'), messages: [{ role: 'user', content: 'Hi' }] });
    expect(await askForPerson(conversationId('e'))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await askForPerson('not-a-widget-id')).toEqual({ status: 400, body: INVALID });
    await settings({ visibility: 'private' });
    expect(await askForPerson(conversationId('f'))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('streams the team’s replies with their author as they come, then the hand-back, and ends', async () => {
    const id = conversationId('g');
    const stream = await handedOff(id);
    expect(await stream.next()).toEqual({ event: 'handoff', id: expect.any(String), data: expect.objectContaining({ status: 'pending', taken_by: null }) });

    await team(id, 'messages', { name: 'Ada', text: 'Hi, Ada here.' });
    const answered = await stream.until((read) => hasReply('Hi, Ada here.')(read) && hasStatus('active')(read));
    expect(replies(answered)).toEqual([
      { id: expect.any(String), role: 'assistant', content: 'Hi, Ada here.', author: { type: 'human', name: 'Ada' } },
    ]);
    expect(states(answered)).toEqual([expect.objectContaining({ status: 'active', taken_by: 'Ada' })]);
    expect(answered.find((event) => event.event === 'reply')?.id).toBe(replies(answered)[0]?.id);

    await team(id, 'resolve');
    const closing = await stream.until(hasStatus('resolved'));
    expect(replies(closing)).toEqual([{ id: expect.any(String), role: 'assistant', content: HANDED_BACK.en, kind: 'handoff' }]);
    expect(closing.at(-1)?.event).toBe('handoff');
    expect(await stream.next()).toBeUndefined();
  });

  it('says a missed request’s offline message before the state that ends the stream', async () => {
    await settings({ collectCustomerInformation: { title: 'Your details', email: { active: true, label: 'Email' } } });
    const id = conversationId('h');
    const stream = await handedOff(id);
    await stream.until(hasStatus('pending'));
    const timer = createHandoffTimer({ store: app.store, logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 10 * 60_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: bot, conversationId: id, status: 'missed' }]);
    const closing = await stream.until(hasStatus('missed'));
    // The window offers its details form again, under its title: the message does not repeat it.
    expect(replies(closing).map((reply) => reply.content)).toEqual([OFFLINE]);
    expect(await stream.next()).toBeUndefined();
  });

  it('resumes after Last-Event-ID with the replies sent meanwhile, once each', async () => {
    const id = conversationId('i');
    const first = await handedOff(id);
    await team(id, 'messages', { name: 'Ada', text: 'One.' });
    const seen = await first.until(hasReply('One.'));
    first.close();
    const lastId = seen.filter((event) => event.id !== undefined).at(-1)?.id as string;

    await team(id, 'messages', { name: 'Ada', text: 'Two.' });
    // The person writes meanwhile: saved, not answered, and not sent back to them.
    const response = await widgetChat(id, 'Are you there?');
    expect(await response.text()).toBe('');
    await team(id, 'messages', { name: 'Bo', text: 'Three.' });

    // An `after` from a stale page loses to the browser's own Last-Event-ID.
    const resumed = (await events(id, '?after=0', { 'Last-Event-ID': lastId })).events;
    const caughtUp = await resumed.until(hasReply('Three.'));
    expect(replies(caughtUp).map(({ content, author }) => [content, author?.name])).toEqual([
      ['Two.', 'Ada'],
      ['Three.', 'Bo'],
    ]);
    await team(id, 'messages', { name: 'Bo', text: 'Four.' });
    const next = await resumed.until(hasReply('Four.'));
    expect(replies(next).map((reply) => reply.content)).toEqual(['Four.']);
    resumed.close();
  });

  it('never sends one conversation’s replies to another’s stream', async () => {
    const mine = conversationId('j');
    const theirs = conversationId('k');
    const myStream = await handedOff(mine);
    const theirStream = await handedOff(theirs);
    await team(mine, 'messages', { name: 'Ada', text: 'For you only.' });
    await myStream.until(hasReply('For you only.'));
    await team(theirs, 'messages', { name: 'Bo', text: 'For them.' });
    // Had the first reply leaked, it would come before the second, written after it.
    const theirs1 = await theirStream.until(hasReply('For them.'));
    expect(replies(theirs1).map((reply) => reply.content)).toEqual(['For them.']);
    myStream.close();
    theirStream.close();
  });

  it('ends the stream of a conversation erased meanwhile, whose history and stream then answer as an unknown one’s', async () => {
    const id = conversationId('e');
    const stream = await handedOff(id);
    expect(await stream.next()).toEqual({ event: 'handoff', id: expect.any(String), data: expect.objectContaining({ status: 'pending' }) });
    const erased = await call('DELETE', `${app.baseUrl}/chatbots/${bot}/conversations/${id}`, app.apiKey);
    expect(erased.status).toBe(200);
    expect(await stream.next()).toBeUndefined();
    const unknown = conversationId('u');
    expect(await call('GET', widget(`/conversations/${id}`), undefined)).toEqual(await call('GET', widget(`/conversations/${unknown}`), undefined));
    const [again, never] = [await events(id), await events(unknown)];
    expect([again.status, again.body]).toEqual([404, never.body]);
  });

  it('answers a conversation without an open handoff with its state and ends', async () => {
    const id = conversationId('l');
    await widgetChat(id, 'When do you open?').then((response) => response.text());
    const { status, contentType, events: stream } = await events(id);
    expect([status, contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
    expect(await stream.next()).toEqual({ event: 'handoff', id: expect.any(String), data: null });
    expect(await stream.next()).toBeUndefined();
  });

  it('refuses what the widget’s conversation route refuses', async () => {
    const id = conversationId('m');
    await askForPerson(id);
    const other = await createChatbotViaApi(app, 'Other');
    await settings({ visibility: 'public', handoff: { enabled: true } }, other);
    await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId: conversationId('n'), messages: [{ role: 'user', content: 'Hi' }] });

    const refused = async (conversation: string, chatbotId = bot) => {
      const { status, body } = await events(conversation, '', {}, chatbotId);
      return { status, body };
    };
    expect(await refused(id, other)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await refused(conversationId('o'))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await refused(conversationId('n'))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await refused('wc_short')).toEqual({ status: 400, body: INVALID });
    await settings({ visibility: 'private' });
    expect(await refused(id)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('names each widget reply’s message, and answers nothing while a handoff is open', async () => {
    const id = conversationId('p');
    const answered = await widgetChat(id, 'When do you open?');
    expect(answered.headers.get('x-message-id')).toMatch(/\S/);
    expect(await answered.text()).toContain('nine');
    await askForPerson(id);
    const silent = await widgetChat(id, 'Hello?');
    expect([silent.status, silent.headers.get('x-message-id'), await silent.text()]).toEqual([200, null, '']);
  });
});
