import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandoffTimer } from '../../jobs/handoffs.js';
import { loadConfig } from '../../src/config.js';
import { HANDED_BACK } from '../../src/domain/handoff.js';
import { DEFAULT_OFFLINE_MESSAGE, DEFAULT_WAITING_MESSAGE } from '../../src/settings/default-messages.js';
import { startHub, type Hub } from '../../src/hub.js';
import { ALLOWED_HOST, launchChromium, startHostSite, type HostSite } from './browser.js';

// Human handoff in the widget, end to end: real hubs as `npm start` runs them (two of them on
// one SQLite file where it matters, one restarted), host pages on another site, Debian's
// Chromium. The team's side is the API the Slack and Discord adapters call.

const SOURCE = 'Harbor Lights Bakery opens at seven in the morning on weekdays.';
const WAITING = 'Someone from the team will join you here.';
const OFFLINE = 'Nobody is in right now.';
const TALK = 'Talk to a person';
const silent = pino({ level: 'silent' });
const SHOTS = 'test-artifacts/widget';

let browser: Browser;
let directory: string;
let hubA: Hub;
let hubB: Hub | undefined;
let key: string;
let bot: string;
let site: HostSite;
let context: BrowserContext;

const startHubOn = (port = 0) =>
  startHub(loadConfig({ DATABASE_URL: `sqlite:${join(directory, 'hub.db')}`, PORT: String(port) }), silent);
const portOf = (hub: Hub) => (hub.server.address() as AddressInfo).port;
const originOf = (hub: Hub) => `http://127.0.0.1:${portOf(hub)}`;

async function api(path: string, body: unknown, hub: Hub = hubA): Promise<unknown> {
  const response = await fetch(`${originOf(hub)}/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as unknown;
  if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

const configure = (settings: Record<string, unknown>) => api('/update-chatbot-settings', { chatbotId: bot, ...settings });
const team = (conversationId: string, action: 'messages' | 'resolve', body?: unknown, hub?: Hub) =>
  api(`/chatbots/${bot}/conversations/${conversationId}/handoff/${action}`, body, hub);

beforeAll(async () => {
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser.close();
});

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'switchboard-handoff-'));
  hubA = await startHubOn();
  key = hubA.firstApiKey as string;
  bot = ((await api('/create-chatbot', { chatbotName: 'Harbor Lights', sourceText: SOURCE })) as { chatbotId: string }).chatbotId;
  await configure({
    visibility: 'public',
    initialMessages: ['Hello! Ask me about the bakery.'],
    styles: { autoOpenChatWindowAfter: 0 },
    handoff: { enabled: true, platform: 'slack', channelId: 'C1', waitingMessage: WAITING, offlineMessage: OFFLINE },
  });
  site = await startHostSite(originOf(hubA));
  context = await browser.newContext();
});
afterEach(async () => {
  await context.close();
  await site.close();
  await hubB?.close();
  hubB = undefined;
  await hubA.close();
  await rm(directory, { recursive: true, force: true });
});

type Visitor = { page: Page; frame: Frame; conversationId(): Promise<string> };

async function visit(): Promise<Visitor> {
  const page = await context.newPage();
  await page.goto(site.pageUrl(ALLOWED_HOST, bot));
  await page.getByRole('button', { name: /open chat/i }).click();
  const frame = await chatFrame(page);
  return {
    page,
    frame,
    conversationId: async () => (await page.evaluate((id) => localStorage.getItem(`switchboard:${id}:conversation`), bot)) as string,
  };
}

/** The chat window once it shows its message box (labelled in the window's language). */
async function chatFrame(page: Page, messageLabel = 'Message'): Promise<Frame> {
  const frame = await (await page.locator('switchboard-chat iframe').elementHandle())?.contentFrame();
  if (!frame) throw new Error('no chat frame');
  await frame.getByRole('textbox', { name: messageLabel }).waitFor();
  return frame;
}

const talkButton = (frame: Frame) => frame.getByRole('button', { name: TALK });
const status = (frame: Frame) => frame.getByRole('status').filter({ hasText: /\S/ });
/** The assistant's bubbles as [author or '', text], in order. */
const bubbles = (frame: Frame) =>
  frame.locator('.message.assistant').evaluateAll((nodes) =>
    nodes.map((node) => {
      const author = node.querySelector('.author');
      return [author?.textContent ?? '', author ? (author.nextSibling?.textContent ?? '') : (node.textContent ?? '')];
    }),
  );
const waitForBubble = (frame: Frame, text: string) => frame.locator('.message.assistant', { hasText: text }).last().waitFor();

async function send(frame: Frame, text: string): Promise<void> {
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send' }).click();
  await frame.locator('.message.user', { hasText: text }).waitFor();
  await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
  await frame.getByRole('button', { name: 'Send' }).and(frame.locator(':enabled')).waitFor();
}

/** The visitor, elsewhere on the page, comes back into the window: it takes the focus. */
async function comeBack({ page, frame }: Pick<Visitor, 'page' | 'frame'>): Promise<void> {
  await page.getByRole('heading', { name: 'Host page' }).click();
  await frame.getByRole('textbox', { name: 'Message' }).click();
}

/** The business erases the conversation (a person's request to be forgotten, say). */
async function erase(conversationId: string): Promise<void> {
  const response = await fetch(`${originOf(hubA)}/api/v1/chatbots/${bot}/conversations/${conversationId}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
}

/**
 * Sends `text` once on a connection that drops (the hub taking the message in first, or not),
 * then retries it from the notice that says so.
 */
async function sendDroppedThenRetry({ page, frame }: Pick<Visitor, 'page' | 'frame'>, text: string, takenIn: boolean): Promise<void> {
  let dropped = false;
  await page.context().route(/\/chat$/, async (route) => {
    if (dropped) return route.continue();
    dropped = true;
    if (takenIn) await route.fetch();
    await route.abort('connectionreset');
  });
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send' }).click();
  await frame.getByRole('button', { name: 'Retry' }).click();
  await frame.locator('.message.notice').waitFor({ state: 'detached' });
  await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
}

async function handOff(frame: Frame): Promise<void> {
  await talkButton(frame).click();
  await status(frame).filter({ hasText: 'Waiting for someone from the team…' }).waitFor();
}

describe('the button', () => {
  it('shows only when handoff is enabled and on request', async () => {
    const shown = async () => {
      const { page, frame } = await visit();
      const count = await talkButton(frame).count();
      await page.close();
      return count;
    };
    expect(await shown()).toBe(1);
    await configure({ handoff: { onRequest: false } });
    expect(await shown()).toBe(0);
    await configure({ handoff: { onRequest: true, enabled: false } });
    expect(await shown()).toBe(0);
  });
});

describe('a handed-off visitor', () => {
  it('sees the waiting message, the team’s replies live with their names, no bot answers meanwhile, and the hand-back', async () => {
    const { page, frame, conversationId } = await visit();
    await handOff(frame);
    expect(await frame.locator('.message.user').allTextContents()).toEqual([TALK]);
    expect(await bubbles(frame)).toEqual([['', 'Hello! Ask me about the bakery.'], ['', WAITING]]);
    expect(await talkButton(frame).count()).toBe(0);

    // Their messages while they wait are saved for the team, and the chatbot stays silent.
    await send(frame, 'When do you open?');
    expect(await bubbles(frame)).toEqual([['', 'Hello! Ask me about the bakery.'], ['', WAITING]]);

    const id = await conversationId();
    await team(id, 'messages', { name: 'Ada', text: 'Hi, Ada here. We open at seven.' });
    await waitForBubble(frame, 'Hi, Ada here.');
    await status(frame).filter({ hasText: 'Chatting with Ada' }).waitFor();
    await page.locator('switchboard-chat iframe').screenshot({ path: `${SHOTS}/handoff.png` });

    // A reload shows the same, from the history, and keeps listening.
    await page.reload();
    await page.getByRole('button', { name: /open chat/i }).click();
    const reloaded = await chatFrame(page);
    await status(reloaded).filter({ hasText: 'Chatting with Ada' }).waitFor();
    await team(id, 'messages', { name: 'Bo', text: 'Anything else?' });
    await waitForBubble(reloaded, 'Anything else?');

    await team(id, 'resolve');
    await waitForBubble(reloaded, HANDED_BACK.en);
    await talkButton(reloaded).waitFor();
    expect(await bubbles(reloaded)).toEqual([
      ['', 'Hello! Ask me about the bakery.'],
      ['', WAITING],
      ['Ada', 'Hi, Ada here. We open at seven.'],
      ['Bo', 'Anything else?'],
      ['', HANDED_BACK.en],
    ]);
    expect(await reloaded.locator('.message.user').allTextContents()).toEqual([TALK, 'When do you open?']);

    // The chatbot answers again.
    await send(reloaded, 'What time does the bakery open?');
    expect((await bubbles(reloaded)).at(-1)?.[1]).toContain('seven');
  });

  it('who asks in words, or is declined too often, gets the team’s replies live too', async () => {
    await configure({ handoff: { afterDeclines: 1 } });
    const { page, frame, conversationId } = await visit();
    await send(frame, 'Can I talk to a person?');
    expect((await bubbles(frame)).at(-1)).toEqual(['', WAITING]);
    await status(frame).filter({ hasText: 'Waiting for someone from the team…' }).waitFor();
    await team(await conversationId(), 'messages', { name: 'Ada', text: 'Ada here.' });
    await waitForBubble(frame, 'Ada here.');

    // A new conversation, whose first question the chatbot cannot answer.
    await team(await conversationId(), 'resolve');
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await send(frame, 'Do you sell bicycles?');
    expect((await bubbles(frame)).at(-1)?.[1]).toMatch(new RegExp(`\\n\\n${WAITING}$`));
    await status(frame).filter({ hasText: 'Waiting for someone from the team…' }).waitFor();
    const id = await page.evaluate((chatbotId) => localStorage.getItem(`switchboard:${chatbotId}:conversation`), bot);
    await team(id as string, 'messages', { name: 'Bo', text: 'Bo here.' });
    await waitForBubble(frame, 'Bo here.');
  });

  it('who writes a keyword is handed off, and sees the hand-back live once the team went quiet for idleMinutes', async () => {
    await configure({ handoff: { keywords: ['refund'], idleMinutes: 0.05 } });
    const { frame, conversationId } = await visit();
    await send(frame, 'I was promised refunds');
    expect((await bubbles(frame)).at(-1)).toEqual(['', WAITING]);
    await team(await conversationId(), 'messages', { name: 'Ada', text: 'Ada here, looking into it.' });
    await status(frame).filter({ hasText: 'Chatting with Ada' }).waitFor();

    // The clock job, as it runs once the team has been quiet long enough.
    const timer = createHandoffTimer({ store: hubA.store, logger: silent, now: () => new Date(Date.now() + 60_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: bot, conversationId: await conversationId(), status: 'resolved' }]);
    await waitForBubble(frame, HANDED_BACK.en);
    await talkButton(frame).waitFor();
    expect((await bubbles(frame)).slice(-2)).toEqual([['Ada', 'Ada here, looking into it.'], ['', HANDED_BACK.en]]);
  });

  it('sees the offline message and the details form again when nobody came in time', async () => {
    await configure({
      handoff: { waitMinutes: 0.05 },
      collectCustomerInformation: { title: 'Your details', email: { active: true, label: 'Email' } },
    });
    const { frame, conversationId } = await visit();
    await send(frame, 'When do you open?');
    await frame.getByRole('button', { name: 'No thanks' }).click();
    await handOff(frame);

    // The clock job, as it runs once the wait is over.
    const timer = createHandoffTimer({ store: hubA.store, logger: silent, now: () => new Date(Date.now() + 60_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: bot, conversationId: await conversationId(), status: 'missed' }]);
    await waitForBubble(frame, OFFLINE);
    await frame.getByRole('form', { name: 'Your details' }).waitFor();
    await talkButton(frame).waitFor();
    // The form asks for the details under its title: the offline message does not ask again.
    expect((await bubbles(frame)).at(-1)).toEqual(['', OFFLINE]);
  });

  it('who starts a new conversation while the team has theirs ends its handoff, leaving the team no visitor who is gone', async () => {
    // Found auditing the widget: "+" left the old request pending in the team's inbox until it
    // timed out, for a visitor who had moved on.
    const openHandoffs = async () => {
      const listed = await fetch(`${originOf(hubA)}/api/v1/get-conversations?chatbotId=${bot}&handoffStatus=pending,active`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      return ((await listed.json()) as { data: { id: string }[] }).data.map((conversation) => conversation.id);
    };
    const { frame, conversationId } = await visit();
    await handOff(frame);
    const waiting = await conversationId();
    expect(await openHandoffs()).toEqual([waiting]);
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(openHandoffs).toEqual([]);
    expect((await hubA.store.handoffs.find(bot, waiting))?.status).toBe('resolved');
    await talkButton(frame).waitFor();
    expect(await status(frame).count()).toBe(0);

    // One a team member took ends too; the new conversation goes on with the chatbot.
    await handOff(frame);
    const taken = await conversationId();
    expect(taken).not.toBe(waiting);
    await team(taken, 'messages', { name: 'Ada', text: 'Ada here.' });
    await waitForBubble(frame, 'Ada here.');
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(openHandoffs).toEqual([]);
    expect((await hubA.store.handoffs.find(bot, taken))?.status).toBe('resolved');
    await send(frame, 'What time does the bakery open?');
    expect((await bubbles(frame)).at(-1)?.[1]).toContain('seven');

    // Only a widget conversation the visitor holds: another's id is not found.
    const end = await fetch(`${originOf(hubA)}/widget/chatbots/${bot}/conversations/wc_${'e'.repeat(24)}/handoff/end`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(end.status).toBe(404);
  });

  it('whose chatbot’s owner turns handoff off is told at once that the chatbot answers again', async () => {
    const { frame } = await visit();
    await handOff(frame);
    await configure({ handoff: { enabled: false } });
    await waitForBubble(frame, HANDED_BACK.en);
    await expect.poll(() => status(frame).count()).toBe(0);
    await send(frame, 'What time does the bakery open?');
    expect((await bubbles(frame)).at(-1)?.[1]).toContain('seven');

    // The window was served with the button: pressed, it says the team takes no conversations, and goes.
    await talkButton(frame).click();
    expect(await frame.getByRole('alert').textContent()).toBe('The team is not taking conversations in this chat right now.');
    await expect.poll(() => talkButton(frame).count()).toBe(0);
  });

  it('reads the default waiting message in the widget’s language, and the owner’s own as written', async () => {
    // Found auditing the widget: the default was English for every visitor, the widget around it German.
    await configure({ handoff: { waitingMessage: DEFAULT_WAITING_MESSAGE.en } });
    const page = await context.newPage();
    const open = async () => {
      await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'de'));
      await page.getByRole('button', { name: 'Chat mit Harbor Lights öffnen' }).click();
      const frame = await (await page.locator('switchboard-chat iframe').elementHandle())?.contentFrame();
      if (!frame) throw new Error('no chat frame');
      await frame.getByRole('textbox', { name: 'Nachricht' }).waitFor();
      return frame;
    };
    const waiting = (frame: Frame) => status(frame).filter({ hasText: 'Wir verbinden Sie mit jemandem aus dem Team…' });
    let frame = await open();
    await frame.getByRole('button', { name: 'Mit einer Person sprechen' }).click();
    await waiting(frame).waitFor();
    expect((await bubbles(frame)).at(-1)).toEqual(['', DEFAULT_WAITING_MESSAGE.de]);

    // Asked in words in a new conversation: the same, and the window knows it is waiting.
    await frame.getByRole('button', { name: 'Neue Unterhaltung' }).click();
    await frame.getByRole('textbox', { name: 'Nachricht' }).fill('Kann ich mit einem Mitarbeiter sprechen?');
    await frame.getByRole('button', { name: 'Senden' }).click();
    await waitForBubble(frame, DEFAULT_WAITING_MESSAGE.de);
    await waiting(frame).waitFor();

    // The owner's own words stay as they wrote them.
    await configure({ handoff: { waitingMessage: WAITING } });
    frame = await open();
    await frame.getByRole('button', { name: 'Neue Unterhaltung' }).click();
    await frame.getByRole('button', { name: 'Mit einer Person sprechen' }).click();
    await waiting(frame).waitFor();
    expect((await bubbles(frame)).at(-1)).toEqual(['', WAITING]);
  });

  it('reads the hand-back and the default offline message in the widget’s language', async () => {
    // Found auditing the widget: the window German, the hub's texts after a handoff English.
    await configure({ handoff: { offlineMessage: DEFAULT_OFFLINE_MESSAGE.en, waitMinutes: 0.05 } });
    const page = await context.newPage();
    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'de'));
    await page.getByRole('button', { name: 'Chat mit Harbor Lights öffnen' }).click();
    const frame = await chatFrame(page, 'Nachricht');
    const conversationId = async () => (await page.evaluate((id) => localStorage.getItem(`switchboard:${id}:conversation`), bot)) as string;
    const talk = frame.getByRole('button', { name: 'Mit einer Person sprechen' });

    await talk.click();
    await team(await conversationId(), 'resolve');
    await waitForBubble(frame, HANDED_BACK.de);
    await talk.waitFor();

    await talk.click();
    const timer = createHandoffTimer({ store: hubA.store, logger: silent, now: () => new Date(Date.now() + 60_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: bot, conversationId: await conversationId(), status: 'missed' }]);
    await waitForBubble(frame, DEFAULT_OFFLINE_MESSAGE.de);
    expect((await bubbles(frame)).slice(-3)).toEqual([['', HANDED_BACK.de], ['', WAITING], ['', DEFAULT_OFFLINE_MESSAGE.de]]);
  });

  it('reads an Arabic team reply and its author right to left, each line from the right', async () => {
    // Found auditing the widget: the reply's text was an inline run in a left-to-right bubble, so
    // its wrapped lines began at the left, ragged on the side an Arabic reader starts from.
    const { frame, conversationId } = await visit();
    await handOff(frame);
    const reply = 'مرحبا، أنا سارة من فريق المخبز. سأتحقق من طلبك الآن، هل يمكنك إعطائي رقم الطلب من فضلك؟';
    await team(await conversationId(), 'messages', { name: 'سارة', text: reply });
    await waitForBubble(frame, 'سأتحقق');
    // How far each line of the author and of the reply is from the bubble's right edge.
    const gaps = await frame.locator('.message.human').evaluate((bubble) => {
      const right = bubble.getBoundingClientRect().right - parseFloat(getComputedStyle(bubble).paddingRight);
      return [...bubble.children].map((part) => {
        const range = document.createRange();
        range.selectNodeContents(part);
        const lineEnds = new Map<number, number>();
        for (const run of range.getClientRects()) lineEnds.set(Math.round(run.top), Math.max(lineEnds.get(Math.round(run.top)) ?? 0, run.right));
        return [...lineEnds.values()].map((end) => Math.round(right - end));
      });
    });
    const [author = [], text = []] = gaps;
    expect(text.length).toBeGreaterThan(1);
    expect([...author, ...text].every((gap) => gap <= 1)).toBe(true);
  });

  it('sees no empty bubble for a waiting or offline message the owner left empty, live or after a reload', async () => {
    // Found auditing the widget: an empty offline message showed as a bubble of "…", as if the
    // chatbot were typing for good (the saved empty message, streamed and in the history).
    await configure({
      handoff: { waitMinutes: 0.05, waitingMessage: '', offlineMessage: '' },
      collectCustomerInformation: { title: 'Your details', email: { active: true, label: 'Email' } },
    });
    const { page, frame, conversationId } = await visit();
    await send(frame, 'Can I talk to a person?');
    await status(frame).filter({ hasText: 'Waiting for someone from the team…' }).waitFor();
    const timer = createHandoffTimer({ store: hubA.store, logger: silent, now: () => new Date(Date.now() + 60_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: bot, conversationId: await conversationId(), status: 'missed' }]);
    await frame.getByRole('form', { name: 'Your details' }).waitFor();
    await talkButton(frame).waitFor();
    expect(await bubbles(frame)).toEqual([['', 'Hello! Ask me about the bakery.']]);

    await page.reload();
    await page.getByRole('button', { name: /open chat/i }).click();
    const reloaded = await chatFrame(page);
    await reloaded.locator('.message.user', { hasText: 'Can I talk to a person?' }).waitFor();
    expect(await bubbles(reloaded)).toEqual([['', 'Hello! Ask me about the bakery.']]);
  });

  it('with two tabs open, sees in the other one what this one did, in order, once they come back to it', async () => {
    // Found as an online shop's support team on its busiest day: a visitor asked for a person in
    // one tab and went on in another, which showed neither the request nor Ada's reply, and then
    // put the visitor's next message above them.
    const first = await visit();
    await send(first.frame, 'When do you open?');
    const second = await visit();
    await second.frame.locator('.message.user', { hasText: 'When do you open?' }).waitFor();
    await handOff(first.frame);
    await team(await first.conversationId(), 'messages', { name: 'Ada', text: 'Ada here, what can I do?' });
    await waitForBubble(first.frame, 'Ada here, what can I do?');

    // Back in the second tab, into its window.
    await second.page.bringToFront();
    await comeBack(second);
    await waitForBubble(second.frame, 'Ada here, what can I do?');
    await status(second.frame).filter({ hasText: 'Chatting with Ada' }).waitFor();
    await send(second.frame, 'Where is my parcel?');
    await team(await first.conversationId(), 'messages', { name: 'Ada', text: 'On its way.' });
    await waitForBubble(second.frame, 'On its way.');
    expect(await second.frame.locator('.message.user').allTextContents()).toEqual(['When do you open?', TALK, 'Where is my parcel?']);
    expect((await bubbles(second.frame)).filter(([author]) => author)).toEqual([
      ['Ada', 'Ada here, what can I do?'],
      ['Ada', 'On its way.'],
    ]);
  });

  it('with two tabs following the team, sees in each what the other one wrote, once they come back to it', async () => {
    // Found auditing the widget: a tab following the team never showed what the visitor wrote
    // meanwhile in their other tab (its stream carries the team's side alone), even when they
    // came back to it, so Ada's next reply answered a message it did not show.
    await configure({ collectCustomerInformation: { title: 'Your details', email: { active: true, label: 'Email' } } });
    const first = await visit();
    await send(first.frame, 'When do you open?');
    await handOff(first.frame);
    await send(first.frame, 'Are you there?');
    const id = await first.conversationId();
    const history = (page: Page) => page.waitForResponse((response) => response.url().endsWith(`/conversations/${id}`));

    // Back into the first tab's window, with nothing new but its own message: it stays as it is
    // (the details form offered after the first reply is still there).
    let read = history(first.page);
    await comeBack(first);
    await read;
    await team(id, 'messages', { name: 'Ada', text: 'Ada here.' });
    await waitForBubble(first.frame, 'Ada here.');
    expect(await first.frame.getByRole('form', { name: 'Your details' }).count()).toBe(1);

    const second = await visit();
    await status(second.frame).filter({ hasText: 'Chatting with Ada' }).waitFor();
    await send(second.frame, 'It is about my parcel.');

    // Back in the first tab, into its window.
    await first.page.bringToFront();
    read = history(first.page);
    await comeBack(first);
    await read;
    await team(id, 'messages', { name: 'Ada', text: 'On its way.' });
    await waitForBubble(first.frame, 'On its way.');
    expect(await first.frame.locator('.message.user').allTextContents()).toEqual([
      'When do you open?',
      TALK,
      'Are you there?',
      'It is about my parcel.',
    ]);
    expect((await bubbles(first.frame)).filter(([author]) => author)).toEqual([
      ['Ada', 'Ada here.'],
      ['Ada', 'On its way.'],
    ]);
  });

  it('keeps a message sent while it was reading the conversation on coming back to it', async () => {
    // The read answers what the hub had before the message: shown afresh from it, the window
    // dropped the message it had just sent, the team's stream never bringing it back.
    const visitor = await visit();
    await handOff(visitor.frame);
    const id = await visitor.conversationId();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route(
      (url) => url.pathname.endsWith(`/conversations/${id}`),
      async (route) => {
        const response = await route.fetch();
        await released;
        await route.fulfill({ response });
      },
    );
    const read = visitor.page.waitForResponse((response) => response.url().endsWith(`/conversations/${id}`));
    await comeBack(visitor);
    await send(visitor.frame, 'Hello? Anyone?');
    release();
    await read;
    await team(id, 'messages', { name: 'Ada', text: 'Ada here.' });
    await waitForBubble(visitor.frame, 'Ada here.');
    expect(await visitor.frame.locator('.message.user').allTextContents()).toEqual([TALK, 'Hello? Anyone?']);
  });

  it('shows a conversation erased while the team had it no more once its visitor comes back to it, with its button again', async () => {
    // Found auditing the widget: the window went on showing the erased conversation and
    // "Chatting with Ada" for good, without its button, and the next message was saved under the
    // erased conversation's id.
    const visitor = await visit();
    const { frame, conversationId } = visitor;
    await handOff(frame);
    const erased = await conversationId();
    await team(erased, 'messages', { name: 'Ada', text: 'Ada here.' });
    await waitForBubble(frame, 'Ada here.');
    await erase(erased);

    await comeBack(visitor);
    await talkButton(frame).waitFor();
    expect(await bubbles(frame)).toEqual([['', 'Hello! Ask me about the bakery.']]);
    expect(await status(frame).count()).toBe(0);
    await expect.poll(conversationId).not.toBe(erased);
    await send(frame, 'Where is my parcel?');
    expect(await hubA.store.conversations.find(bot, erased)).toBeUndefined();
  });

  it('shows a conversation the business erased no more once its visitor comes back to it, and goes on in a new one', async () => {
    const visitor = await visit();
    const { frame, conversationId } = visitor;
    await send(frame, 'I am Ada: when do you open?');
    const erased = await conversationId();
    await erase(erased);

    await comeBack(visitor);
    await expect.poll(() => frame.locator('.message.user').count()).toBe(0);
    expect(await bubbles(frame)).toEqual([['', 'Hello! Ask me about the bakery.']]);
    await expect.poll(conversationId).not.toBe(erased);
    await send(frame, 'Where is my parcel?');
    const fresh = await hubA.store.conversations.find(bot, await conversationId());
    expect(fresh?.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['Where is my parcel?']);
    expect(await hubA.store.conversations.find(bot, erased)).toBeUndefined();
  });

  it('whose answer was lost on the way back, and who retries, reaches the team once', async () => {
    // Found as an online shop's support team on its busiest day: on a dropping phone network the
    // hub took a waiting visitor's message in, the answer never arrived, and Retry sent it again,
    // so the team read it twice.
    const { page, frame, conversationId } = await visit();
    await handOff(frame);
    const id = await conversationId();
    // The hub takes the message in; its answer is lost.
    await sendDroppedThenRetry({ page, frame }, 'My order 1099 is missing', true);
    await team(id, 'messages', { name: 'Ada', text: 'Ada here, looking for 1099.' });
    await waitForBubble(frame, 'Ada here, looking for 1099.');
    expect(await frame.locator('.message.user').allTextContents()).toEqual([TALK, 'My order 1099 is missing']);
    // What the team has: the message once.
    const listed = await fetch(`${originOf(hubA)}/api/v1/get-conversations?chatbotId=${bot}`, { headers: { Authorization: `Bearer ${key}` } });
    const { data } = (await listed.json()) as { data: { id: string; messages: { role: string; content: string }[] }[] };
    const saved = data.find((conversation) => conversation.id === id);
    expect(saved?.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([TALK, 'My order 1099 is missing']);
  });

  it('who retries a message that never reached the hub reaches the team with it, though they wrote the same before', async () => {
    // Found auditing the widget: Retry took the earlier "Hello?" the team already had for the one
    // that never arrived, and sent nothing.
    const { page, frame, conversationId } = await visit();
    await handOff(frame);
    const id = await conversationId();
    await send(frame, 'Hello?');
    await sendDroppedThenRetry({ page, frame }, 'Hello?', false);
    await expect
      .poll(async () => (await hubA.store.conversations.find(bot, id))?.messages.filter((message) => message.role === 'user').map((message) => message.content))
      .toEqual([TALK, 'Hello?', 'Hello?']);
  });

  it('never receives the replies of another visitor’s conversation', async () => {
    const first = await visit();
    // Another browser: another visitor, another conversation.
    const other = await browser.newContext();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(site.pageUrl(ALLOWED_HOST, bot));
      await otherPage.getByRole('button', { name: /open chat/i }).click();
      const otherFrame = await chatFrame(otherPage);
      const otherId = (await otherPage.evaluate((id) => localStorage.getItem(`switchboard:${id}:conversation`), bot)) as string;
      await handOff(first.frame);
      await handOff(otherFrame);

      await team(await first.conversationId(), 'messages', { name: 'Ada', text: 'For you only.' });
      await waitForBubble(first.frame, 'For you only.');
      await team(otherId, 'messages', { name: 'Bo', text: 'For them.' });
      // Had the first reply leaked, it would have come before this one, written after it.
      await waitForBubble(otherFrame, 'For them.');
      expect((await bubbles(otherFrame)).filter(([author]) => author)).toEqual([['Bo', 'For them.']]);
      expect((await bubbles(first.frame)).filter(([author]) => author)).toEqual([['Ada', 'For you only.']]);
    } finally {
      await other.close();
    }
  });
});

describe('across hub instances', () => {
  it('shows a reply taken in by another hub on the same database', async () => {
    hubB = await startHubOn();
    const { frame, conversationId } = await visit();
    await handOff(frame);
    await team(await conversationId(), 'messages', { name: 'Ada', text: 'Hello from the other hub.' }, hubB);
    await waitForBubble(frame, 'Hello from the other hub.');
    expect((await bubbles(frame)).at(-1)).toEqual(['Ada', 'Hello from the other hub.']);
  });

  it('reconnects after its hub restarts and shows the reply sent meanwhile exactly once', async () => {
    hubB = await startHubOn();
    const { frame, conversationId } = await visit();
    await handOff(frame);
    const id = await conversationId();
    await team(id, 'messages', { name: 'Ada', text: 'One.' }, hubB);
    await waitForBubble(frame, 'One.');

    const port = portOf(hubA);
    await hubA.close();
    await team(id, 'messages', { name: 'Ada', text: 'Two, while your hub was down.' }, hubB);
    hubA = await startHubOn(port);

    await waitForBubble(frame, 'Two, while your hub was down.');
    await team(id, 'messages', { name: 'Ada', text: 'Three.' }, hubA);
    // A repeat of the second would come before the third, written after it.
    await waitForBubble(frame, 'Three.');
    expect((await bubbles(frame)).filter(([author]) => author)).toEqual([
      ['Ada', 'One.'],
      ['Ada', 'Two, while your hub was down.'],
      ['Ada', 'Three.'],
    ]);
  });

  it('keeps reopening its stream however long a proxy answers 502 while the hub restarts, and shows the reply sent meanwhile', async () => {
    // Found as an online shop's support team on its busiest day: a visitor waiting for the team
    // behind a proxy stayed "Waiting…" for good once the hub had been away about a minute and a
    // half, the team's replies never shown, as the window had stopped reopening its stream.
    await context.clock.install();
    const { frame, conversationId } = await visit();
    await handOff(frame);
    let refused = 0;
    await context.route(/\/events(\?|$)/, (route) => {
      refused += 1;
      return route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
    });
    const port = portOf(hubA);
    await hubA.close();
    hubA = await startHubOn(port);
    // Time runs on the fake clock, moved on in steps until the browser has done what is awaited: a
    // refusal's retry may be set just after a step, so a single step of the longest wait can miss it.
    const stepUntil = (done: () => boolean | Promise<boolean>) =>
      expect.poll(async () => (await done()) || (await context.clock.runFor(5_000), false), { timeout: 10_000 }).toBe(true);
    // Twelve refusals in a row, the browser waiting longer each time.
    for (let attempt = 1; attempt <= 12; attempt += 1) await stepUntil(() => refused >= attempt);
    await context.unroute(/\/events(\?|$)/);
    await team(await conversationId(), 'messages', { name: 'Ada', text: 'Sorry for the wait, Ada here.' });
    const reply = frame.locator('.message.assistant', { hasText: 'Sorry for the wait, Ada here.' });
    await stepUntil(async () => (await reply.count()) > 0);
    await status(frame).filter({ hasText: 'Chatting with Ada' }).waitFor();
  });
});
