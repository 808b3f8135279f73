import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandoffTimer } from '../../jobs/handoffs.js';
import { HANDED_BACK } from '../../src/domain/handoff.js';
import { NO_ANSWER_IN } from '../../src/engine/offline/compose.js';
import { DEFAULT_OFFLINE_MESSAGE, DEFAULT_WAITING_MESSAGE } from '../../src/settings/default-messages.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// The hub's own texts in a widget conversation (the hand-back, the default offline message) are
// said in the language its window last sent, by every path that writes them: the team's resolve,
// the timeouts, the visitor's "+", handoff turned off. An owner's own text stays as written.

const conversationId = (letter: string) => `wc_${letter.repeat(24)}`;
/** A minute after every due time of the default settings (waitMinutes 5, idleMinutes 30). */
const later = () => new Date(Date.now() + 60 * 60_000);

describe.each(storeTargets.filter((target) => target.available))('$name store: the hub’s texts in a widget visitor’s language', (target) => {
  let app: TestApp;
  let bot: string;

  beforeEach(async () => {
    app = await startApp(target, { trustProxy: true });
    bot = await createChatbotViaApi(app, 'Shop', 'The shop opens at nine in the morning.');
    await settings({ visibility: 'public', handoff: { enabled: true } });
  });
  afterEach(async () => {
    await app.close();
  });

  const settings = async (changes: Record<string, unknown>) => {
    expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, ...changes })).status).toBe(202);
  };
  const widget = (path: string) => `${app.origin}/widget/chatbots/${bot}${path}`;
  const post = async (url: string, body: object) => {
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
  };
  /** "Talk to a person" pressed in a window reading `lang`. */
  const askForPerson = (id: string, lang: string) => post(widget(`/conversations/${id}/handoff`), { lang });
  const widgetChat = (id: string, message: string, lang: string) => post(widget('/chat'), { conversationId: id, message, lang });
  const team = async (id: string, action: string, body?: unknown) => {
    const { status } = await call('POST', `${app.baseUrl}/chatbots/${bot}/conversations/${id}/handoff/${action}`, app.apiKey, body);
    expect(status).toBe(200);
  };
  const lastSaid = async (id: string) => (await app.store.conversations.find(bot, id))?.messages.at(-1);
  const tick = () => createHandoffTimer({ store: app.store, logger: pino({ level: 'silent' }), now: later }).tick();

  it('declines in the window’s language, a decline still (counted, and reviewed as unanswered)', async () => {
    const id = conversationId('z');
    await widgetChat(id, 'Verkaufen Sie Fahrräder?', 'de');
    expect(await lastSaid(id)).toMatchObject({ role: 'assistant', content: NO_ANSWER_IN.de, kind: 'decline' });
    let listed: unknown[] = [];
    for (let tries = 0; listed.length === 0 && tries < 50; tries += 1) {
      listed = ((await call('GET', `${app.baseUrl}/chatbots/${bot}/unanswered`, app.apiKey)).body as { data: unknown[] }).data;
      if (listed.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(listed).toMatchObject([{ question: 'Verkaufen Sie Fahrräder?' }]);
  });

  it('says the hand-back in the window’s language when the team resolves', async () => {
    const id = conversationId('a');
    await askForPerson(id, 'de');
    await team(id, 'resolve');
    expect(await lastSaid(id)).toMatchObject({ role: 'assistant', content: HANDED_BACK.de, kind: 'handoff' });
  });

  it('says the hand-back in it when the team went quiet, and the default offline message when nobody came', async () => {
    const idle = conversationId('b');
    const missed = conversationId('c');
    await askForPerson(idle, 'fr');
    await team(idle, 'messages', { name: 'Ada', text: 'Bonjour, Ada ici.' });
    await askForPerson(missed, 'it');
    expect(await tick()).toEqual(
      expect.arrayContaining([
        { chatbotId: bot, conversationId: idle, status: 'resolved' },
        { chatbotId: bot, conversationId: missed, status: 'missed' },
      ]),
    );
    expect(await lastSaid(idle)).toMatchObject({ content: HANDED_BACK.fr, kind: 'handoff' });
    expect(await lastSaid(missed)).toMatchObject({ content: DEFAULT_OFFLINE_MESSAGE.it, kind: 'handoff' });
  });

  it('keeps an offline message the owner wrote as written', async () => {
    await settings({ handoff: { offlineMessage: 'Wir sind gleich zurück.' } });
    const id = conversationId('d');
    await askForPerson(id, 'es');
    await tick();
    expect(await lastSaid(id)).toMatchObject({ content: 'Wir sind gleich zurück.' });
  });

  it('says the hand-back in it when the visitor leaves with “+”, and when handoff is turned off', async () => {
    const left = conversationId('e');
    const waiting = conversationId('f');
    await askForPerson(left, 'nl');
    await askForPerson(waiting, 'es');
    await post(widget(`/conversations/${left}/handoff/end`), {});
    expect(await lastSaid(left)).toMatchObject({ content: HANDED_BACK.nl, kind: 'handoff' });
    await settings({ handoff: { enabled: false } });
    expect(await lastSaid(waiting)).toMatchObject({ content: HANDED_BACK.es, kind: 'handoff' });
  });

  it('follows the language the window sent last, a message relayed to the team’s included', async () => {
    const id = conversationId('g');
    await widgetChat(id, 'When do you open?', 'en');
    await askForPerson(id, 'es');
    expect((await app.store.conversations.find(bot, id))?.messages.at(-1)?.content).toBe(DEFAULT_WAITING_MESSAGE.es);
    await widgetChat(id, 'Sind Sie da?', 'de');
    await team(id, 'resolve');
    expect(await lastSaid(id)).toMatchObject({ content: HANDED_BACK.de });
  });

  it('says the hub’s texts in English where the window never sent a language', async () => {
    const id = conversationId('h');
    await post(widget(`/conversations/${id}/handoff`), {});
    await team(id, 'resolve');
    expect(await lastSaid(id)).toMatchObject({ content: HANDED_BACK.en });
  });
});
