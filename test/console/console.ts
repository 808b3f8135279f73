import { readFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startApp, type StartOptions, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { launchChromium } from '../widget/browser.js';

// The console end to end: a real hub on SQLite, Debian's Chromium, axe-core injected into the
// page, and screenshots of each page in both themes.

export const SHOTS = 'test-artifacts/console';

const [sqlite] = storeTargets;

export type ConsoleRun = { app: TestApp; browser: Browser; close(): Promise<void> };

export async function startConsole(options: StartOptions = {}): Promise<ConsoleRun> {
  if (!sqlite) throw new Error('no sqlite target');
  const [app, browser] = await Promise.all([startApp(sqlite, options), launchChromium()]);
  await mkdir(SHOTS, { recursive: true });
  return {
    app,
    browser,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}

/** A new browser profile (its own cookies) on a 1200×800 window. */
export async function newPage(run: ConsoleRun, width = 1200): Promise<Page> {
  const context = await run.browser.newContext({ viewport: { width, height: 800 } });
  return context.newPage();
}

export async function signIn(page: Page, app: TestApp, apiKey = app.apiKey): Promise<void> {
  await page.goto(`${app.origin}/console`);
  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

/**
 * axe-core's serious and critical violations on the page as it is now, in both themes. The
 * source is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(await axeSource);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await page.evaluate(async () => {
      const { axe } = window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } };
      return (await axe.run()).violations;
    });
    const serious = violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${colorScheme}: ${violation.id} (${violation.help}) at ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
    expect(serious).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The whole page in both themes, to the ignored folder, drawn as printed: on a screen a long chat
 * and the Activity columns scroll within the window, and a picture of the page showed only what
 * was in view of them. `docs` also keeps the light one, the window as on a screen, for the README.
 */
export async function screenshots(page: Page, name: string, docs = false): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, media: 'print' });
    await page.screenshot({ path: `${SHOTS}/${name}-${colorScheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light', media: null });
  if (docs) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `docs/console-${name}.png` });
  }
}
