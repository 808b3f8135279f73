import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandoffTimer } from '../../jobs/handoffs.js';
import { HANDED_BACK } from '../../src/domain/handoff.js';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { call, createChatbotViaApi, jsonRequest, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import type { HandoffRepository, Store } from '../../src/store/port.js';

// Human handoff through the API: the triggers, the silent relay while a person has the
// conversation, the state in get-conversations, its webhook events and its timeouts.

const SOURCE = 'The shop opens at nine in the morning. Returns are accepted within 30 days with a receipt.';
const WAITING = 'Someone from the team will join you here.';
const OFFLINE = 'Nobody is in right now.';

type Message = { id: string; role: string; content: string; kind?: string };
type ConversationItem = { id: string; handoff?: { status: string; requested_at: string; taken_by: string | null }; messages: Message[] };

const afterMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The repository with each method called some milliseconds later: 0 to 10, varying from call to
 * call, so racing requests overtake each other between any two of their steps.
 */
function delayed<Repository extends object>(repository: Repository): Repository {
  let calls = 0;
  return new Proxy(repository, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        calls += 1;
        await afterMs((calls * 7) % 11);
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe.each(storeTargets.filter((target) => target.available))('$name store: handoff', (target) => {
  let app: TestApp;
  let bot: string;

  const settings = (handoff: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, handoff, ...extra });
  const say = async (conversationId: string | undefined, content: string) => {
    const { status, body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      conversationId,
      messages: [{ role: 'user', content }],
    });
    expect(status).toBe(200);
    return (body as { text: string }).text;
  };
  const conversation = async (id: string) => {
    const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
    return (body as { data: ConversationItem[] }).data.find((item) => item.id === id);
  };
  const team = (conversationId: string, action: string, body?: unknown, apiKey = app.apiKey) =>
    call('POST', `${app.baseUrl}/chatbots/${bot}/conversations/${conversationId}/handoff/${action}`, apiKey, body);
  const timer = (now: () => Date, processId = 'test') => createHandoffTimer({ store: app.store, logger: pino({ level: 'silent' }), now, processId });
  const later = (seconds: number) => () => new Date(Date.now() + seconds * 1_000);

  beforeEach(async () => {
    app = await startApp(target, { webhookAllowPrivate: true });
    bot = await createChatbotViaApi(app, 'Shop', SOURCE);
    await settings({ enabled: true, platform: 'slack', channelId: 'C1', waitingMessage: WAITING, offlineMessage: OFFLINE });
  });
  afterEach(async () => {
    await app.close();
  });

  it('hands a conversation to a person who asks for one, then stays silent and saves what they say', async () => {
    expect(await say('c1', 'When do you open?')).toContain('nine');
    expect(await say('c1', 'Can I talk to a real person please?')).toBe(WAITING);
    const pending = await conversation('c1');
    expect(pending?.handoff).toEqual({ status: 'pending', requested_at: expect.stringMatching(/Z$/), taken_by: null });

    expect(await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId: 'c1', messages: [{ role: 'user', content: 'Hello?' }] })).toEqual({
      status: 200,
      body: { text: '' },
    });
    // Streamed too: nothing is said.
    const streamed = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      conversationId: 'c1',
      stream: true,
      messages: [{ role: 'user', content: 'Anyone there?' }],
    });
    expect(await streamed.text()).toBe('');
    expect((await conversation('c1'))?.messages.slice(-4)).toEqual([
      expect.objectContaining({ role: 'user', content: 'Can I talk to a real person please?' }),
      expect.objectContaining({ role: 'assistant', content: WAITING }),
      expect.objectContaining({ role: 'user', content: 'Hello?' }),
      expect.objectContaining({ role: 'user', content: 'Anyone there?' }),
    ]);
  });

  it('starts on a configured keyword, and not on a request when onRequest is off', async () => {
    await settings({ onRequest: false, keywords: ['refund'] });
    expect(await say('c1', 'agent please')).not.toBe(WAITING);
    expect((await conversation('c1'))?.handoff).toBeUndefined();
    expect(await say('c1', 'I want my refunds')).toBe(WAITING);
    expect((await conversation('c1'))?.handoff?.status).toBe('pending');
  });

  it('starts after afterDeclines declined replies in a row', async () => {
    await settings({ afterDeclines: 2 });
    expect(await say('c1', 'Do you sell kites?')).toBe(NO_ANSWER);
    expect((await conversation('c1'))?.handoff).toBeUndefined();
    expect(await say('c1', 'What about balloons?')).toBe(`${NO_ANSWER}\n\n${WAITING}`);
    expect((await conversation('c1'))?.handoff?.status).toBe('pending');
  });

  it('hands off after declines with nothing added to the decline when the waiting message is left empty, streamed or not', async () => {
    await settings({ afterDeclines: 1, waitingMessage: '' });
    expect(await say('c1', 'Do you sell kites?')).toBe(NO_ANSWER);
    expect((await conversation('c1'))?.handoff?.status).toBe('pending');
    const streamed = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      conversationId: 'c2',
      stream: true,
      messages: [{ role: 'user', content: 'Do you sell kites?' }],
    });
    expect(await streamed.text()).toBe(NO_ANSWER);
    expect((await conversation('c2'))?.handoff?.status).toBe('pending');
  });

  it('says in X-Message-Kind what a saved reply is, when that is known before the reply is sent, as get-conversations marks it', async () => {
    await settings({ afterDeclines: 2 });
    /** The reply's text, X-Message-Kind and X-Message-Id. */
    const ask = async (conversationId: string | undefined, content: string, stream = false) => {
      const response = await jsonRequest('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId, stream, messages: [{ role: 'user', content }] });
      expect(response.status).toBe(200);
      const text = stream ? await response.text() : ((await response.json()) as { text: string }).text;
      return { text, kind: response.headers.get('x-message-kind'), id: response.headers.get('x-message-id') };
    };
    const answer = await ask('c1', 'When do you open?');
    expect(answer).toMatchObject({ text: expect.stringContaining('nine'), kind: 'answer' });
    expect(await ask('c1', 'Do you sell kites?')).toMatchObject({ text: NO_ANSWER, kind: 'decline' });
    // The second decline in a row ends with the waiting message: it is still a decline, and hands off.
    const handingOff = await ask('c1', 'What about balloons?');
    expect(handingOff).toMatchObject({ text: `${NO_ANSWER}\n\n${WAITING}`, kind: 'decline' });
    expect(await ask('c2', 'agent please')).toMatchObject({ text: WAITING, kind: 'handoff' });
    // Streamed: the waiting message is known before it is sent; an answer or a decline only at its end.
    const waiting = await ask('c3', 'agent please', true);
    expect(waiting).toMatchObject({ text: WAITING, kind: 'handoff', id: expect.any(String) });
    const streamed = await ask('c4', 'When do you open?', true);
    expect(streamed).toMatchObject({ text: expect.stringContaining('nine'), kind: null, id: expect.any(String) });
    // Nothing saved as the chatbot's, nothing said: while a person has the conversation, and unsaved.
    expect(await ask('c2', 'Hello?')).toEqual({ text: '', kind: null, id: null });
    expect(await ask(undefined, 'When do you open?')).toMatchObject({ kind: null, id: null });

    const marked = async (conversationId: string, id: string | null) =>
      (await conversation(conversationId))?.messages.find((message) => message.id === id);
    expect(await marked('c1', answer.id)).not.toHaveProperty('kind');
    expect(await marked('c1', handingOff.id)).toMatchObject({ kind: 'decline' });
    expect(await marked('c3', waiting.id)).toMatchObject({ content: WAITING, kind: 'handoff' });
  });

  it('recognises a request for a person however it is phrased, and not a sentence that only mentions people', async () => {
    const requests = ['can I talk to a person?', 'agent please', 'I want a human', 'Is there someone I can talk to?', 'please transfer me to a human agent'];
    for (const [index, request] of requests.entries()) {
      expect(await say(`ask${index}`, request), request).toBe(WAITING);
      expect((await conversation(`ask${index}`))?.handoff?.status, request).toBe('pending');
    }
    const mentions = ['I am a person who likes tea', 'are you a human?', 'How many people work at the shop?', 'The agent at the airport was rude'];
    for (const [index, mention] of mentions.entries()) {
      expect(await say(`tell${index}`, mention), mention).not.toContain(WAITING);
      expect((await conversation(`tell${index}`))?.handoff, mention).toBeUndefined();
    }
  });

  it('never starts after declines when afterDeclines is 0', async () => {
    await settings({ afterDeclines: 0 });
    for (const question of ['Do you sell kites?', 'What about balloons?', 'Or yo-yos?']) expect(await say('c1', question)).toBe(NO_ANSWER);
    expect((await conversation('c1'))?.handoff).toBeUndefined();
  });

  it('hands every open handoff back at once when handoff is turned off, and the chatbot answers again', async () => {
    // Found auditing the widget: turning handoff off left open handoffs until they timed out, their
    // people hearing nothing from the chatbot meanwhile.
    expect(await say('p1', 'Can I talk to a person?')).toBe(WAITING);
    expect(await say('p2', 'Can I talk to a person?')).toBe(WAITING);
    expect((await team('p2', 'messages', { name: 'Ada', text: 'Ada here.' })).status).toBe(200);
    expect(await say('p3', 'When do you open?')).toContain('nine');

    // A change that leaves handoff on ends nothing.
    expect((await settings({ waitMinutes: 10 })).status).toBe(202);
    expect((await conversation('p1'))?.handoff?.status).toBe('pending');

    expect((await settings({ enabled: false })).status).toBe(202);
    for (const id of ['p1', 'p2']) {
      const handedBack = await conversation(id);
      expect(handedBack?.handoff?.status).toBe('resolved');
      expect(handedBack?.messages.at(-1)).toMatchObject({ role: 'assistant', content: HANDED_BACK.en, kind: 'handoff' });
    }
    expect((await conversation('p3'))?.handoff).toBeUndefined();
    expect(await say('p1', 'When do you open?')).toContain('nine');
    expect(await say('p2', 'When do you open?')).toContain('nine');
  });

  it('starts nothing when handoff is off, or for a conversation that is not saved', async () => {
    expect(await say(undefined, 'agent please')).not.toBe(WAITING);
    await settings({ enabled: false });
    expect(await say('c1', 'agent please')).not.toBe(WAITING);
    expect((await conversation('c1'))?.handoff).toBeUndefined();
  });

  it('misses a request nobody took within waitMinutes, once across racing timers, and offers the lead form again', async () => {
    await settings({ waitMinutes: 0.05 }, { collectCustomerInformation: { email: { active: true } } });
    await say('c1', 'I want a human');
    expect(await timer(later(1)).tick()).toEqual([]);
    const passes = await Promise.all([timer(later(4), 'a').tick(), timer(later(4), 'b').tick()]);
    expect(passes.flat()).toEqual([{ chatbotId: bot, conversationId: 'c1', status: 'missed' }]);
    const missed = await conversation('c1');
    expect(missed?.handoff?.status).toBe('missed');
    expect(missed?.messages.at(-1)).toMatchObject({ role: 'assistant', content: `${OFFLINE}\n\nLet us know how to contact you: please share your Email.` });
    // The chatbot answers again.
    expect(await say('c1', 'When do you open?')).toContain('nine');
  });

  it('asks a missed person for their details again though they let the first request pass, and keeps the lead they give', async () => {
    await settings({ waitMinutes: 0.05 }, { collectCustomerInformation: { title: 'Your details', email: { active: true, label: 'Email' } } });
    const ask = 'Your details: please share your Email.';
    expect(await say('c1', 'When do you open?')).toContain(ask);
    expect(await say('c1', 'Do you take returns?')).not.toContain(ask);
    await say('c1', 'I want a human');
    await timer(later(4)).tick();
    expect((await conversation('c1'))?.messages.at(-1)).toMatchObject({ role: 'assistant', content: `${OFFLINE}\n\n${ask}` });
    await say('c1', 'It is bo@example.com');
    expect(await app.store.leads.list(bot, {}, { page: 1, size: 10 })).toEqual([
      expect.objectContaining({ email: 'bo@example.com', conversationId: 'c1' }),
    ]);
  });

  it('resolves a handoff the team left quiet for idleMinutes, and the chatbot says so', async () => {
    await settings({ idleMinutes: 0.05 });
    await say('c1', 'connect me to an agent');
    expect(await team('c1', 'take', { name: 'Ada' })).toMatchObject({ status: 200, body: { data: { status: 'active', taken_by: 'Ada' } } });
    expect(await timer(later(4)).tick()).toEqual([{ chatbotId: bot, conversationId: 'c1', status: 'resolved' }]);
    const resolved = await conversation('c1');
    expect(resolved?.handoff).toMatchObject({ status: 'resolved', taken_by: 'Ada' });
    expect(resolved?.messages.at(-1)).toMatchObject({ role: 'assistant', content: HANDED_BACK.en });
  });

  it('puts handoff.requested and handoff.resolved in the outbox of subscribed webhooks', async () => {
    const created = await call('POST', `${app.baseUrl}/integrations/webhooks`, app.apiKey, {
      url: 'http://127.0.0.1:9/hook',
      events: ['handoff.requested', 'handoff.resolved'],
    });
    expect(created.status).toBe(200);
    await settings({ waitMinutes: 0.05 });
    await say('c1', 'I need to speak to someone');
    await timer(later(4)).tick();
    const due = await app.store.webhookOutbox.claimDue({ now: later(60)(), claimedBy: 'test', leaseUntil: later(120)(), limit: 10 });
    const bodies = due.map((delivery) => JSON.parse(delivery.body) as Record<string, unknown>);
    expect(bodies.map((body) => body.eventType).sort()).toEqual(['handoff.requested', 'handoff.resolved']);
    expect(bodies.find((body) => body.eventType === 'handoff.resolved')).toMatchObject({
      chatbotId: bot,
      payload: { chatbotId: bot, conversationId: 'c1', handoff: { status: 'missed', taken_by: null } },
    });
  });

  it('sends handoff.requested and handoff.resolved with the chatbot, the conversation and the handoff as it stands', async () => {
    await call('POST', `${app.baseUrl}/integrations/webhooks`, app.apiKey, { url: 'http://127.0.0.1:9/hook', events: ['handoff.requested', 'handoff.resolved'] });
    await say('c1', 'agent please');
    await team('c1', 'take', { name: 'Ada' });
    await team('c1', 'resolve');
    const due = await app.store.webhookOutbox.claimDue({ now: later(60)(), claimedBy: 'test', leaseUntil: later(120)(), limit: 10 });
    const payloads = Object.fromEntries(due.map((delivery) => {
      const body = JSON.parse(delivery.body) as { eventType: string; payload: unknown };
      return [body.eventType, body.payload];
    }));
    const requestedAt = (await conversation('c1'))?.handoff?.requested_at;
    expect(payloads).toEqual({
      'handoff.requested': { chatbotId: bot, conversationId: 'c1', handoff: { status: 'pending', requested_at: requestedAt, taken_by: null } },
      'handoff.resolved': { chatbotId: bot, conversationId: 'c1', handoff: { status: 'resolved', requested_at: requestedAt, taken_by: 'Ada' } },
    });
  });

  it('lets the team answer an API conversation: the first reply takes it, replies name their author, resolve hands it back', async () => {
    await say('c1', 'I want a human');
    const replied = await team('c1', 'messages', { name: 'Grace', text: 'Hi, Grace here. How can I help?' });
    expect(replied).toMatchObject({ status: 200, body: { message: 'Success', data: { status: 'active', taken_by: 'Grace' } } });
    expect(await say('c1', 'My order is late')).toBe('');
    // A second member's reply keeps the first taker.
    expect(await team('c1', 'messages', { name: 'Ada', text: 'Ada too: it ships today.' })).toMatchObject({ body: { data: { taken_by: 'Grace' } } });
    expect(await team('c1', 'resolve')).toMatchObject({ status: 200, body: { data: { status: 'resolved', taken_by: 'Grace' } } });

    const messages = (await conversation('c1'))?.messages.slice(-4) as (Message & { author?: unknown })[];
    expect(messages.map(({ role, content, author }) => ({ role, content, author }))).toEqual([
      { role: 'assistant', content: 'Hi, Grace here. How can I help?', author: { type: 'human', name: 'Grace' } },
      { role: 'user', content: 'My order is late', author: undefined },
      { role: 'assistant', content: 'Ada too: it ships today.', author: { type: 'human', name: 'Ada' } },
      { role: 'assistant', content: HANDED_BACK.en, author: undefined },
    ]);
    expect(await say('c1', 'When do you open?')).toContain('nine');
    // Closed: nothing to take, reply in or resolve.
    const bodies: [string, unknown][] = [['take', { name: 'Ada' }], ['messages', { name: 'Ada', text: 'late' }], ['resolve', undefined]];
    for (const [action, body] of bodies) {
      expect(await team('c1', action, body), action).toEqual({
        status: 404,
        body: { message: 'Resource not found' },
      });
    }
  });

  /** Starts the app again on a fresh store, seen through `wrapStore`. */
  const restart = async (wrapStore: (store: Store) => Store) => {
    await app.close();
    app = await startApp(target, { wrapStore });
    bot = await createChatbotViaApi(app, 'Shop', SOURCE);
    await settings({ enabled: true, waitingMessage: WAITING });
  };
  /** Starts the app again on a fresh store, its handoffs' methods replaced by those `override` gives. */
  const restartWithHandoffs = (override: (handoffs: HandoffRepository) => Partial<HandoffRepository>) =>
    restart((store) => ({ ...store, handoffs: { ...store.handoffs, ...override(store.handoffs) } }));
  const assistantSaid = async (id: string) =>
    (await app.store.conversations.find(bot, id))?.messages.filter((message) => message.role === 'assistant').map((message) => message.content);

  it('keeps a reply before the hand-back that follows its write to the handoff at once', async () => {
    // The hand-back is asked for, and answered, as soon as the reply has moved the handoff.
    let handedBack: ReturnType<typeof team> | undefined;
    await restartWithHandoffs((handoffs) => ({
      async transition(...args) {
        const moved = await handoffs.transition(...args);
        if (moved?.status === 'active') await (handedBack ??= team('c1', 'resolve'));
        return moved;
      },
    }));
    await say('c1', 'I want a human');
    expect(await team('c1', 'messages', { name: 'Grace', text: 'Hi, Grace here.' })).toMatchObject({ status: 200 });
    expect(await handedBack).toMatchObject({ status: 200, body: { data: { status: 'resolved', taken_by: 'Grace' } } });
    expect(await assistantSaid('c1')).toEqual([WAITING, 'Hi, Grace here.', HANDED_BACK.en]);
  });

  /** The kinds of the notices for the team's Slack channel, in the order an adapter posts them. */
  const postedNotices = async () => {
    const kinds: string[] = [];
    for (;;) {
      const now = new Date();
      const claim = { accountId: app.accountId, platform: 'slack' as const, now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10 };
      const claimed = await app.store.handoffNotices.claim(claim);
      if (claimed.length === 0) return kinds;
      for (const { id, kind } of claimed) {
        await app.store.handoffNotices.complete(app.accountId, id, kind === 'requested' ? { channelId: 'C1', threadId: '1.1' } : undefined, now);
        kinds.push(kind);
      }
    }
  };

  it('answers a message that found the handoff open when the hand-back comes before the message is saved', async () => {
    // The hand-back is asked for, and answered, once the message has read the handoff as open.
    let handBackAtNextRead = false;
    let handedBack: ReturnType<typeof team> | undefined;
    await restartWithHandoffs((handoffs) => ({
      async find(...args) {
        const found = await handoffs.find(...args);
        if (handBackAtNextRead && found?.status === 'pending') {
          handBackAtNextRead = false;
          await (handedBack = team('c1', 'resolve'));
        }
        return found;
      },
    }));
    await settings({ platform: 'slack', channelId: 'C1' });
    await say('c1', 'I want a human');
    handBackAtNextRead = true;
    expect(await say('c1', 'When do you open?')).toContain('nine');
    expect(await handedBack).toMatchObject({ status: 200, body: { data: { status: 'resolved' } } });
    expect(await assistantSaid('c1')).toEqual([WAITING, HANDED_BACK.en, expect.stringContaining('nine')]);
    // The team is told of no message after the handoff closed.
    expect(await postedNotices()).toEqual(['requested', 'closed']);
  });

  it('saves a reply racing the hand-back before it, or refuses it: never after the chatbot took over again', async () => {
    // Every conversation and handoff read or write waits a while first, so the racing requests
    // interleave at each step, as they do across processes.
    await restart((store) => ({ ...store, handoffs: delayed(store.handoffs), conversations: delayed(store.conversations) }));
    const ids = Array.from({ length: 24 }, (_, round) => `race${round}`);
    await Promise.all(ids.map((id) => say(id, 'I want a human')));
    // Half are taken first, so the reply moves an active handoff as well as a pending one.
    await Promise.all(ids.filter((_, round) => round % 2 === 0).map((id) => team(id, 'take', { name: 'Ada' })));
    const raced = await Promise.all(
      ids.map((id, round) =>
        Promise.all([team(id, 'messages', { name: 'Grace', text: `Reply in ${id}` }), afterMs(round % 12).then(() => team(id, 'resolve'))]),
      ),
    );
    for (const [round, [reply, resolve]] of raced.entries()) {
      const id = ids[round] ?? '';
      expect(resolve.status, id).toBe(200);
      expect([200, 404], id).toContain(reply.status);
      expect(await assistantSaid(id), id).toEqual(reply.status === 200 ? [WAITING, `Reply in ${id}`, HANDED_BACK.en] : [WAITING, HANDED_BACK.en]);
    }
  });

  it('keeps an active handoff from going idle while the team replies', async () => {
    await settings({ idleMinutes: 0.05 });
    await say('c1', 'agent please');
    await team('c1', 'take', { name: 'Ada' });
    await team('c1', 'messages', { name: 'Ada', text: 'Looking into it.' });
    // Due 3 s after the reply, not after the take.
    expect(await timer(later(2)).tick()).toEqual([]);
    expect((await conversation('c1'))?.handoff?.status).toBe('active');
  });

  it("refuses another account's conversation and invalid bodies, changing nothing", async () => {
    await say('c1', 'agent please');
    const other = await app.addAccount('other');
    expect(await team('c1', 'take', { name: 'Mallory' }, other.apiKey)).toEqual({ status: 404, body: { message: 'Resource not found' } });
    expect(await team('c1', 'take', { name: ' ' })).toEqual({ status: 400, body: { message: 'Invalid request data' } });
    expect(await team('c1', 'messages', { name: 'Ada', text: '' })).toEqual({ status: 400, body: { message: 'Invalid request data' } });
    expect(await team('c1', 'messages', { name: 'Ada', text: 'hi', email: 'a@b.c' })).toEqual({ status: 400, body: { message: 'Invalid request data' } });
    expect((await conversation('c1'))?.handoff).toMatchObject({ status: 'pending', taken_by: null });
  });
});
