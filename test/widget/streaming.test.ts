import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/openai.js';
import type { FakeProvider } from '../fakes/provider-server.js';
import { fakeModelEngine } from '../support/fake-model.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { ALLOWED_HOST, launchChromium, startHostSite, type HostSite } from './browser.js';

// Streaming in the widget: the real AI SDK against a fake OpenAI server that holds back the
// last piece of its reply until the test has seen the first pieces on screen.

const sqlite = storeTargets[0];
if (!sqlite) throw new Error('no sqlite target');

let browser: Browser;
let provider: FakeProvider;
let app: TestApp;
let site: HostSite;

beforeAll(async () => {
  browser = await launchChromium();
  provider = await startFakeOpenAI();
  app = await startApp(sqlite, { engine: fakeModelEngine(provider, 10_000) });
  site = await startHostSite(app.origin);
});
afterAll(async () => {
  await browser.close();
  await site.close();
  await app.close();
  await provider.close();
});

it('shows the reply while it is still arriving', async () => {
  const bot = await createChatbotViaApi(app, 'Velo', 'Velo Shop opens at 9am.');
  await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, {
    chatbotId: bot,
    visibility: 'public',
    styles: { autoOpenChatWindowAfter: 0 },
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  provider.script({ type: 'reply', pieces: ['We open', ' at nine', ' every day.'], delayMs: 0, beforeLast: held });

  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(site.pageUrl(ALLOWED_HOST, bot));
    await page.getByRole('button', { name: /open chat/i }).click();
    const frame = await (await page.locator('switchboard-chat iframe').elementHandle())?.contentFrame();
    if (!frame) throw new Error('no chat frame');
    await frame.getByRole('textbox', { name: 'Message' }).fill('When do you open?');
    await frame.getByRole('button', { name: 'Send' }).click();

    const reply = frame.locator('.message.assistant').last();
    await expect.poll(() => reply.textContent()).toBe('We open at nine');
    expect(await reply.getAttribute('aria-busy')).toBe('true');
    expect(provider.requests.at(-1)?.finished).toBe(false);

    release();
    await expect.poll(() => reply.getAttribute('aria-busy')).toBeNull();
    expect(await reply.textContent()).toBe('We open at nine every day.');
  } finally {
    await context.close();
  }
});
