import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi } from '../support/http.js';
import { newPage, signIn, startConsole, type ConsoleRun } from './console.js';

// What owners and visitors type is not always words: a name of 200 letters without a space
// wraps in its column, so the columns beside it stay on the screen.

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
const sideways = (tableName: RegExp) =>
  page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: tableName }) })
    .evaluate((table) => {
      const frame = table.parentElement as HTMLElement;
      return frame.scrollWidth - frame.clientWidth;
    });

describe('a name of 200 letters without a space', () => {
  it('wraps in the chatbots list', async () => {
    await page.getByRole('cell', { name: LONG_NAME }).waitFor();
    expect(await sideways(/^Status$/)).toBe(0);
  });

  it('wraps in the leads, with its long email', async () => {
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/leads`);
    await page.getByRole('cell', { name: /^Nn+$/ }).waitFor();
    expect(await sideways(/^Phone$/)).toBe(0);
  });
});
