import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi } from '../support/http.js';
import { newPage, signIn, startConsole, type ConsoleRun } from './console.js';

// A page whose data did not load (the hub down, a 5xx, the network) says why and offers
// "Try again", which loads that data again, with no reload of the page.

let run: ConsoleRun;
let page: Page;
let chatbotId: string;

/** Which of the API's reads fail, and how; the rest reach the hub. */
let failing: ((request: Request) => boolean) | undefined;
let answer: (route: Route) => Promise<void>;
const unavailable = (route: Route) =>
  route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service unavailable' }) });

beforeAll(async () => {
  // Webhooks to a local address, which the hub refuses unless told.
  run = await startConsole({ webhookAllowPrivate: true });
  chatbotId = await createChatbotViaApi(run.app, 'Harbor Lights', 'Harbor Lights Bakery opens at seven in the morning on weekdays.');
  page = await newPage(run);
  await signIn(page, run.app);
  await page.route(`${run.app.baseUrl}/**`, (route) => (failing?.(route.request()) ? answer(route) : route.continue()));
});
afterAll(async () => {
  await run.close();
});

const tryAgain = () => page.getByRole('main').getByRole('button', { name: 'Try again' });
const path = (request: Request) => new URL(request.url()).pathname.replace('/api/v1', '');
/** Every read but the session's and, unless `chatbotToo`, the chatbot's own. */
const reads = (chatbotToo: boolean) => (request: Request) =>
  request.method() === 'GET' && path(request) !== '/console/session' && (chatbotToo || path(request) !== `/chatbots/${chatbotId}`);

describe('a load that failed', () => {
  const chatbotPages = ['', '/sources', '/connect', '/activity', '/activity/leads', '/activity/contacts', '/analytics'].map((section) => `/chatbots/CHATBOT${section}`);

  it.each(['', '/account', ...chatbotPages])('offers "Try again" on /console%s, which loads it once the hub answers', async (address) => {
    failing = reads(address === '/chatbots/CHATBOT');
    answer = unavailable;
    await page.goto(`${run.app.origin}/console${address.replace('CHATBOT', chatbotId)}`);
    await tryAgain().first().waitFor();
    const failures = await tryAgain().count();
    expect(await page.getByRole('alert').filter({ hasText: 'Service unavailable' }).count()).toBe(failures);
    // Each named for what it loads where several fail side by side ("Try again: the digests").
    const names = await tryAgain().evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? button.textContent));
    expect(new Set(names).size).toBe(failures);
    failing = undefined;
    while ((await tryAgain().count()) > 0) {
      const before = await tryAgain().count();
      await tryAgain().first().focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => tryAgain().count()).toBeLessThan(before);
    }
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  });

  it('offers "Try again" in the chatbots list where a chatbot’s recent conversations could not be counted, named for what it counts, which counts them', async () => {
    await createChatbotViaApi(run.app, 'Lighthouse Tours', 'Lighthouse Tours sails at noon.');
    failing = (request) => path(request) === '/get-conversations';
    answer = unavailable;
    await page.goto(`${run.app.origin}/console`);
    const row = page.getByRole('row', { name: /Harbor Lights/ });
    await expect.poll(() => row.getByRole('alert').textContent()).toBe('Service unavailable');
    // One button per failed count, each named for its chatbot, however short the text it shows.
    await expect.poll(() => page.getByRole('button', { name: /^Try again/ }).count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Try again: conversations of Lighthouse Tours', exact: true }).textContent()).toBe('Try again');
    failing = undefined;
    await page.getByRole('button', { name: 'Try again: conversations of Harbor Lights', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row.getByRole('cell').last().textContent()).toBe('0');
    expect(await row.getByRole('alert').count()).toBe(0);
  });

  it('offers no "Try again" where asking again would fail the same way: a chatbot that is not there', async () => {
    failing = undefined;
    await page.goto(`${run.app.origin}/console/chatbots/no-such-chatbot`);
    await page.getByRole('alert').waitFor();
    expect(await tryAgain().count()).toBe(0);
  });

  it('offers "Try again" when the console could not ask the hub for its session, which opens it once the hub answers', async () => {
    failing = (request) => path(request) === '/console/session';
    answer = unavailable;
    await page.goto(`${run.app.origin}/console`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Service unavailable');
    failing = undefined;
    await tryAgain().click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('is reached by keyboard, keeps the focus while it loads, tells a failure again, and leaves the focus on the heading once loaded', async () => {
    failing = (request) => request.method() === 'GET' && path(request) === '/api-keys';
    answer = (route) => route.abort('connectionrefused');
    await page.goto(`${run.app.origin}/console/account`);
    const keys = page.getByRole('region', { name: 'API keys' });
    const alert = keys.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('The hub cannot be reached. Check your connection and try again.');
    const button = keys.getByRole('button', { name: 'Try again' });
    const focused = () => button.evaluate((element) => element === document.activeElement);
    for (let presses = 0; presses < 20 && !(await focused()); presses += 1) await page.keyboard.press('Tab');
    expect(await focused()).toBe(true);

    // Held until the progress is checked, then failed again.
    let release: () => void = () => undefined;
    answer = (route) => new Promise<void>((resolve) => (release = resolve)).then(() => route.abort('connectionrefused'));
    const firstAlert = await alert.elementHandle();
    await page.keyboard.press('Enter');
    await keys.getByRole('status').filter({ hasText: 'Loading the keys' }).waitFor();
    expect(await alert.count()).toBe(0);
    expect(await focused()).toBe(true);
    release();
    await alert.waitFor();
    // A new alert, which a screen reader reads out, not the first one kept.
    expect(await firstAlert?.evaluate((element) => element.isConnected)).toBe(false);
    expect(await focused()).toBe(true);

    failing = undefined;
    await page.keyboard.press('Enter');
    await keys.getByRole('table').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('API keys');
    expect(await button.count()).toBe(0);
  });
});

describe('"Try again" beside each of several items', () => {
  /** The accessible names of the failed loads' buttons, once `count` of them show. */
  const namesOfTryAgain = async (count: number) => {
    const buttons = page.getByRole('main').getByRole('button', { name: /^Try again/ });
    await expect.poll(() => buttons.count()).toBe(count);
    return (await buttons.evaluateAll((found) => found.map((button) => button.getAttribute('aria-label') ?? button.textContent))).sort();
  };
  const sourceRead = (request: Request) => request.method() === 'GET' && /^\/chatbots\/[^/]+\/sources\/[^/]+$/.test(path(request));

  it('names each source’s text, and each source opened to edit, for its source', async () => {
    failing = undefined;
    for (const title of ['Opening hours', 'Prices']) {
      await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/sources`, run.app.apiKey, { type: 'text', title, text: `${title} of Harbor Lights.` });
    }
    failing = sourceRead;
    answer = unavailable;
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/sources`);
    for (const title of ['Opening hours', 'Prices']) await page.getByRole('button', { name: `Preview ${title}` }).click();
    expect(await namesOfTryAgain(2)).toEqual(['Try again: the text of Opening hours', 'Try again: the text of Prices']);
    for (const title of ['Opening hours', 'Prices']) {
      await page.getByRole('button', { name: `Preview ${title}` }).click();
      await page.getByRole('button', { name: `Edit ${title}` }).click();
    }
    expect(await namesOfTryAgain(2)).toEqual(['Try again: Opening hours, to edit', 'Try again: Prices, to edit']);
  });

  it('names each webhook’s delivery log for its address', async () => {
    failing = undefined;
    const urls = ['http://127.0.0.1:9/first', 'http://127.0.0.1:9/second'];
    for (const url of urls) {
      await call('POST', `${run.app.baseUrl}/integrations/webhooks`, run.app.apiKey, { url, events: ['leads.submit'], chatbotId });
    }
    failing = (request) => request.method() === 'GET' && /\/deliveries$/.test(path(request));
    answer = unavailable;
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/connect`);
    for (const url of urls) await page.getByRole('listitem').filter({ hasText: url }).getByRole('button', { name: `Delivery log of ${url}` }).click();
    expect(await namesOfTryAgain(2)).toEqual(urls.map((url) => `Try again: the deliveries to ${url}`));
  });
});
