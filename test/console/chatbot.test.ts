import type { Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi } from '../support/http.js';
import { expectAccessible, newPage, screenshots, signIn, startConsole, type ConsoleRun } from './console.js';

// A chatbot's life in the console: made from the list, tried in the Playground, set up in
// Settings with the widget's preview, and deleted.

const TEXT = [
  'Harbor Lights Bakery opens at seven in the morning on weekdays.',
  'Cakes can be delivered anywhere in Portsmouth for a flat fee of 6 pounds.',
  'Write <img src=x onerror="window.__pwned=1"> to us.',
].join('\n\n');

let run: ConsoleRun;
let page: Page;
let chatbotId: string;

beforeAll(async () => {
  run = await startConsole();
  page = await newPage(run);
  await signIn(page, run.app);
});
afterAll(async () => {
  await run.close();
});

const settingsOf = async (id: string) => {
  const { body } = await call('GET', `${run.app.baseUrl}/chatbots/${id}`, run.app.apiKey);
  return (body as { data: { name: string; settings: Record<string, unknown> & { styles: Record<string, unknown> } } }).data;
};

describe('chatbots', () => {
  it('makes a chatbot with a name and text, and opens it at a URL holding its id', async () => {
    await page.getByRole('link', { name: 'New chatbot' }).click();
    await expectAccessible(page);
    await page.getByLabel('Name').fill('Harbor Lights');
    await page.getByLabel('Text').fill(TEXT);
    await screenshots(page, 'new-chatbot');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('log').waitFor();
    const match = /\/console\/chatbots\/([^/]+)\/playground$/.exec(new URL(page.url()).pathname);
    chatbotId = decodeURIComponent(match?.[1] ?? '');
    const { body } = await call('GET', `${run.app.baseUrl}/get-chatbots`, run.app.apiKey);
    expect((body as { chatbots: { id: string; name: string }[] }).chatbots).toEqual([expect.objectContaining({ id: chatbotId, name: 'Harbor Lights' })]);
    for (const name of ['Playground', 'Settings', 'Connect', 'Activity']) {
      expect(await page.getByRole('navigation', { name: 'Chatbot' }).getByRole('link', { name }).count()).toBe(1);
    }
  });

  it('lists the chatbots with status, model, visibility and the last 7 days’ conversations', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Chatbots' }).click();
    const row = page.getByRole('row', { name: /Harbor Lights/ });
    await expect.poll(() => row.textContent()).toMatch(/Harbor Lights(training|ready)autoprivate0$/);
    await expectAccessible(page);
    await screenshots(page, 'chatbots', true);
  });

  it('loads a chatbot’s page on its own, by URL', async () => {
    const fresh = await page.context().newPage();
    await fresh.goto(`${run.app.origin}/console/chatbots/${chatbotId}/settings`);
    await fresh.getByLabel('Button colour').waitFor();
    await fresh.close();
  });
});

describe('playground', () => {
  it('streams answers into the log, with the model and temperature tried, and saves them as Playground', async () => {
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/playground`);
    await page.getByLabel('Temperature').fill('0.4');
    await page.getByLabel('Message').fill('When do you open?');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent()).toMatch(/seven in the morning/);
    await expect.poll(() => log.locator('[aria-busy]').count()).toBe(0);
    await page.getByLabel('Message').fill('Do you deliver cakes?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => log.textContent()).toMatch(/Portsmouth/);
    await expect.poll(() => log.locator('[aria-busy]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expectAccessible(page);
    await screenshots(page, 'playground', true);

    const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}&filteredSources=Playground`, run.app.apiKey);
    const [conversation] = (body as { data: { source: string; messages: unknown[] }[] }).data;
    expect(conversation).toMatchObject({ source: 'Playground' });
    expect(conversation?.messages).toHaveLength(4);
  });

  it('explains a temperature out of range next to its field, which takes the focus when Send is pressed, and sends nothing', async () => {
    await page.getByLabel('Temperature').fill('3');
    expect(await page.getByText('Between 0 and 1').count()).toBe(1);
    expect(await page.getByLabel('Temperature').getAttribute('aria-invalid')).toBe('true');
    const bubbles = await page.getByRole('log').locator('.bubble').count();
    await page.getByLabel('Message').fill('Is the temperature taken?');
    await page.getByLabel('Message').press('Enter');
    await expect.poll(() => page.getByLabel('Temperature').evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await page.getByRole('log').locator('.bubble').count()).toBe(bubbles);
    await page.getByLabel('Temperature').fill('0');
  });
});

describe('playground past the quota', () => {
  it('says the month’s messages are used up, and how to raise the quota', async () => {
    const owner = await run.app.addAccount('tight', { messagesPerMonth: 1, maxChatbots: 5 });
    const tight = await newPage(run);
    await signIn(tight, run.app, owner.apiKey);
    const { body } = await call('POST', `${run.app.baseUrl}/create-chatbot`, owner.apiKey, { chatbotName: 'Tight', sourceText: TEXT });
    await tight.goto(`${run.app.origin}/console/chatbots/${(body as { chatbotId: string }).chatbotId}/playground`);
    for (const question of ['When do you open?', 'Do you deliver cakes?']) {
      await tight.getByLabel('Message').fill(question);
      await tight.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => tight.getByRole('log').locator('[aria-busy]').count()).toBe(0);
    }
    // The API's 403 body is "Access denied or quota exceeded".
    await expect.poll(() => tight.getByRole('alert').textContent()).toMatch(/^The account has used this month’s messages \(see Account\)/);
    await tight.context().close();
  });
});

describe('new chatbot checked before it is made', () => {
  it('takes a keyboard user on a narrow screen to the field that needs a fix, and makes no chatbot with an address the hub would refuse', async () => {
    const owner = await run.app.addAccount('first-time', { messagesPerMonth: 100, maxChatbots: 5 });
    const narrow = await newPage(run, 360);
    await signIn(narrow, run.app, owner.apiKey);
    await narrow.goto(`${run.app.origin}/console/new`);
    const create = narrow.getByRole('button', { name: 'Create' });
    const focusedLabel = () => narrow.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent);
    const inView = (label: string) => narrow.getByLabel(label, { exact: true }).evaluate((field) => field.getBoundingClientRect().top >= 0);

    await narrow.getByLabel('Name').fill('ab');
    await create.focus();
    await narrow.keyboard.press('Enter');
    await expect.poll(focusedLabel).toBe('Name');
    expect(await inView('Name')).toBe(true);
    expect(await narrow.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await narrow.getByText('The name needs at least 3 characters.').waitFor();

    // Typed as many do: without http:// or https://.
    await narrow.getByLabel('Name').fill('Harbor Tours');
    await narrow.getByLabel('Website URL').fill('help.example.com');
    await create.focus();
    await narrow.keyboard.press('Enter');
    await expect.poll(focusedLabel).toBe('Website URL');
    expect(await inView('Website URL')).toBe(true);
    await narrow.getByText('A web address starting with http:// or https://, without a user name or password.').waitFor();
    expect(await narrow.getByLabel('Name').getAttribute('aria-invalid')).toBeNull();
    // The hub's own rule: a hand copy of it took both of these, which the browser's URL parser reads.
    await narrow.getByLabel('Website URL').fill(`https://help.example.com/${'a'.repeat(2_000)}`);
    await create.click();
    await narrow.getByText('An address of at most 2,000 characters.').waitFor();
    await narrow.getByLabel('Website URL').fill('https:/help.example.com/');
    await create.click();
    await narrow.getByText('A web address starting with http:// or https://, without a user name or password.').waitFor();
    expect(((await call('GET', `${run.app.baseUrl}/get-chatbots`, owner.apiKey)).body as { chatbots: unknown[] }).chatbots).toEqual([]);
    await expectAccessible(narrow);
    await narrow.context().close();
  });
});

describe('new chatbot past the quota', () => {
  it('says the account holds as many chatbots as it may, and makes none', async () => {
    const owner = await run.app.addAccount('full', { messagesPerMonth: 100, maxChatbots: 1 });
    await createChatbotViaApi(run.app, 'Only one', TEXT, owner.apiKey);
    const full = await newPage(run);
    await signIn(full, run.app, owner.apiKey);
    await full.getByRole('link', { name: 'New chatbot' }).click();
    await full.getByLabel('Name').fill('One too many');
    await full.getByRole('button', { name: 'Create' }).click();
    // The API's 403 body is "Access denied or quota exceeded".
    await expect.poll(() => full.getByRole('alert').textContent()).toMatch(/^The account has as many chatbots as its quota allows/);
    expect(((await call('GET', `${run.app.baseUrl}/get-chatbots`, owner.apiKey)).body as { chatbots: unknown[] }).chatbots).toHaveLength(1);
    await full.context().close();
  });
});

describe('analytics', () => {
  it('charts the days’ conversations, messages and credits, and lists the questions it could not answer', async () => {
    await page.getByLabel('Message').fill('Do you sell bicycles?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByRole('log').locator('[aria-busy]').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Chatbot' }).getByRole('link', { name: 'Analytics' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'In these days' }).textContent()).toMatch(/^In these days: 1 conversation, 6 messages, 3 credits, /);
    // The charts draw in an effect, after the totals have rendered.
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(2);
    await page.getByRole('region', { name: 'Questions it could not answer' }).getByText('Do you sell bicycles?').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'analytics', true);
  });

  it('ranges by default over the last 30 days of the reader’s time zone, today in it included', async () => {
    // A zone whose date now is not UTC's: UTC+14 from 10:00 UTC, UTC−11 before.
    const timezoneId = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezoneId }).format(new Date());
    const context = await run.browser.newContext({ timezoneId, viewport: { width: 1200, height: 800 } });
    const far = await context.newPage();
    await signIn(far, run.app);
    await far.goto(`${run.app.origin}/console/chatbots/${chatbotId}/analytics`);
    await far.getByRole('status').filter({ hasText: 'In these days' }).waitFor();
    expect(await far.getByRole('group', { name: `Days in your time zone, ${timezoneId}` }).getByLabel('To', { exact: true }).inputValue()).toBe(today);
    expect(await far.getByLabel('From', { exact: true }).inputValue()).toBe(new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10));
    // The conversation of the test before, started today.
    expect(await far.getByRole('status').filter({ hasText: 'In these days' }).textContent()).toMatch(/^In these days: 1 conversation,/);
    // The chart puts each day's point on that day, not on the day the reader's zone has at its UTC noon.
    await expect.poll(() => far.locator('.chart canvas').count()).toBe(2);
    await far.locator('.chart .u-over').first().hover({ position: { x: 1, y: 10 } });
    const from = await far.getByLabel('From', { exact: true }).inputValue();
    expect(await far.locator('.chart').first().locator('.u-legend .u-series').first().locator('.u-value').textContent()).toMatch(new RegExp(`^${from}`));
    await context.close();
  });

  it('explains a range of days it cannot chart, rather than the API’s bare refusal', async () => {
    await page.getByLabel('From', { exact: true }).fill('2026-03-10');
    await page.getByLabel('To', { exact: true }).fill('2026-03-01');
    await page.getByRole('alert').getByText('“From” is after “To”: choose a From on or before the To.').waitFor();
    await page.getByLabel('From', { exact: true }).fill('2024-03-01');
    await page.getByRole('alert').getByText('That is 731 days: choose at most 366 at a time.').waitFor();
    expect(await page.getByText('Invalid request data').count()).toBe(0);
  });

  it('answers an open question (a Q&A source the chatbot then gives) and dismisses another', async () => {
    await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, messages: [{ role: 'user', content: 'Do you have a car park?' }] });
    await page.reload();
    const open = page.getByRole('list', { name: 'Open questions' });
    await open.getByText('Do you have a car park?').waitFor();

    await open.getByRole('button', { name: 'Answer “Do you sell bicycles?”' }).click();
    const form = open.getByRole('form', { name: 'Answer to “Do you sell bicycles?”' });
    // Spaces alone are no answer: the API's bare "Invalid request data" is explained.
    await form.getByLabel('Answer').fill('   ');
    await form.getByRole('button', { name: 'Save answer' }).click();
    await expect.poll(() => open.getByRole('alert').textContent()).toMatch(/^The hub refused the answer: it needs an answer of at most 20,000 characters, not blank\./);
    await form.getByLabel('Answer').fill('No, only cakes and bread.');
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save answer' }).click();
    await page.getByRole('status').filter({ hasText: 'Answered “Do you sell bicycles?”' }).waitFor();
    await open.getByRole('button', { name: 'Dismiss “Do you have a car park?”' }).click();
    await page.getByRole('status').filter({ hasText: 'Dismissed “Do you have a car park?”' }).waitFor();
    await page.getByText('None open.').waitFor();

    const { body: sources } = await call('GET', `${run.app.baseUrl}/chatbots/${chatbotId}/sources`, run.app.apiKey);
    expect((sources as { data: { type: string; question?: string; answer?: string }[] }).data.filter((source) => source.type === 'qa')).toEqual([
      expect.objectContaining({ question: 'Do you sell bicycles?', answer: 'No, only cakes and bread.' }),
    ]);
    const { body: dismissed } = await call('GET', `${run.app.baseUrl}/chatbots/${chatbotId}/unanswered?status=dismissed`, run.app.apiKey);
    expect((dismissed as { data: { question: string }[] }).data.map((group) => group.question)).toEqual(['Do you have a car park?']);
    const { body: reply } = await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, messages: [{ role: 'user', content: 'Do you sell bicycles?' }] });
    expect(reply).toEqual({ text: 'No, only cakes and bread.' });
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/playground`);
  });

  it('lists the open questions a page at a time, saying how many there are', async () => {
    const things = 'pianos kayaks tractors umbrellas violins helmets tents saddles anchors telescopes candles hammocks microscopes snowboards trumpets aquariums chessboards lanterns typewriters surfboards harps'.split(' ');
    const shop = await createChatbotViaApi(run.app, 'Corner shop', 'The corner shop opens at eight.');
    for (const thing of things) {
      await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId: shop, messages: [{ role: 'user', content: `Do you sell ${thing}?` }] });
    }
    await page.goto(`${run.app.origin}/console/chatbots/${shop}/analytics`);
    const region = page.getByRole('region', { name: 'Questions it could not answer' });
    const open = region.getByRole('list', { name: 'Open questions' });
    await region.getByRole('status').getByText(`The 20 most asked of ${things.length} open questions.`, { exact: true }).waitFor();
    expect(await open.getByRole('listitem').count()).toBe(20);
    await region.getByRole('button', { name: 'Load more' }).click();
    await region.getByRole('status').getByText(`${things.length} open questions.`, { exact: true }).waitFor();
    expect(await open.getByRole('listitem').count()).toBe(things.length);
    expect(await region.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await call('DELETE', `${run.app.baseUrl}/delete-chatbot?chatbotId=${shop}`, run.app.apiKey);
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/playground`);
  });

  it('keeps a keyboard user’s place once a question is answered or dismissed: the focus goes to the list’s heading', async () => {
    const stall = await createChatbotViaApi(run.app, 'Market stall', 'The market stall opens on Saturdays.');
    for (const thing of ['kites', 'kettles', 'kilts']) {
      await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId: stall, messages: [{ role: 'user', content: `Do you sell ${thing}?` }] });
    }
    await page.goto(`${run.app.origin}/console/chatbots/${stall}/analytics`);
    const region = page.getByRole('region', { name: 'Questions it could not answer' });
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent);
    await region.getByRole('button', { name: 'Answer “Do you sell kites?”' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('No, only fruit.');
    await region.getByRole('button', { name: 'Save answer' }).focus();
    await page.keyboard.press('Enter');
    await region.getByRole('status').filter({ hasText: 'Answered “Do you sell kites?”' }).waitFor();
    await expect.poll(focusedText).toBe('Questions it could not answer');
    await region.getByRole('button', { name: 'Dismiss “Do you sell kettles?”' }).focus();
    await page.keyboard.press('Enter');
    await region.getByRole('status').filter({ hasText: 'Dismissed “Do you sell kettles?”' }).waitFor();
    await expect.poll(focusedText).toBe('Questions it could not answer');
    expect(await region.getByRole('listitem').count()).toBe(1);
    await call('DELETE', `${run.app.baseUrl}/delete-chatbot?chatbotId=${stall}`, run.app.apiKey);
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/playground`);
  });
});

describe('sources', () => {
  it('lists the sources, previews their text as text, adds a question and deletes it after a confirmation', async () => {
    await page.getByRole('navigation', { name: 'Chatbot' }).getByRole('link', { name: 'Sources' }).click();
    const list = page.getByRole('list', { name: 'Sources' });
    await expect.poll(() => list.textContent()).toMatch(/ready/);
    await list.getByRole('button', { name: /^Preview/ }).first().click();
    await expect.poll(() => list.locator('pre').textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.getByLabel('Question', { exact: true }).fill('Do you bake gluten-free bread?');
    await page.getByLabel('Answer', { exact: true }).fill('Yes, every Friday.');
    await page.getByRole('button', { name: 'Add question' }).click();
    await list.getByText('Do you bake gluten-free bread?').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'sources', true);
    await list.getByRole('button', { name: 'Delete Do you bake gluten-free bread?' }).click();
    await list.getByRole('button', { name: /^Yes, delete/ }).click();
    await expect.poll(() => list.getByText('Do you bake gluten-free bread?').count()).toBe(0);
  });
});

describe('settings', () => {
  it('asks for no image the chatbot does not have: a visit makes no failing request', async () => {
    const failed: string[] = [];
    const onResponse = (response: Response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    };
    const onFailure = (request: Request) => failed.push(`${request.failure()?.errorText ?? 'failed'} ${request.method()} ${request.url()}`);
    page.on('response', onResponse);
    page.on('requestfailed', onFailure);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Button colour').waitFor();
    await expect.poll(() => page.getByText('None', { exact: true }).count()).toBe(2);
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    page.off('requestfailed', onFailure);
    expect(failed).toEqual([]);
  });

  it('explains invalid input next to its field, and saves nothing', async () => {
    await page.getByLabel('IP limit', { exact: true }).fill('-3');
    await page.getByLabel('Button colour').fill('blue');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.getByLabel('IP limit', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Button colour').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('A colour written #RGB or #RRGGBB').count()).toBe(1);
    // The first of them takes the focus, far above Save.
    expect(await page.getByLabel('Button colour').evaluate((field) => field === document.activeElement)).toBe(true);
    expect((await settingsOf(chatbotId)).settings.ipLimit).toBe(20);
  });

  it('shows unsaved changes in the preview, saves every group, and says so', async () => {
    await page.getByLabel('IP limit', { exact: true }).fill('5');
    await page.getByLabel('Button colour').fill('#112233');
    await page.getByLabel('Display name').fill('Harbor Helper');
    await page.getByLabel('Initial messages').fill('Hello! Ask me about the bakery.');
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByLabel('Visibility').selectOption('public');
    await page.getByLabel('Ask for the email').check();
    const preview = page.getByRole('figure', { name: 'Widget preview' });
    expect(await preview.textContent()).toContain('Harbor Helper');
    expect(await preview.textContent()).toContain('Hello! Ask me about the bakery.');
    expect(await page.getByTestId('preview-button').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(17, 34, 51)');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your changes are saved.' }).waitFor();
    await screenshots(page, 'settings', true);
    const saved = await settingsOf(chatbotId);
    expect(saved.settings).toMatchObject({
      ipLimit: 5,
      visibility: 'public',
      initialMessages: ['Hello! Ask me about the bakery.'],
      collectCustomerInformation: expect.objectContaining({ email: expect.objectContaining({ active: true }) }),
    });
    expect(saved.settings.styles).toMatchObject({ buttonColor: '#112233', displayName: 'Harbor Helper', theme: 'dark' });
  });

  it('turns human handoff on, answered in the console alone or also in a channel, and explains what it refuses', async () => {
    const group = page.getByRole('group', { name: 'Human handoff' });
    await group.getByLabel('Hand conversations to the team').check();
    await group.getByLabel('Requests go').selectOption('discord');
    await group.getByLabel('Wait for the team (minutes)').fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await group.getByLabel('Server ID').getAttribute('aria-invalid')).toBe('true');
    expect(await group.getByLabel('Wait for the team (minutes)').getAttribute('aria-invalid')).toBe('true');
    expect((await settingsOf(chatbotId)).settings.handoff).toMatchObject({ enabled: false });

    await group.getByLabel('Requests go').selectOption('');
    await group.getByLabel('Wait for the team (minutes)').fill('10');
    await group.getByLabel('Keywords').fill('refund\ndamaged');
    await group.getByLabel('Waiting message').fill('A person from the bakery will answer here.');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Your changes are saved.' }).waitFor();
    expect((await settingsOf(chatbotId)).settings.handoff).toMatchObject({
      enabled: true,
      platform: null,
      keywords: ['refund', 'damaged'],
      waitMinutes: 10,
      waitingMessage: 'A person from the bakery will answer here.',
    });
    const { body } = await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, conversationId: 'wants-a-person', messages: [{ role: 'user', content: 'Can I talk to a person?' }] });
    expect(body).toEqual({ text: 'A person from the bakery will answer here.' });
  });

  it('uploads and deletes the chat icon, and explains a file it refuses', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    // A file that is no image, whatever its name, is refused in words saying what the hub takes.
    await page.getByLabel('Upload chat icon').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^The hub refused the file: upload a PNG, JPEG, GIF or WebP image of at most 5 MB/);
    await page.getByLabel('Upload chat icon').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('status').filter({ hasText: 'Chatbot chat icon uploaded successfully.' }).waitFor();
    // The address the chatbot's data gives serves the image just uploaded.
    const icon = page.getByRole('img', { name: 'Current chat icon' });
    await expect.poll(() => icon.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);
    await page.getByRole('button', { name: 'Delete chat icon' }).click();
    await page.getByRole('status').filter({ hasText: 'Chatbot icon deleted successfully.' }).waitFor();
    await expect.poll(() => icon.count()).toBe(0);
  });

  it('deletes the chatbot once its name is typed', async () => {
    const remove = page.getByRole('button', { name: 'Delete chatbot' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel('Type “Harbor Lights” to confirm').fill('Harbor Lights');
    await remove.click();
    await page.getByRole('heading', { name: 'Chatbots' }).waitFor();
    const { body } = await call('GET', `${run.app.baseUrl}/get-chatbots`, run.app.apiKey);
    expect((body as { chatbots: unknown[] }).chatbots).toEqual([]);
  });
});

describe('two chatbots of one name', () => {
  it('warns before making a chatbot of a name another has, makes it when asked again, and tells the two apart in the list', async () => {
    const first = await createChatbotViaApi(run.app, 'Twin Harbor', 'The first harbour opens at six.');
    await createChatbotViaApi(run.app, 'Lone Harbor', 'The lone harbour opens at eight.');
    const named = async () => {
      const { body } = await call('GET', `${run.app.baseUrl}/get-chatbots`, run.app.apiKey);
      return (body as { chatbots: { id: string; name: string }[] }).chatbots.filter((chatbot) => chatbot.name.toLowerCase() === 'twin harbor');
    };
    await page.goto(`${run.app.origin}/console/new`);
    // Another case is not another name.
    await page.getByLabel('Name').fill('twin harbor');
    await page.getByRole('button', { name: 'Create' }).click();
    const warning = page.getByRole('alert');
    await expect.poll(() => warning.textContent()).toMatch(/^You already have a chatbot named “Twin Harbor” \(made .+, id …(.{6})\)\. Press “Create” again to make another/);
    expect(await warning.textContent()).toContain(`id …${first.slice(-6)})`);
    expect(await named()).toHaveLength(1);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/playground$/);
    const made = await named();
    expect(made.map((chatbot) => chatbot.name).toSorted()).toEqual(['Twin Harbor', 'twin harbor']);

    await page.goto(`${run.app.origin}/console`);
    const table = page.getByRole('table');
    const twins = table.getByRole('link', { name: /^twin harbor/i });
    await expect.poll(() => twins.count()).toBe(2);
    const texts = await twins.allTextContents();
    for (const chatbot of made) {
      expect(texts.filter((text) => text.startsWith(`${chatbot.name} made `) && text.endsWith(`, id …${chatbot.id.slice(-6)}`))).toHaveLength(1);
    }
    // A name no other chatbot has goes alone.
    expect(await table.getByRole('link', { name: 'Lone Harbor', exact: true }).count()).toBe(1);

    // A count that could not be read names its chatbot so in its "Try again" too.
    const failed = /\/get-conversations/;
    await page.route(failed, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service unavailable' }) }));
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: /^Try again: conversations of twin harbor, made .+, id …/i }).count()).toBe(2);
    for (const chatbot of made) {
      const named = new RegExp(`^Try again: conversations of ${chatbot.name}, made .+, id …${chatbot.id.slice(-6)}$`);
      expect(await page.getByRole('button', { name: named }).count()).toBe(1);
    }
    await page.unroute(failed);
  });

  it('says on a chatbot’s own page which of the two it is: in its breadcrumb, heading and title, and nothing more when the list cannot be read', async () => {
    const twins = [await createChatbotViaApi(run.app, 'Twin Quay', 'The quay opens at six.'), await createChatbotViaApi(run.app, 'Twin Quay', 'The quay opens at nine.')];
    const lone = await createChatbotViaApi(run.app, 'Lone Quay', 'The lone quay opens at eight.');
    const breadcrumb = page.locator('main p', { has: page.getByRole('link', { name: 'Chatbots', exact: true }) });
    const heading = page.getByRole('heading', { level: 1 });
    for (const id of twins) {
      await page.goto(`${run.app.origin}/console/chatbots/${id}/settings`);
      const which = new RegExp(`^Settings: Twin Quay made .+, id …${id.slice(-6)}$`);
      await expect.poll(() => heading.textContent()).toMatch(which);
      expect(await breadcrumb.textContent()).toMatch(new RegExp(`^Chatbots / Twin Quay made .+, id …${id.slice(-6)}$`));
      await expect.poll(() => page.title()).toMatch(new RegExp(`^Settings: Twin Quay made .+, id …${id.slice(-6)} · Switchboard console$`));
    }
    await expectAccessible(page);

    // A name no other chatbot has goes alone.
    await page.goto(`${run.app.origin}/console/chatbots/${lone}/settings`);
    await page.getByLabel('Button colour').waitFor();
    expect(await heading.textContent()).toBe('Settings: Lone Quay');
    expect(await breadcrumb.textContent()).toBe('Chatbots / Lone Quay');

    // A list that cannot be read tells nothing apart, and the page is shown all the same.
    const list = /\/get-chatbots/;
    let refused = false;
    await page.route(list, (route) => {
      refused = true;
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Service unavailable' }) });
    });
    await page.goto(`${run.app.origin}/console/chatbots/${twins[0]}/settings`);
    await page.getByLabel('Button colour').waitFor();
    await expect.poll(() => refused).toBe(true);
    expect(await heading.textContent()).toBe('Settings: Twin Quay');
    expect(await breadcrumb.textContent()).toBe('Chatbots / Twin Quay');
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.unroute(list);
  });
});
