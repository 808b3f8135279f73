import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi } from '../support/http.js';
import { newPage, signIn, startConsole, type ConsoleRun } from './console.js';

// What owners and visitors type is not always words: a name of 200 letters without a space
// wraps in its column, so the columns beside it stay on the screen. And what is longer than the
// API takes is explained next to its field, not with the API's bare "Invalid request data".

const LONG_NAME = `Ä${'x'.repeat(198)}Z`;

let run: ConsoleRun;
let page: Page;
let chatbotId: string;

beforeAll(async () => {
  run = await startConsole();
  chatbotId = await createChatbotViaApi(run.app, LONG_NAME, 'Harbor Lights Bakery opens at seven in the morning on weekdays.');
  await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/leads`, run.app.apiKey, {
    name: `N${'n'.repeat(199)}`,
    email: `${'e'.repeat(60)}@${'d'.repeat(60)}.example.com`,
    phone: '+47 123 45 678',
  });
  page = await newPage(run);
  await signIn(page, run.app);
});
afterAll(async () => {
  await run.close();
});

/** How far the table's frame scrolls sideways: 0 when every column is on the screen. */
const chatbotNames = async () => {
  const { body } = await call('GET', `${run.app.baseUrl}/get-chatbots`, run.app.apiKey);
  return (body as { chatbots: { name: string }[] }).chatbots.map((chatbot) => chatbot.name);
};

const sideways = (tableName: RegExp) =>
  page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: tableName }) })
    .evaluate((table) => {
      const frame = table.parentElement as HTMLElement;
      return frame.scrollWidth - frame.clientWidth;
    });

describe('a name of 200 letters (or a label of 100) without a space', () => {
  it('wraps in the chatbots list', async () => {
    await page.getByRole('cell', { name: LONG_NAME }).waitFor();
    expect(await sideways(/^Status$/)).toBe(0);
  });

  it('wraps in the API keys, Revoke staying on the screen', async () => {
    await call('POST', `${run.app.baseUrl}/api-keys`, run.app.apiKey, { label: 'k'.repeat(100) });
    await page.goto(`${run.app.origin}/console/account`);
    await page.getByRole('cell', { name: 'k'.repeat(100), exact: true }).waitFor();
    expect(await sideways(/^Starts with$/)).toBe(0);
  });

  it('wraps in the leads, with its long email', async () => {
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/leads`);
    await page.getByRole('cell', { name: /^Nn+$/ }).waitFor();
    expect(await sideways(/^Phone$/)).toBe(0);
  });
});

describe('on a 360 px screen', () => {
  it('keeps the words of a source’s line whole, its buttons going under it rather than squeezing it into a column', async () => {
    const narrow = await newPage(run, 360);
    await signIn(narrow, run.app);
    await narrow.goto(`${run.app.origin}/console/chatbots/${chatbotId}/sources`);
    const line = narrow.getByRole('list', { name: 'Sources' }).getByRole('listitem').first().locator('.grow');
    await line.waitFor();
    // The words drawn on more than one line.
    const broken = await line.evaluate((element) => {
      const words: string[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) words.push(match[0]);
        }
      }
      return words;
    });
    expect(broken).toEqual([]);
    await narrow.context().close();
  });
});

describe('text longer than the API takes', () => {
  it('is explained next to its field in Settings, and nothing is saved', async () => {
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/settings`);
    const fields = [
      { label: 'Name', text: 'n'.repeat(201), note: 'At most 200 characters; this has 201.' },
      { label: 'Display name', text: 'd'.repeat(201), note: 'At most 200 characters; this has 201.' },
      { label: 'Suggested messages', text: 's'.repeat(2_001), note: 'At most 2,000 characters a line.' },
      { label: 'Waiting message', text: 'w'.repeat(1_001), note: 'At most 1,000 characters; this has 1,001.' },
    ];
    for (const { label, text } of fields) await page.getByLabel(label, { exact: true }).fill(text);
    await page.getByRole('button', { name: 'Save' }).click();
    for (const { label, note } of fields) {
      const field = page.getByLabel(label, { exact: true });
      expect({ label, invalid: await field.getAttribute('aria-invalid') }).toEqual({ label, invalid: 'true' });
      expect(await field.evaluate((input) => document.getElementById(input.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '')?.textContent)).toBe(note);
    }
    expect(await chatbotNames()).toEqual([LONG_NAME]);
  });

  it('is explained for a new chatbot’s name, and no chatbot is made', async () => {
    await page.goto(`${run.app.origin}/console/new`);
    await page.getByLabel('Name').fill('n'.repeat(201));
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The name has at most 200 characters; this has 201.').waitFor();
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await chatbotNames()).toEqual([LONG_NAME]);
  });

  it('is explained for a contact', async () => {
    await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/contacts`, run.app.apiKey, { users: [{ external_id: 'guest-1', name: 'Ada' }] });
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/contacts?contact=guest-1`);
    await page.getByLabel('Contact name').fill('n'.repeat(257));
    await page.getByRole('button', { name: 'Save contact' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^The hub refused the contact: a name takes at most 256 characters/);
  });

  it('is explained for an API key’s label', async () => {
    await page.goto(`${run.app.origin}/console/account`);
    await page.getByLabel('Key label').fill('k'.repeat(101));
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'API keys' }).getByRole('alert').textContent()).toBe('A key’s label is 1 to 100 characters, not only spaces.');
  });
});
