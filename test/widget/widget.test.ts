import { mkdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, DENIED, IMAGES, INVALID, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import { THUMB_PATH } from '../../adapters/thumb-icon.js';
import { ALLOWED_HOST, buttonNames, launchChromium, OTHER_HOST, startHostSite, type HostSite } from './browser.js';

// The website widget end to end: a real hub, host pages on two hostnames, Debian's Chromium.

const SOURCE = [
  'Harbor Lights Bakery opens at seven in the morning on weekdays.',
  'Our help page is https://example.org/help and you can also write <img src=x onerror="window.__pwned=1"> to us, not javascript:alert(1).',
  'Cakes can be delivered anywhere in Portsmouth for a flat fee of 6 pounds.',
].join('\n\n');
const SHOTS = 'test-artifacts/widget';

const sqlite = storeTargets[0];
if (!sqlite) throw new Error('no sqlite target');

let browser: Browser;
let app: TestApp;
let site: HostSite;
let context: BrowserContext;
let page: Page;
let bot: string;

beforeAll(async () => {
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser.close();
});

beforeEach(async () => {
  app = await startApp(sqlite);
  site = await startHostSite(app.origin);
  bot = await createChatbotViaApi(app, 'Harbor Lights', SOURCE);
  await configure({
    visibility: 'public',
    initialMessages: ['Hello! Ask me about the bakery.'],
    suggestedMessages: ['When do you open?'],
    styles: { autoOpenChatWindowAfter: 0, displayName: 'Harbor Helper', buttonColor: '#112233', userMessageColor: '#aa3300' },
  });
  context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
  await site.close();
  await app.close();
});

async function configure(settings: Record<string, unknown>, chatbotId = bot): Promise<void> {
  const { status } = await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, ...settings });
  expect(status).toBe(202);
}

async function upload(path: string, part: string): Promise<void> {
  const form = new FormData();
  form.append('chatbotId', bot);
  form.append(part, new Blob([IMAGES.png]), 'image.png');
  const response = await fetch(`${app.baseUrl}/${path}`, { method: 'POST', headers: { Authorization: `Bearer ${app.apiKey}` }, body: form });
  expect(response.status).toBe(200);
}

const launcher = () => page.getByRole('button', { name: /open chat/i });

async function openWidget(host = ALLOWED_HOST): Promise<Frame> {
  await page.goto(site.pageUrl(host, bot));
  await launcher().click();
  return chatFrame();
}

/** The chat window on `on`, once its message field (labelled `messageLabel`) is there. */
async function chatFrame(on = page, messageLabel = 'Message'): Promise<Frame> {
  const handle = await on.locator('switchboard-chat iframe').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('no chat frame');
  await frame.getByRole('textbox', { name: messageLabel }).waitFor();
  return frame;
}

async function send(frame: Frame, text: string): Promise<void> {
  await frame.getByRole('textbox', { name: 'Message' }).fill(text);
  await frame.getByRole('button', { name: 'Send' }).click();
  await frame.locator('.message.assistant:not([aria-busy]), .message.notice').last().waitFor();
  await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
}

/** A POST through node:http, which (unlike fetch) sends the Origin header it is given; answers the status. */
function post(url: string, body: object, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', reject);
    request.end(JSON.stringify(body));
  });
}

const replies = (frame: Frame) => frame.locator('.message.assistant').allTextContents();

async function conversations(): Promise<{ id: string; source: string; messages: { content: string }[] }[]> {
  const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
  return (body as { data: { id: string; source: string; messages: { content: string }[] }[] }).data;
}

describe('embedding', () => {
  it('adds one button in the chatbot colour, on its side, leaving the page alone; clicking opens the window', async () => {
    await page.goto(site.pageUrl(ALLOWED_HOST, 'no-script-here'));
    const globalsBefore = await page.evaluate(() => Object.keys(window));
    const ownBefore = await page.locator('#own').evaluate((node) => getComputedStyle(node).cssText || getComputedStyle(node).position);
    // A first visit's conversation is new: asking the hub for its history would be a 404 in its log.
    // Nor is a message posted to the window before its page loads (the browser warns of it).
    const complaints: string[] = [];
    page.on('console', (message) => {
      if (/status of 404|postMessage/.test(message.text())) complaints.push(`${message.text()} ${message.location().url}`);
    });

    await page.goto(site.pageUrl(ALLOWED_HOST, bot));
    const button = launcher();
    await button.waitFor();
    const style = await button.evaluate((node) => {
      const computed = getComputedStyle(node);
      return { background: computed.backgroundColor, color: computed.color, position: computed.position };
    });
    expect(style).toEqual({ background: 'rgb(17, 34, 51)', color: 'rgb(255, 255, 255)', position: 'fixed' });
    const box = await button.boundingBox();
    expect(box && box.x > 1200 - 100).toBe(true);
    expect(await page.evaluate((before) => Object.keys(window).filter((key) => !before.includes(key)), globalsBefore)).toEqual([]);
    expect(await page.locator('#own').evaluate((node) => getComputedStyle(node).cssText || getComputedStyle(node).position)).toBe(ownBefore);
    expect(await page.locator('body > *').count()).toBe(4);

    await button.click();
    const frame = await chatFrame();
    expect(await frame.locator('h1').textContent()).toBe('Harbor Helper');
    expect(await replies(frame)).toEqual(['Hello! Ask me about the bakery.']);
    await page.waitForLoadState('networkidle');
    expect(complaints).toEqual([]);
  });

  it('aligns left and opens by itself after autoOpenChatWindowAfter seconds, once per visitor', async () => {
    await configure({ styles: { alignChatButton: 'left', autoOpenChatWindowAfter: 1 } });
    await upload('upload-chatbot-icon', 'chatbotIconFile');
    await page.goto(site.pageUrl(ALLOWED_HOST, bot));
    await expect
      .poll(() => page.locator('switchboard-chat .launcher img').evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth))
      .toBe(1);
    const box = await page.locator('switchboard-chat .launcher').boundingBox();
    expect(box && box.x < 100).toBe(true);
    await chatFrame();
    await page.reload();
    await page.getByRole('button', { name: /open chat/i }).waitFor();
    await page.waitForTimeout(1_500);
    expect(await page.locator('switchboard-chat iframe').count()).toBe(0);
  });

  it('serves a small embed script and cached window assets', async () => {
    const embed = await fetch(`${app.origin}/widget/embed.js`);
    const script = Buffer.from(await embed.arrayBuffer());
    expect(gzipSync(script).length).toBeLessThanOrEqual(15 * 1024);
    const etag = embed.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await fetch(`${app.origin}/widget/embed.js`, { headers: { 'If-None-Match': etag ?? '', 'Cache-Control': 'max-age=0' } })).status).toBe(304);

    const html = await (await fetch(`${app.origin}/widget/chatbots/${bot}`)).text();
    const assets = [...html.matchAll(/\/widget\/assets\/(window\.[\w-]+\.(?:js|css))/g)].map((match) => match[1]);
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const response = await fetch(`${app.origin}/widget/assets/${asset}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${app.origin}/widget/assets/window.nothash.js`)).status).toBe(404);
  });

  it('is also a full-page chat that continues from its own storage, asking the hub for nothing it lacks', async () => {
    // Browsers ask a full page without an icon for /favicon.ico: a 404 in the hub's log each visit.
    const missing: string[] = [];
    page.on('console', (message) => {
      if (/status of 404/.test(message.text())) missing.push(message.text());
    });
    await page.goto(`${app.origin}/widget/chatbots/${bot}`);
    await page.waitForLoadState('networkidle');
    expect(missing).toEqual([]);
    const frame = page.mainFrame();
    await send(frame, 'When do you open?');
    await page.reload();
    await frame.locator('.message.user').waitFor();
    expect(await frame.locator('.message.user').allTextContents()).toEqual(['When do you open?']);
  });

  it('takes the focus to its message field as a page of its own, but not on a touch screen, where a keyboard would cover the greeting', async () => {
    const focused = (on: Page) => on.getByLabel('Message', { exact: true }).evaluate((field) => field === document.activeElement);
    // The window's script has run once the page has loaded (a deferred script runs before the load event).
    await page.goto(`${app.origin}/widget/chatbots/${bot}`);
    expect(await focused(page)).toBe(true);
    const phone = await browser.newContext({ viewport: { width: 390, height: 800 }, hasTouch: true });
    const touched = await phone.newPage();
    await touched.goto(`${app.origin}/widget/chatbots/${bot}`);
    expect(await focused(touched)).toBe(false);
    await phone.close();
  });
});

describe('the window', () => {
  it('shows the profile picture, suggested messages that send themselves, user bubbles in their colour, and a streamed reply', async () => {
    await upload('upload-chatbot-profile-picture', 'profilePictureFile');
    const frame = await openWidget();
    expect(await frame.locator('header img.avatar').evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth)).toBe(1);
    await frame.getByRole('button', { name: 'When do you open?' }).click();
    await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect(await frame.locator('.message.user').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(170, 51, 0)');
    expect((await replies(frame)).at(-1)).toContain('seven in the morning');
    expect(await frame.getByRole('button', { name: 'When do you open?' }).count()).toBe(0);
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    await page.screenshot({ path: `${SHOTS}/light.png` });
  });

  it('shows its close button only where the embed script can close it', async () => {
    // Found framing Harbour House's chat directly on a contact page: "×" did nothing.
    await page.goto(site.framingUrl(ALLOWED_HOST, bot));
    const direct = await (await page.locator('iframe#direct').elementHandle())?.contentFrame();
    if (!direct) throw new Error('no direct frame');
    await direct.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await direct.getByRole('button', { name: 'Close chat' }).count()).toBe(0);
    expect(await direct.getByRole('button', { name: 'New conversation' }).count()).toBe(1);

    const frame = await openWidget();
    await frame.getByRole('button', { name: 'Close chat' }).click();
    await page.getByRole('button', { name: /open chat/i }).waitFor();
  });

  it('writes on the chatbot colours in black or white, whichever reads, as the console preview shows them', async () => {
    // Found setting a hotel's sand yellow: the visitor's bubbles and Send were white on yellow.
    await configure({ styles: { buttonColor: '#F4D35E', userMessageColor: '#F4D35E' } });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const colour = (node: Element) => getComputedStyle(node).color;
    const button = page.locator('switchboard-chat .launcher');
    expect(await frame.locator('.message.user').evaluate(colour)).toBe('rgb(0, 0, 0)');
    expect(await frame.getByRole('button', { name: 'Send' }).evaluate(colour)).toBe('rgb(0, 0, 0)');
    expect(await button.evaluate(colour)).toBe('rgb(0, 0, 0)');

    await configure({ styles: { buttonColor: '#112233', userMessageColor: '#aa3300' } });
    await page.reload();
    await launcher().click();
    const dark = await chatFrame();
    expect(await dark.locator('.message.user').evaluate(colour)).toBe('rgb(255, 255, 255)');
    expect(await dark.getByRole('button', { name: 'Send' }).evaluate(colour)).toBe('rgb(255, 255, 255)');
    expect(await button.evaluate(colour)).toBe('rgb(255, 255, 255)');
  });

  it('renders training text and names as text, with only http(s) links, safely opened', async () => {
    const name = '</script><b>Bold</b><img src=x onerror="window.__pwned=1">';
    await configure({ styles: { displayName: name } });
    const frame = await openWidget();
    expect(await frame.locator('h1').textContent()).toBe(name);
    expect(await frame.title()).toBe(name);
    await send(frame, 'Where is the help page to write to?');
    const reply = frame.locator('.message.assistant').last();
    expect(await reply.textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await frame.locator('.log img').count()).toBe(0);
    expect(await frame.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    const links = await reply.locator('a').evaluateAll((anchors: HTMLAnchorElement[]) =>
      anchors.map((anchor) => ({ href: anchor.href, rel: anchor.rel, target: anchor.target })),
    );
    expect(links).toEqual([{ href: 'https://example.org/help', rel: 'noopener noreferrer', target: '_blank' }]);
  });

  it('writes each message and what is typed in its own direction: Arabic right to left, Spanish left to right', async () => {
    await configure({ initialMessages: ['¡Hola! ¿En qué puedo ayudarte?'] });
    const frame = await openWidget();
    const direction = (locator: ReturnType<Frame['locator']>) => locator.evaluate((node) => getComputedStyle(node).direction);
    const message = frame.getByRole('textbox', { name: 'Message' });
    await message.fill('مرحبا، هل لديكم خبز؟');
    expect(await direction(message)).toBe('rtl');
    await send(frame, 'مرحبا، هل لديكم خبز؟');
    expect(await direction(frame.locator('.message.user'))).toBe('rtl');
    expect(await direction(frame.locator('.message.assistant').first())).toBe('ltr');
  });

  it('speaks the page’s language, else the browser’s, else English, in its own words and its lang', async () => {
    await configure({ handoff: { enabled: true, onRequest: true } });
    const words = async (frame: Frame) => ({
      lang: await frame.locator('html').getAttribute('lang'),
      send: await frame.locator('button.send').textContent(),
      message: await frame.locator('input.input').getAttribute('aria-label'),
      talk: await frame.locator('.link-button').first().textContent(),
    });
    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'es-ES'));
    await page.getByRole('button', { name: 'Abrir el chat con Harbor Helper' }).click();
    expect(await words(await chatFrame(page, 'Mensaje'))).toEqual({ lang: 'es', send: 'Enviar', message: 'Mensaje', talk: 'Hablar con una persona' });
    expect(await page.getByRole('button', { name: 'Cerrar el chat con Harbor Helper' }).count()).toBe(1);
    // The request is saved, and shown, in the words the button showed.
    const spanish = await chatFrame(page, 'Mensaje');
    await spanish.getByRole('button', { name: 'Hablar con una persona' }).click();
    await spanish.getByText('Esperando a alguien del equipo…').waitFor();
    expect(await spanish.locator('.message.user').allTextContents()).toEqual(['Hablar con una persona']);

    // A page in a language the widget does not speak: the visitor's browser decides.
    const german = await browser.newContext({ locale: 'de-DE' });
    try {
      const visitor = await german.newPage();
      await visitor.goto(site.pageUrl(ALLOWED_HOST, bot, 'fi'));
      await visitor.getByRole('button', { name: 'Chat mit Harbor Helper öffnen' }).click();
      expect(await words(await chatFrame(visitor, 'Nachricht'))).toEqual({ lang: 'de', send: 'Senden', message: 'Nachricht', talk: 'Mit einer Person sprechen' });
    } finally {
      await german.close();
    }

    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'fi'));
    await launcher().click();
    expect(await words(await chatFrame())).toEqual({ lang: 'en', send: 'Send', message: 'Message', talk: 'Talk to a person' });
  });

  it('greets and asks for details in the window’s language while the owner keeps the defaults, and saves the greeting it showed', async () => {
    // Found auditing the widget: a German visitor read every text of the hub in German but the greeting and the details form.
    const defaults = defaultSettings('Harbor Lights');
    await configure({
      initialMessages: defaults.initialMessages,
      collectCustomerInformation: { ...defaults.collectCustomerInformation, name: { active: true }, email: { active: true } },
    });
    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'de'));
    await page.getByRole('button', { name: 'Chat mit Harbor Helper öffnen' }).click();
    const frame = await chatFrame(page, 'Nachricht');
    expect(await replies(frame)).toEqual(['Hallo! Wobei kann ich Ihnen helfen?']);
    await frame.getByRole('textbox', { name: 'Nachricht' }).fill('Hallo');
    await frame.getByRole('button', { name: 'Senden' }).click();
    const form = frame.getByRole('form', { name: 'Sagen Sie uns, wie wir Sie erreichen können' });
    await form.waitFor();
    expect(await form.locator('h2').textContent()).toBe('Sagen Sie uns, wie wir Sie erreichen können');
    expect(await form.locator('label').allTextContents()).toEqual(['Name', 'E-Mail']);
    expect(await form.getByRole('button').allTextContents()).toEqual(['Absenden', 'Nein, danke']);
    // A greeting answered with the greeting: the one the visitor was shown, on screen and saved.
    expect(await replies(frame)).toEqual(['Hallo! Wobei kann ich Ihnen helfen?', 'Hallo! Wobei kann ich Ihnen helfen?']);
    expect((await conversations())[0]?.messages.map((message) => message.content)).toEqual(['Hallo', 'Hallo! Wobei kann ich Ihnen helfen?']);

    // The owner's own texts are shown as written, in every language.
    await configure({
      initialMessages: ['Hello! Ask me about the bakery.', defaults.initialMessages[0]],
      collectCustomerInformation: { title: 'Stay in touch', email: { label: 'Your email' } },
    });
    await page.reload();
    await page.getByRole('button', { name: 'Chat mit Harbor Helper öffnen' }).click();
    const again = await chatFrame(page, 'Nachricht');
    await again.getByRole('button', { name: 'Neue Unterhaltung' }).click();
    expect(await replies(again)).toEqual(['Hello! Ask me about the bakery.', 'Hallo! Wobei kann ich Ihnen helfen?']);
    await again.getByRole('textbox', { name: 'Nachricht' }).fill('When do you open?');
    await again.getByRole('button', { name: 'Senden' }).click();
    const own = again.getByRole('form', { name: 'Stay in touch' });
    await own.waitFor();
    expect(await own.locator('label').allTextContents()).toEqual(['Name', 'Your email']);
  });

  it('says how much is left near the length limit, and refuses to send a message over it without cutting it', async () => {
    // Found auditing the widget: the field cut a message over 4,000 characters silently.
    const frame = await openWidget();
    const input = frame.getByRole('textbox', { name: 'Message' });
    const note = frame.locator('#length-note');
    await input.fill('a'.repeat(100));
    expect(await note.textContent()).toBe('');
    await input.fill('a'.repeat(3_700));
    expect(await note.textContent()).toBe('300 characters left');

    const chats: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/chat')) chats.push(request.url());
    });
    const long = `When do you open? ${'a'.repeat(4_100)}`;
    await input.fill(long);
    expect(await input.inputValue()).toBe(long);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await frame.getByRole('button', { name: 'Send' }).click();
    expect(await frame.getByRole('alert').textContent()).toBe('118 characters too many: a message holds at most 4,000. Shorten it to send it.');
    expect(await input.inputValue()).toBe(long);
    expect(await frame.locator('.message.user').count()).toBe(0);
    expect(chats).toEqual([]);

    // Shortened to the limit, it is sent whole.
    const fits = long.slice(0, 4_000);
    await input.fill(fits);
    expect(await input.getAttribute('aria-invalid')).toBe('false');
    expect(await frame.getByRole('alert').count()).toBe(0);
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('.message.user').waitFor();
    await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect(await note.textContent()).toBe('');
    const [saved] = await conversations();
    expect(saved?.messages[0]?.content).toBe(fits);
  });

  it('shows a visible error with a retry when the hub cannot be reached', async () => {
    const frame = await openWidget();
    await context.route('**/widget/chatbots/*/chat', (route) => route.abort('connectionrefused'));
    await send(frame, 'When do you open?');
    const alert = frame.getByRole('alert');
    expect(await alert.textContent()).toContain('could not be reached');
    await context.unroute('**/widget/chatbots/*/chat');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect((await replies(frame)).at(-1)).toContain('seven in the morning');
    expect(await frame.getByRole('alert').count()).toBe(0);
  });

  it('uses the dark theme and goes full screen at 360 px', async () => {
    await configure({ styles: { theme: 'dark' } });
    let frame = await openWidget();
    await send(frame, 'When do you open?');
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 24, 29)');
    expect(await frame.locator('.message.assistant').first().evaluate((node) => getComputedStyle(node).color)).toBe('rgb(238, 240, 243)');
    await page.screenshot({ path: `${SHOTS}/dark.png` });

    await page.setViewportSize({ width: 360, height: 740 });
    frame = await chatFrame();
    const panel = await page.locator('switchboard-chat .panel').boundingBox();
    expect(panel).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    const input = await frame.getByRole('textbox', { name: 'Message' }).boundingBox();
    expect(input && input.x + input.width <= 360).toBe(true);
    await page.screenshot({ path: `${SHOTS}/narrow-360.png` });
  });
  it('shows on a phone a whole name, and thumbs big enough to tap', async () => {
    // Found walking the widget at 360 px: "Harbor Lights Bakery He…", and 👍/👎 of 26 by 22 px.
    await configure({ styles: { displayName: 'Harbor Lights Bakery Helper' } });
    await page.setViewportSize({ width: 360, height: 740 });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const title = frame.getByRole('heading', { name: 'Harbor Lights Bakery Helper' });
    expect(await title.evaluate((node) => node.scrollWidth <= node.clientWidth && node.scrollHeight <= node.clientHeight)).toBe(true);
    for (const thumb of await frame.getByRole('group', { name: 'Rate this answer' }).getByRole('button').all()) {
      const box = await thumb.boundingBox();
      // WCAG 2.2's least target size.
      expect(box && box.width >= 24 && box.height >= 24).toBe(true);
    }
  });
});

describe('conversations', () => {
  it('saves the conversation as Widget or Iframe, continues it after a reload, and starts a new one on request', async () => {
    let frame = await openWidget();
    await send(frame, 'When do you open?');
    await page.reload();
    await launcher().click();
    frame = await chatFrame();
    await frame.locator('.message.user').waitFor();
    await send(frame, 'Do you deliver cakes?');
    expect(await frame.locator('.message.user').allTextContents()).toEqual(['When do you open?', 'Do you deliver cakes?']);
    let saved = await conversations();
    expect(saved).toHaveLength(1);
    expect(saved[0]?.source).toBe('Widget or Iframe');
    expect(saved[0]?.messages.map((message) => message.content)).toHaveLength(4);

    await frame.getByRole('button', { name: 'New conversation' }).click();
    expect(await frame.locator('.message').allTextContents()).toEqual(['Hello! Ask me about the bakery.']);
    await send(frame, 'Do you deliver cakes?');
    await page.reload();
    await launcher().click();
    frame = await chatFrame();
    await frame.locator('.message.user').waitFor();
    expect(await frame.locator('.message.user').allTextContents()).toEqual(['Do you deliver cakes?']);
    saved = await conversations();
    expect(saved).toHaveLength(2);
    expect(new Set(saved.map((conversation) => conversation.source))).toEqual(new Set(['Widget or Iframe']));
  });

  it('shows a returning visitor their history before what they send next, however slowly it comes', async () => {
    // Found as an online shop's support team on its busiest day: a visitor back on a slow phone
    // network asked at once, and saw their question above their history, and again inside it.
    let frame = await openWidget();
    await send(frame, 'When do you open?');
    let arrive!: () => void;
    const arriving = new Promise<void>((resolve) => (arrive = resolve));
    await context.route(/\/conversations\/wc_[^/?]+$/, async (route) => {
      await arriving;
      await route.continue();
    });
    await page.reload();
    await launcher().click();
    frame = await chatFrame();
    const input = frame.getByRole('textbox', { name: 'Message' });
    await input.fill('Do you deliver cakes?');
    // Enter, as Playwright would wait to click a Send marked unavailable.
    await input.press('Enter');
    // Held, in the field, while the history is on its way.
    expect(await input.inputValue()).toBe('Do you deliver cakes?');
    expect(await frame.getByRole('button', { name: 'Send' }).getAttribute('aria-disabled')).toBe('true');
    arrive();
    await frame.locator('.message.user', { hasText: 'When do you open?' }).waitFor();
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('.message.user', { hasText: 'Do you deliver cakes?' }).waitFor();
    await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect(await frame.locator('.message.user').allTextContents()).toEqual(['When do you open?', 'Do you deliver cakes?']);
    expect(await frame.locator('.message.assistant').count()).toBe(3);
  });

  it('spends one message credit per reply and says so past the quota', async () => {
    const owner = await app.addAccount('tight', { messagesPerMonth: 1, maxChatbots: 5 });
    bot = await createChatbotViaApi(app, 'Tight', SOURCE, owner.apiKey);
    const { status } = await call('POST', `${app.baseUrl}/update-chatbot-settings`, owner.apiKey, {
      chatbotId: bot,
      visibility: 'public',
      styles: { autoOpenChatWindowAfter: 0 },
    });
    expect(status).toBe(202);
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    await send(frame, 'Do you deliver cakes?');
    expect(await frame.getByRole('alert').textContent()).toContain('cannot answer more messages');
  });

  it('never shows a conversation of another source', async () => {
    await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      messages: [{ role: 'user', content: 'secret question' }],
      conversationId: 'wc_aaaaaaaaaaaaaaaaaaaaaaaa',
    });
    const response = await fetch(`${app.origin}/widget/chatbots/${bot}/conversations/wc_aaaaaaaaaaaaaaaaaaaaaaaa`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(NOT_FOUND);
  });
});

describe('feedback', () => {
  type Saved = { id: string; source: string; messages: { id: string; role: string; content: string; feedback?: string }[] };
  const answers = async () => ((await conversations()) as Saved[]).flatMap((conversation) => conversation.messages.filter((message) => message.role === 'assistant'));
  const rate = (conversationId: string, messageId: string, body: object, chatbotId = bot) =>
    call('POST', `${app.origin}/widget/chatbots/${chatbotId}/conversations/${conversationId}/messages/${messageId}/feedback`, undefined, body);

  it('puts 👍/👎 under each answer, pressed as the visitor rated it; the other thumb replaces the rating, as the API shows', async () => {
    // Found auditing the widget: the API, Slack and Discord took 👍/👎 on answers, the widget had none.
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const rating = frame.getByRole('group', { name: 'Rate this answer' });
    expect(await rating.count()).toBe(1);
    const helpful = rating.getByRole('button', { name: 'Helpful', exact: true });
    const notHelpful = rating.getByRole('button', { name: 'Not helpful' });
    expect([await helpful.getAttribute('aria-pressed'), await notHelpful.getAttribute('aria-pressed')]).toEqual(['false', 'false']);

    await helpful.click();
    await expect.poll(() => helpful.getAttribute('aria-pressed')).toBe('true');
    expect(await notHelpful.getAttribute('aria-pressed')).toBe('false');
    expect((await answers()).map((message) => message.feedback)).toEqual(['up']);

    await notHelpful.click();
    await expect.poll(() => notHelpful.getAttribute('aria-pressed')).toBe('true');
    expect(await helpful.getAttribute('aria-pressed')).toBe('false');
    expect((await answers()).map((message) => message.feedback)).toEqual(['down']);
    // Counted where Review counts every rating: the current one only.
    const { body } = await call('GET', `${app.baseUrl}/chatbots/${bot}/analytics`, app.apiKey);
    expect((body as { data: { totals: { feedback: unknown } } }).data.totals.feedback).toEqual({ up: 0, down: 1 });

    // A returning visitor sees their rating; the greeting, never saved, has none.
    await page.reload();
    await launcher().click();
    const again = await chatFrame();
    await again.locator('.message.user').waitFor();
    const shown = again.getByRole('group', { name: 'Rate this answer' });
    expect(await shown.count()).toBe(1);
    expect(await shown.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('draws the thumbs as icons, not emoji, keeping their names and pressed state', async () => {
    // Found on a screen reader and three platforms: "thumbs up sign, Helpful", and a different thumb on each.
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const rating = frame.getByRole('group', { name: 'Rate this answer' });
    const helpful = rating.getByRole('button', { name: 'Helpful', exact: true });
    const notHelpful = rating.getByRole('button', { name: 'Not helpful' });
    for (const thumb of [helpful, notHelpful]) {
      const drawn = await thumb.evaluate((node) => ({
        text: node.textContent,
        icons: [...node.querySelectorAll('svg')].map((icon) => ({
          hidden: icon.getAttribute('aria-hidden'),
          width: icon.getBoundingClientRect().width,
          // The console's transcript draws the same thumb (manage.test).
          path: icon.querySelector('path')?.getAttribute('d'),
        })),
      }));
      expect(drawn.text).not.toMatch(/\p{Extended_Pictographic}/u);
      expect(drawn).toEqual({ text: '', icons: [{ hidden: 'true', width: 18, path: THUMB_PATH }] });
    }
    await notHelpful.click();
    await expect.poll(() => notHelpful.getAttribute('aria-pressed')).toBe('true');
    expect(await helpful.getAttribute('aria-pressed')).toBe('false');
  });

  it('says the ipLimitMessage beside the thumbs when the hub refuses more ratings from the address', async () => {
    // Found auditing the widget's limits: over ipLimit a rating said only that it could not be saved.
    await configure({ ipLimit: 1, ipLimitTimeframe: 3600, ipLimitMessage: 'Slow down, please.' });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const rating = frame.getByRole('group', { name: 'Rate this answer' });
    const helpful = rating.getByRole('button', { name: 'Helpful', exact: true });
    await helpful.click();
    await expect.poll(() => helpful.getAttribute('aria-pressed')).toBe('true');
    // The address's one rating for the timeframe is spent: the next is refused, and nothing changes.
    await rating.getByRole('button', { name: 'Not helpful' }).click();
    await expect.poll(() => rating.getByRole('status').textContent()).toBe('Slow down, please.');
    expect(await helpful.getAttribute('aria-pressed')).toBe('true');
    expect((await answers()).map((message) => message.feedback)).toEqual(['up']);
  });

  it('rates only answers of the conversation the visitor holds, never another conversation’s, chatbot’s or source’s', async () => {
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const [mine] = (await conversations()) as Saved[];
    const answer = mine?.messages.find((message) => message.role === 'assistant');
    const question = mine?.messages.find((message) => message.role === 'user');
    if (!mine || !answer || !question) throw new Error('no saved answer');

    // An API conversation of the same chatbot, and another public chatbot's widget conversation.
    const api = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
      chatbotId: bot,
      messages: [{ role: 'user', content: 'When do you open?' }],
      conversationId: 'wc_cccccccccccccccccccccccc',
    });
    expect(api.status).toBe(200);
    const apiAnswer = ((await conversations()) as Saved[]).find((conversation) => conversation.source === 'API')?.messages.at(-1);
    const other = await createChatbotViaApi(app, 'Other', SOURCE);
    await configure({ visibility: 'public' }, other);
    expect((await rate(mine.id, answer.id, { feedback: 'up' }, other)).status).toBe(404);

    expect(await rate('wc_dddddddddddddddddddddddd', answer.id, { feedback: 'up' })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await rate(mine.id, apiAnswer?.id ?? '', { feedback: 'up' })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await rate('wc_cccccccccccccccccccccccc', apiAnswer?.id ?? '', { feedback: 'up' })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await rate(mine.id, question.id, { feedback: 'up' })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await rate(mine.id, answer.id, { feedback: 'meh' })).toEqual({ status: 400, body: INVALID });
    expect(((await conversations()) as Saved[]).flatMap((conversation) => conversation.messages).some((message) => message.feedback)).toBe(false);

    expect(await rate(mine.id, answer.id, { feedback: 'up' })).toEqual({ status: 200, body: { id: answer.id, feedback: 'up' } });
    await configure({ onlyAllowOnAddedDomains: true, domains: [ALLOWED_HOST] });
    expect(await rate(mine.id, answer.id, { feedback: 'down', host: `http://${OTHER_HOST}` })).toEqual({ status: 403, body: DENIED });
    await configure({ visibility: 'private' });
    expect(await rate(mine.id, answer.id, { feedback: 'down', host: `http://${ALLOWED_HOST}` })).toEqual({ status: 404, body: NOT_FOUND });
    expect((await answers()).filter((message) => message.feedback).map((message) => message.feedback)).toEqual(['up']);
  });
});

describe('leads', () => {
  it('offers the form after the first reply, checks it in the browser and on the server, and stores one lead', async () => {
    await configure({
      collectCustomerInformation: { title: 'Stay in touch', name: { active: true, label: 'Your name' }, email: { active: true, label: 'Your email' } },
    });
    const frame = await openWidget();
    expect(await frame.getByRole('form', { name: 'Stay in touch' }).count()).toBe(0);
    await send(frame, 'When do you open?');
    expect((await replies(frame)).at(-1)).not.toContain('Stay in touch');
    const form = frame.getByRole('form', { name: 'Stay in touch' });
    await form.getByLabel('Your name').fill('Ada Lovelace');
    await form.getByLabel('Your email').fill('not-an-email');
    await form.getByRole('button', { name: 'Submit' }).click();
    expect(await form.getByLabel('Your email').evaluate((node: HTMLInputElement) => node.validity.valid)).toBe(false);
    await form.getByLabel('Your email').fill('ada@example.com');
    await form.getByRole('button', { name: 'Submit' }).click();
    await frame.getByText('Thank you!').waitFor();

    const { body } = await call('GET', `${app.baseUrl}/get-leads?chatbotId=${bot}`, app.apiKey);
    const leads = (body as { collectedCustomers: { name: string; email: string }[] }).collectedCustomers;
    expect(leads.map(({ name, email }) => ({ name, email }))).toEqual([{ name: 'Ada Lovelace', email: 'ada@example.com' }]);

    const [conversation] = await conversations();
    const bad = await call('POST', `${app.origin}/widget/chatbots/${bot}/leads`, undefined, {
      conversationId: conversation?.id,
      email: 'not-an-email',
    });
    expect(bad).toEqual({ status: 400, body: INVALID });
  });

  it('checks a phone number in the browser by the rule the server applies', async () => {
    // An invalid pattern (Chromium compiles it with the v flag) is ignored, so any text passed.
    await configure({ collectCustomerInformation: { title: 'Stay in touch', phone: { active: true, label: 'Your phone' } } });
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    const phone = frame.getByRole('form', { name: 'Stay in touch' }).getByLabel('Your phone');
    const valid = async (value: string) => {
      await phone.fill(value);
      return phone.evaluate((node: HTMLInputElement) => node.validity.valid);
    };
    expect(await valid('call me tomorrow')).toBe(false);
    expect(await valid('+44 (0)7700 900-123')).toBe(true);
    expect(messages.filter((text) => text.includes('pattern'))).toEqual([]);
  });

  it('says what an email or phone field typed wrong takes, in the window’s language', async () => {
    // Found walking the form in German: "Please match the requested format.", in the browser's language, naming no format.
    await configure({ collectCustomerInformation: { title: 'Stay in touch', email: { active: true, label: 'Your email' }, phone: { active: true, label: 'Your phone' } } });
    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'de'));
    await page.getByRole('button', { name: 'Chat mit Harbor Helper öffnen' }).click();
    const frame = await chatFrame(page, 'Nachricht');
    await frame.getByRole('textbox', { name: 'Nachricht' }).fill('When do you open?');
    await frame.getByRole('button', { name: 'Senden' }).click();
    const form = frame.getByRole('form', { name: 'Stay in touch' });
    const refusal = async (label: string, value: string) => {
      await form.getByLabel(label).fill(value);
      return form.getByLabel(label).evaluate((node: HTMLInputElement) => node.validationMessage);
    };
    expect(await refusal('Your email', 'zoe-at-example')).toBe('Bitte geben Sie eine E-Mail-Adresse an, etwa name@beispiel.de.');
    expect(await refusal('Your email', 'zoe@example.de')).toBe('');
    expect(await refusal('Your phone', 'call me')).toBe('Bitte geben Sie eine Telefonnummer an: 6 bis 20 Ziffern, Leerzeichen und + ( ) . -');
    expect(await refusal('Your phone', '+49 30 1234567')).toBe('');
    await form.getByLabel('Your phone').fill('call me');
    await form.getByRole('button', { name: 'Absenden' }).click();
    expect(await frame.getByText('Vielen Dank!').count()).toBe(0);
  });

  it('says the ipLimitMessage when the hub refuses more details from the address', async () => {
    await configure({
      ipLimit: 1,
      ipLimitTimeframe: 3600,
      ipLimitMessage: 'Slow down, please.',
      collectCustomerInformation: { title: 'Stay in touch', email: { active: true, label: 'Your email' } },
    });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    // The address's one set of details for the timeframe, left by another way.
    const first = await frame.evaluate(async () => {
      const conversationId = new URLSearchParams(location.hash.slice(1)).get('conversation');
      const response = await fetch(`${location.pathname}/leads`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ conversationId, email: 'ada@example.com', host: location.ancestorOrigins[0] }),
      });
      return response.status;
    });
    expect(first).toBe(200);
    const form = frame.getByRole('form', { name: 'Stay in touch' });
    await form.getByLabel('Your email').fill('grace@example.com');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Slow down, please.');
  });

  it('offers no form when only the name is active, which could never be sent', async () => {
    await configure({ collectCustomerInformation: { title: 'Stay in touch', name: { active: true, label: 'Your name' } } });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    expect(await frame.getByRole('form', { name: 'Stay in touch' }).count()).toBe(0);
    expect((await replies(frame)).at(-1)).not.toContain('please share');
  });

  it('lets the visitor dismiss the form', async () => {
    await configure({ collectCustomerInformation: { title: 'Stay in touch', phone: { active: true, label: 'Phone' } } });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    await frame.getByRole('button', { name: 'No thanks' }).click();
    expect(await frame.getByRole('form', { name: 'Stay in touch' }).count()).toBe(0);
  });
});

describe('access rules', () => {
  it('answers 404 on every widget route of a private chatbot, and the embed shows nothing', async () => {
    await configure({ visibility: 'private' });
    const configLoaded = page.waitForResponse((response) => response.url().includes('/config'));
    // The page's developer is told why nothing shows: a new chatbot is private.
    const warned = page.waitForEvent('console', (message) => message.type() === 'warning' && message.text().startsWith('Switchboard:'));
    await page.goto(site.pageUrl(ALLOWED_HOST, bot));
    expect((await configLoaded).status()).toBe(404);
    expect((await warned).text()).toBe(`Switchboard: chatbot ${bot} is not public (or does not exist), so no chat button is shown. Set its visibility to public to go live.`);
    expect(await page.locator('switchboard-chat').count()).toBe(0);
    for (const [method, path, body] of [
      ['GET', `/widget/chatbots/${bot}`],
      ['GET', `/widget/chatbots/${bot}/config`],
      ['GET', `/widget/chatbots/${bot}/conversations/wc_aaaaaaaaaaaaaaaaaaaaaaaa`],
      ['POST', `/widget/chatbots/${bot}/chat`, { conversationId: 'wc_aaaaaaaaaaaaaaaaaaaaaaaa', message: 'hi' }],
      ['POST', `/widget/chatbots/${bot}/leads`, { conversationId: 'wc_aaaaaaaaaaaaaaaaaaaaaaaa', email: 'a@b.co' }],
    ] as const) {
      expect(await call(method, `${app.origin}${path}`, undefined, body)).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('chats only on listed domains (and their subdomains), refusing elsewhere with a clear message', async () => {
    await configure({ onlyAllowOnAddedDomains: true, domains: [`https://${ALLOWED_HOST}/shop`] });
    const window = await (await fetch(`${app.origin}/widget/chatbots/${bot}`)).headers.get('content-security-policy');
    const ancestors = window?.split('; ').find((directive) => directive.startsWith('frame-ancestors '))?.split(' ').slice(1);
    expect(ancestors?.sort()).toEqual(
      [`http://${ALLOWED_HOST}:*`, `https://${ALLOWED_HOST}:*`, `http://*.${ALLOWED_HOST}:*`, `https://*.${ALLOWED_HOST}:*`].sort(),
    );

    const frame = await openWidget(ALLOWED_HOST);
    await send(frame, 'When do you open?');
    expect((await replies(frame)).at(-1)).toContain('seven in the morning');

    await page.goto(site.pageUrl(OTHER_HOST, bot));
    await launcher().click();
    expect(await page.locator('switchboard-chat .refused').textContent()).toBe('This chat is not available on this website.');
    expect(await page.locator('switchboard-chat iframe').count()).toBe(0);

    // Framed by hand on the other site: the browser refuses to render it (frame-ancestors).
    await page.goto(site.framingUrl(OTHER_HOST, bot));
    const framed = await (await page.locator('#direct').elementHandle())?.contentFrame();
    expect(await framed?.locator('[role="log"]').count()).toBe(0);

    // Opened directly, the page refuses too, and so do calls that claim another site.
    await page.goto(`${app.origin}/widget/chatbots/${bot}?host=http://${ALLOWED_HOST}`);
    expect(await page.locator('.refused').textContent()).toBe('This chat is not available on this website.');
    const chat = (body: object, headers: Record<string, string> = {}) =>
      post(`${app.origin}/widget/chatbots/${bot}/chat`, { conversationId: 'wc_bbbbbbbbbbbbbbbbbbbbbbbb', message: 'hi', ...body }, headers);
    expect(await chat({ host: `http://${OTHER_HOST}` })).toBe(403);
    expect(await chat({})).toBe(403);
    expect(await chat({ host: `http://${ALLOWED_HOST}` }, { Origin: `http://${OTHER_HOST}` })).toBe(403);
    expect(await chat({ host: `http://shop.${ALLOWED_HOST}` }, { Origin: app.origin })).toBe(200);
    expect(await chat({ host: `http://not${ALLOWED_HOST}` })).toBe(403);
  });

  it('lets a visitor on a phone close the refusal, and never opens it by itself', async () => {
    // Found in a walk-through: on a page not listed, at phone width, the refusal covered the whole
    // page and the launcher with nothing to close it (a phone has no Escape key), and
    // autoOpenChatWindowAfter put it there unasked.
    await configure({ onlyAllowOnAddedDomains: true, domains: [ALLOWED_HOST], styles: { autoOpenChatWindowAfter: 1 } });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.clock.install();
    await page.goto(site.pageUrl(OTHER_HOST, bot));
    await launcher().waitFor();
    await page.clock.runFor(5_000);
    expect(await page.locator('switchboard-chat .panel').isHidden()).toBe(true);

    await launcher().click();
    expect(await page.locator('switchboard-chat .panel').boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await page.getByRole('button', { name: 'Close chat', exact: true }).click();
    expect(await page.locator('switchboard-chat .panel').isHidden()).toBe(true);
    expect(await launcher().isVisible()).toBe(true);
  });

  it('limits messages per visitor IP with ipLimitMessage and 429, counted in the store', async () => {
    await configure({ ipLimit: 2, ipLimitTimeframe: 3600, ipLimitMessage: 'Slow down, please.' });
    const frame = await openWidget();
    await send(frame, 'When do you open?');
    await send(frame, 'Do you deliver cakes?');
    const limited = page.waitForResponse((response) => response.url().endsWith('/chat'));
    await send(frame, 'And on weekends?');
    expect((await limited).status()).toBe(429);
    expect(await frame.getByRole('alert').textContent()).toBe('Slow down, please.');
    const response = await fetch(`${app.origin}/widget/chatbots/${bot}/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.9' },
      body: JSON.stringify({ conversationId: 'wc_bbbbbbbbbbbbbbbbbbbbbbbb', message: 'hi' }),
    });
    // Without TRUST_PROXY the header is ignored: still the same visitor.
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ message: 'Slow down, please.' });
  });
  it('says the default ipLimitMessage in the window’s language, an owner’s as written', async () => {
    // Found walking the widget in Spanish: every notice was Spanish but this one.
    await configure({ ipLimit: 1, ipLimitTimeframe: 3600, ipLimitMessage: defaultSettings('Harbor Lights').ipLimitMessage });
    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'es'));
    await page.getByRole('button', { name: 'Abrir el chat con Harbor Helper' }).click();
    const frame = await chatFrame(page, 'Mensaje');
    const ask = async (text: string) => {
      await frame.getByRole('textbox', { name: 'Mensaje' }).fill(text);
      await frame.getByRole('button', { name: 'Enviar' }).click();
      await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    };
    await ask('When do you open?');
    await ask('Do you deliver cakes?');
    expect(await frame.getByRole('alert').textContent()).toBe('Demasiados mensajes seguidos. Inténtalo de nuevo más tarde.');
    await configure({ ipLimitMessage: 'Slow down, please.' });
    await ask('And on weekends?');
    expect(await frame.getByRole('alert').last().textContent()).toBe('Slow down, please.');
  });
});

describe('keyboard and ARIA', () => {
  it('opens with the keyboard, moves focus in, sends with Enter and closes with Esc', async () => {
    await page.goto(site.pageUrl(ALLOWED_HOST, bot));
    await launcher().waitFor();
    await launcher().focus();
    await page.keyboard.press('Enter');
    const frame = await chatFrame();
    await expect.poll(() => frame.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    await page.keyboard.type('When do you open?');
    await page.keyboard.press('Enter');
    await frame.locator('.message.user').waitFor();
    await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect(await frame.getByRole('log').getByText('seven in the morning').count()).toBe(1);
    expect(await frame.getByRole('button', { name: 'Send' }).count()).toBe(1);

    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('switchboard-chat .panel').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-label'))).toBe(
      'Open chat with Harbor Helper',
    );
  });

  it('keeps Tab within the window where it covers the page, going round its controls', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(site.pageUrl(ALLOWED_HOST, bot));
    await launcher().focus();
    await page.keyboard.press('Enter');
    const frame = await chatFrame();
    const focused = async () => {
      const inFrame = await frame.evaluate(() => (document.hasFocus() ? document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent : null));
      return inFrame ?? page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName);
    };
    await expect.poll(focused).toBe('Message');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Send');
    // Past the last control: round to the first, not to the page's own button hidden beneath.
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('New conversation');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(focused).toBe('Send');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-label'))).toBe('Open chat with Harbor Helper');
  });

  /** Opens the window from the keyboard, on a page `width` px wide. */
  async function openByKeyboard(width: number, host = ALLOWED_HOST): Promise<void> {
    await page.setViewportSize({ width, height: 740 });
    await page.goto(site.pageUrl(host, bot));
    await launcher().focus();
    await page.keyboard.press('Enter');
  }
  /** The label of what has the focus in the embed script's shadow root (the launcher, the refusal's close button). */
  const shadowFocus = () => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-label'));
  const dialog = () => page.getByRole('dialog', { name: 'Chat with Harbor Helper' });

  it('is a modal dialog where it covers the page (360 px), and beside the page (1024 px) is not', async () => {
    // Found with a screen reader at phone width: the window covered the page, yet the page beneath was read as if there.
    await openByKeyboard(360);
    let frame = await chatFrame();
    expect(await dialog().getAttribute('aria-modal')).toBe('true');
    /** Where the host page's focus is: the widget's element (its window or an edge of it), or the page's own. */
    const hostFocus = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName.toLowerCase());
    // Round its controls both ways, never out to the page's own button.
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      await expect.poll(() => frame.evaluate(() => document.hasFocus())).toBe(true);
      expect(await hostFocus()).toBe('switchboard-chat');
    }
    await page.keyboard.press('Escape');
    await expect.poll(shadowFocus).toBe('Open chat with Harbor Helper');
    expect(await dialog().count()).toBe(0);

    await page.setViewportSize({ width: 1024, height: 768 });
    await page.keyboard.press('Enter');
    frame = await chatFrame();
    expect(await dialog().getAttribute('aria-modal')).toBeNull();
    // Shift+Tab from its first control goes on to the page: the launcher, then the page's own button.
    await frame.getByRole('button', { name: 'New conversation' }).focus();
    await page.keyboard.press('Shift+Tab');
    await expect.poll(shadowFocus).toBe('Close chat with Harbor Helper');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(hostFocus).toBe('own');
    // Narrowed while open, it covers the page, and is modal again.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => dialog().getAttribute('aria-modal')).toBe('true');
  });

  it('makes the launcher and the host page beneath the modal window inert, and gives them back as the page had them', async () => {
    // Found with Chromium's accessibility tree at phone width: the page beneath the aria-modal window was listed beside it.
    const inert = () => page.locator('switchboard-chat .launcher').evaluate((node) => (node as HTMLElement).inert);
    const readButtons = () => buttonNames(page);
    /** The host page's own elements that are inert, and those hidden with aria-hidden. */
    const pageHidden = () =>
      page.evaluate(() => {
        const named = (selector: string) => [...document.querySelectorAll(selector)].map((node) => node.id || node.tagName.toLowerCase());
        return { inert: named('body > [inert]'), ariaHidden: named('[aria-hidden]') };
      });
    const asThePageHasThem = { inert: ['own-inert'], ariaHidden: ['own-hidden'] };
    await openByKeyboard(360);
    await chatFrame();
    await page.keyboard.press('Escape');
    await expect.poll(shadowFocus).toBe('Open chat with Harbor Helper');
    // The page's own: an aside it made inert and a paragraph it hid from assistive tech, which stay so.
    await page.evaluate(() => {
      const aside = Object.assign(document.createElement('aside'), { id: 'own-inert', inert: true, textContent: 'Inert of its own' });
      const hidden = Object.assign(document.createElement('p'), { id: 'own-hidden', textContent: 'Hidden of its own' });
      hidden.setAttribute('aria-hidden', 'true');
      document.body.prepend(aside, hidden);
    });
    expect(await pageHidden()).toEqual(asThePageHasThem);
    await page.keyboard.press('Enter');
    await chatFrame();
    expect(await dialog().getAttribute('aria-modal')).toBe('true');
    expect(await inert()).toBe(true);
    const names = await readButtons();
    expect(names).not.toContain('Close chat with Harbor Helper');
    expect(names).not.toContain('Own button');
    expect((await pageHidden()).inert.sort()).toEqual(['h1', 'own', 'own-hidden', 'own-inert', 'script']);
    // What the page adds while the window is open (a banner of its own) is beneath it too.
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('button'), { id: 'late', textContent: 'Late button' })));
    await expect.poll(readButtons).not.toContain('Late button');
    await page.keyboard.press('Escape');
    await expect.poll(shadowFocus).toBe('Open chat with Harbor Helper');
    expect(await inert()).toBe(false);
    expect(await pageHidden()).toEqual(asThePageHasThem);
    expect(await readButtons()).toEqual(expect.arrayContaining(['Own button', 'Late button']));

    await page.keyboard.press('Enter');
    await chatFrame();
    await expect.poll(inert).toBe(true);
    expect(await readButtons()).not.toContain('Own button');
    // Widened while open, the window sits beside the page: the launcher closes it again, and the page is there.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(inert).toBe(false);
    await expect.poll(readButtons).toContain('Close chat with Harbor Helper');
    expect(await readButtons()).toContain('Own button');
    expect(await pageHidden()).toEqual(asThePageHasThem);
  });

  it('keeps Tab on the refusal’s close button where it covers the page', async () => {
    await configure({ onlyAllowOnAddedDomains: true, domains: [ALLOWED_HOST] });
    await openByKeyboard(360, OTHER_HOST);
    expect(await dialog().getAttribute('aria-modal')).toBe('true');
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      await expect.poll(shadowFocus).toBe('Close chat');
    }
    await page.keyboard.press('Escape');
    await expect.poll(shadowFocus).toBe('Open chat with Harbor Helper');
  });

  it('shows where the focus is on any chatbot colour, in either theme', async () => {
    // Found walking the widget by keyboard: on a sand yellow the focus ring, in that yellow, hardly showed on white.
    const luminance = (rgb: string) => {
      const [red = 0, green = 0, blue = 0] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((value) => {
        const channel = Number(value) / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
    };
    const contrast = (one: string, other: string) => {
      const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
      return (light + 0.05) / (dark + 0.05);
    };
    for (const theme of ['light', 'dark']) {
      await configure({ styles: { theme, userMessageColor: theme === 'light' ? '#F4D35E' : '#1E2230' } });
      const frame = await openWidget();
      await page.keyboard.press('Tab');
      const { ring, outline, background } = await frame.evaluate(() => ({
        ring: getComputedStyle(document.activeElement as Element).outlineStyle,
        outline: getComputedStyle(document.activeElement as Element).outlineColor,
        background: getComputedStyle(document.body).backgroundColor,
      }));
      expect(await frame.evaluate(() => document.activeElement?.textContent)).toBe('Send');
      expect(ring).toBe('solid');
      // WCAG 2.2's least contrast of a focus indicator.
      expect(contrast(outline, background)).toBeGreaterThanOrEqual(3);
    }
  });

  it('tells a screen reader who wrote each message, in the window’s language, showing nothing more', async () => {
    // Found walking the widget in Spanish: the log read the greeting, the question and the answer as one voice.
    await page.goto(site.pageUrl(ALLOWED_HOST, bot, 'es'));
    await page.getByRole('button', { name: 'Abrir el chat con Harbor Helper' }).click();
    const frame = await chatFrame(page, 'Mensaje');
    await frame.getByRole('textbox', { name: 'Mensaje' }).fill('When do you open?');
    await frame.getByRole('button', { name: 'Enviar' }).click();
    await frame.locator('.message.user').waitFor();
    await frame.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect(await frame.getByRole('log').ariaSnapshot()).toContain(
      'Harbor Helper: Hello! Ask me about the bakery. Tú: When do you open? Harbor Helper: Harbor Lights Bakery opens at seven',
    );
    // Out of sight: clipped to nothing, and taking no room in the bubble.
    const speaker = await frame.locator('.message.user').evaluate((node) => {
      const style = getComputedStyle(node, '::before');
      return { position: style.position, clip: style.clipPath, width: style.width };
    });
    expect(speaker).toEqual({ position: 'absolute', clip: 'inset(50%)', width: '1px' });
    expect(await frame.locator('.message.user').textContent()).toBe('When do you open?');
  });

  it('keeps the focus of a keyboard user whose button goes away or waits: suggestion, Send, the details form, Talk to a person', async () => {
    await configure({
      collectCustomerInformation: { title: 'Stay in touch', name: { active: true, label: 'Your name' }, email: { active: true, label: 'Your email' } },
      handoff: { enabled: true, onRequest: true },
    });
    const frame = await openWidget();
    const focused = () => frame.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
    const settled = () => frame.locator('[aria-busy]').waitFor({ state: 'detached' });

    // The suggestions go once one is sent: the focus goes to the message field, not the body.
    await frame.getByRole('button', { name: 'When do you open?' }).focus();
    await page.keyboard.press('Enter');
    await frame.locator('.message.user').waitFor();
    await settled();
    expect(await focused()).toBe('Message');

    // A Send pressed stays focused while the reply comes (a disabled button would drop it).
    await page.keyboard.type('Do you deliver cakes?');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Send');
    await page.keyboard.press('Enter');
    await expect.poll(() => frame.locator('.message.user').count()).toBe(2);
    await settled();
    expect(await focused()).toBe('Send');

    const form = frame.getByRole('form', { name: 'Stay in touch' });
    await form.getByLabel('Your name').focus();
    await page.keyboard.type('Zoë Ibáñez-Weiß 🥐');
    await page.keyboard.press('Tab');
    await page.keyboard.type('zoe@example.es');
    await page.keyboard.press('Enter');
    await frame.getByText('Thank you!').waitFor();
    expect(await focused()).toBe('Message');

    await frame.getByRole('button', { name: 'Talk to a person' }).focus();
    await page.keyboard.press('Enter');
    await frame.getByRole('status').getByText('Waiting for someone from the team').waitFor();
    expect(await focused()).toBe('Message');
  });
});
