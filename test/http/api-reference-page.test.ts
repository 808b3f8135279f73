import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '../../src/http/app.js';
import { startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { launchChromium } from '../widget/browser.js';

// /docs in real Chromium: Swagger UI, served by the hub itself, draws every operation of the
// document, and the page asks nothing of any other origin and breaks none of its own policy.

const sqlite = storeTargets.find((target) => target.name === 'sqlite');
const operationCount = Object.values(apiDocument().paths ?? {}).reduce(
  (count, item) => count + ['get', 'post', 'put', 'patch', 'delete'].filter((method) => item && method in item).length,
  0,
);

describe('GET /docs in Chromium', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    if (!sqlite) throw new Error('no SQLite target');
    [app, browser] = await Promise.all([startApp(sqlite), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('draws every documented operation from the hub’s own files', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const complaints: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') complaints.push(message.text());
    });
    page.on('pageerror', (error) => complaints.push(error.message));

    const response = await page.goto(`${app.origin}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor();

    expect(await page.locator('.opblock').count()).toBe(operationCount);
    await expect(page.locator('.opblock-summary-path', { hasText: '/api/v1/create-chatbot' }).count()).resolves.toBe(1);
    expect(await page.locator('.title').first().textContent()).toContain('Switchboard');
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(`${app.origin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(complaints).toEqual([]);
    await page.close();
  });
});
