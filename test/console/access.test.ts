import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_SOURCES as CONSOLE_SOURCES } from '../../adapters/console/sources.js';
import { createConsoleLink } from '../../src/domain/console-sessions.js';
import { CONVERSATION_SOURCES } from '../../src/store/conversation-sources.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, createChatbotViaApi, startApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { OTHER_HOST } from '../widget/browser.js';
import { expectAccessible, newPage, screenshots, signIn, startConsole, type ConsoleRun } from './console.js';

// Getting into the console and what guards it: the page's headers, its bundle's size, signing
// in and out, sessions that end, and the one-time link.

let run: ConsoleRun;
beforeAll(async () => {
  run = await startConsole();
});
afterAll(async () => {
  await run.close();
});

const FIRST_LOAD_LIMIT = 200 * 1024;
/** What New chatbot loads past the page it is opened from: its form and the website address check. */
const NEW_CHATBOT_LIMIT = 20 * 1024;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A multipart POST, which needs no preflight: a forged form or script can send one. */
function uploadIcon(from: Page, url: string, chatbotId: string, headers: Record<string, string>): Promise<void> {
  return from.evaluate(
    async ({ url, chatbotId, headers, png }) => {
      const form = new FormData();
      form.append('chatbotId', chatbotId);
      form.append('chatbotIconFile', new Blob([Uint8Array.from(atob(png), (char) => char.charCodeAt(0))], { type: 'image/png' }), 'icon.png');
      // Sent either way; from another origin, the browser then hides the answer (a TypeError).
      await fetch(url, { method: 'POST', credentials: 'include', body: form, headers }).catch(() => undefined);
    },
    { url, chatbotId, headers, png: PNG },
  );
}

describe('the page', () => {
  it('answers every console URL with the page, a strict CSP and no framing', async () => {
    for (const path of ['/console', '/console/account', '/console/chatbots/abc', '/console/chatbots/abc/settings', '/console/chatbots/abc/activity/leads']) {
      const response = await fetch(`${run.app.origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const html = await response.text();
      expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('is refused inside a frame of another site', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Framer</title><iframe id="framed" src="${run.app.origin}/console"></iframe>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const page = await newPage(run);
    try {
      await page.goto(`http://${OTHER_HOST}:${(server.address() as AddressInfo).port}/`);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      // Chromium shows its error page in place of a refused frame.
      await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
      expect(await frame?.evaluate(() => document.getElementById('app'))).toBeNull();
    } finally {
      await page.context().close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('loads at most 200 KB gzipped on first load, from content-hashed files cached for good', async () => {
    const page = await newPage(run);
    const loaded: { url: string; body: Buffer; cache: string }[] = [];
    page.on('response', async (response) => {
      if (response.request().method() !== 'GET' || response.url().includes('/api/')) return;
      loaded.push({ url: response.url(), body: await response.body(), cache: (await response.allHeaders())['cache-control'] ?? '' });
    });
    await page.goto(`${run.app.origin}/console`);
    await page.getByLabel('API key', { exact: true }).waitFor();
    const total = loaded.reduce((sum, { body }) => sum + gzipSync(body).length, 0);
    expect(loaded.length).toBeGreaterThanOrEqual(3);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_LIMIT);
    for (const asset of loaded.filter(({ url }) => url.includes('/console/assets/'))) {
      expect(asset.url).toMatch(/-[A-Z0-9]{8}\.(js|css)$/);
      expect(asset.cache).toContain('immutable');
    }
    console.log(`first load: ${loaded.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
    await page.context().close();
  });

  it('loads at most 20 KB gzipped more for New chatbot, its website address check included', async () => {
    // Found measuring the bundle: the check's zod (the hub's whole schema library) was 94 KB of it.
    const page = await newPage(run);
    await signIn(page, run.app);
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response);
    });
    await page.getByRole('link', { name: 'New chatbot' }).click();
    await page.getByLabel('Website URL').waitFor();
    await expect.poll(() => scripts.length).toBeGreaterThan(0);
    const bodies = await Promise.all(scripts.map((script) => script.body()));
    const total = bodies.reduce((sum, body) => sum + gzipSync(body).length, 0);
    expect(total).toBeLessThanOrEqual(NEW_CHATBOT_LIMIT);
    console.log(`New chatbot: ${scripts.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
    await page.context().close();
  });
});

it('filters Activity by every source the hub records', () => {
  expect(CONSOLE_SOURCES).toEqual([...CONVERSATION_SOURCES]);
});

describe('signing in', () => {
  let page: Page;
  beforeAll(async () => {
    page = await newPage(run);
  });
  afterAll(async () => {
    await page.context().close();
  });

  // Browsers ask a page without an icon for /favicon.ico: a 404 in the hub's log on every visit.
  it('loads nothing the hub does not have, an icon included', async () => {
    const fresh = await newPage(run);
    const missing: string[] = [];
    fresh.on('console', (message) => {
      if (/status of 404/.test(message.text())) missing.push(message.text());
    });
    await fresh.goto(`${run.app.origin}/console`);
    await fresh.getByLabel('API key', { exact: true }).waitFor();
    await fresh.waitForLoadState('networkidle');
    expect(missing).toEqual([]);
    await fresh.context().close();
  });

  // The hub answers GET /console/session 401 without a session, which Chromium logs as an error.
  it('asks the hub nothing bound to fail on a signed-out visit, before sign-in or after sign-out, and logs no error', async () => {
    const fresh = await newPage(run);
    const problems: string[] = [];
    fresh.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    fresh.on('pageerror', (error) => problems.push(error.message));
    fresh.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    fresh.on('requestfailed', (request) => problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
    const form = fresh.getByLabel('API key', { exact: true });
    await fresh.goto(`${run.app.origin}/console`);
    await form.waitFor();
    await fresh.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    await signIn(fresh, run.app);
    // Reloading before its answer's body came in would abort the sign-out's request.
    const signedOut = fresh.waitForEvent('requestfinished', (request) => request.method() === 'DELETE');
    await fresh.getByRole('button', { name: 'Sign out' }).click();
    await form.waitFor();
    await signedOut;
    await fresh.reload();
    await form.waitFor();
    await fresh.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    await fresh.context().close();
  });

  it('refuses a wrong key with an alert, and is accessible', async () => {
    await page.goto(`${run.app.origin}/console/account`);
    await expect.poll(() => page.getByLabel('API key', { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshots(page, 'sign-in', true);
    await page.getByLabel('API key', { exact: true }).fill('sb_wrong_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Not the API's 401 body ("No API key provided."): a key was given, and it is not known.
    // Its command as it is typed: the console shows text, not Markdown, so no backticks.
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(
      'The hub knows no such API key (or it was revoked). Check it, or issue another with npm run admin -- create-key ACCOUNT.',
    );
    expect(await page.getByText('The key of your account, as given by the hub’s first start or npm run admin.', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });

  it('signs in with the key and keeps nothing of it in the browser, only that it signed in', async () => {
    await signIn(page, run.app);
    const kept = await page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      cookies: document.cookie,
    }));
    expect(kept).toEqual({ local: '{"switchboard-console-signed-in":"1"}', session: '{}', cookies: '' });
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'sb_session', httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).not.toContain(run.app.apiKey);
  });

  it('refuses calls carrying the cookie from other origins, same-site or cross-site', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Elsewhere</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const chatbotId = await createChatbotViaApi(run.app, 'Target');
    try {
      // The same browser profile, so the console's cookie goes wherever the browser sends it.
      const other = await page.context().newPage();
      for (const host of ['127.0.0.1', OTHER_HOST]) {
        await other.goto(`http://${host}:${port}/`);
        await uploadIcon(other, `${run.app.baseUrl}/upload-chatbot-icon`, chatbotId, {});
      }
      await other.close();
      expect((await fetch(`${run.app.origin}/assets/chatbots/${chatbotId}/icon`)).status).toBe(404);
      // The same upload from the console's own page goes through, so the refusals above were the guard's.
      await uploadIcon(page, '/api/v1/upload-chatbot-icon', chatbotId, { 'X-Switchboard-Console': '1' });
      expect((await fetch(`${run.app.origin}/assets/chatbots/${chatbotId}/icon`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('shows the sign-in page again, saying why, once the session has ended on the hub', async () => {
    const [cookie] = await page.context().cookies();
    const ended = await fetch(`${run.app.baseUrl}/console/session`, {
      method: 'DELETE',
      headers: { Cookie: `sb_session=${cookie?.value}`, Origin: run.app.origin, 'X-Switchboard-Console': '1' },
    });
    expect(ended.status).toBe(200);
    // The list is shown already: go elsewhere and back, so it asks the hub again.
    await page.getByRole('link', { name: 'New chatbot' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Chatbots' }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Your session has ended' }).count()).toBe(1);
  });

  it('signs out, ending the session on the hub', async () => {
    await signIn(page, run.app);
    const [cookie] = await page.context().cookies();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    const after = await fetch(`${run.app.baseUrl}/console/session`, { headers: { Cookie: `sb_session=${cookie?.value}` } });
    expect(after.status).toBe(401);
  });

  it('works by keyboard alone, with the focus visible', async () => {
    const keyboard = await newPage(run);
    await keyboard.goto(`${run.app.origin}/console`);
    await keyboard.getByLabel('API key', { exact: true }).waitFor();
    await keyboard.keyboard.press('Tab');
    expect(await keyboard.evaluate(() => document.activeElement?.id)).toBe(await keyboard.getByLabel('API key', { exact: true }).getAttribute('id'));
    await keyboard.keyboard.type(run.app.apiKey);
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('button', { name: 'Sign out' }).waitFor();
    // The page signed in to takes the focus, as any page the console opens does, rather than the body.
    await expect.poll(() => keyboard.evaluate(() => document.activeElement?.id)).toBe('content');
    await keyboard.keyboard.press('Shift+Tab');
    const focused = await keyboard.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return { text: element.textContent, outline: getComputedStyle(element).outlineStyle };
    });
    expect(focused).toEqual({ text: 'Sign out', outline: 'solid' });
    for (let step = 0; step < 4; step += 1) await keyboard.keyboard.press('Shift+Tab');
    expect(await keyboard.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await keyboard.context().close();
  });

  it('tells a keyboard and screen-reader user each page it opens: its title, the focus on it, from its top', async () => {
    const chatbotId = await createChatbotViaApi(run.app, 'Panadería Müller', 'Abrimos a las 7:00. Wir öffnen um 7 Uhr.');
    const keyboard = await newPage(run, 390);
    await signIn(keyboard, run.app);
    await expect.poll(() => keyboard.title()).toBe('Chatbots · Switchboard console');
    const focused = () => keyboard.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);

    // The link followed goes with the list it was in: the focus goes to the page, not the body.
    await keyboard.getByRole('link', { name: 'Panadería Müller' }).focus();
    await keyboard.keyboard.press('Enter');
    // The title follows the heading as it is drawn, the focus once the page is shown: either may come first.
    await expect.poll(() => keyboard.title()).toBe('Playground: Panadería Müller · Switchboard console');
    await expect.poll(focused).toBe('content');

    // From the foot of a long page, the next opens at its top, focused, rather than on the link that stays.
    await keyboard.goto(`${run.app.origin}/console/chatbots/${chatbotId}/sources`);
    await keyboard.getByRole('button', { name: 'Add question' }).waitFor();
    // At the foot, scrolled there again while the page still grows (its lists load after the form).
    const atFoot = () =>
      keyboard.evaluate(() => {
        window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
        return window.scrollY > 0 && Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight;
      });
    await expect.poll(atFoot).toBe(true);
    await keyboard.getByRole('link', { name: 'Settings' }).evaluate((link: HTMLElement) => link.focus({ preventScroll: true }));
    await keyboard.keyboard.press('Enter');
    await expect.poll(() => keyboard.title()).toBe('Settings: Panadería Müller · Switchboard console');
    await expect.poll(focused).toBe('content');
    expect(await keyboard.evaluate(() => window.scrollY)).toBe(0);

    // Signed out, the sign-in page takes the place of the page that was open: its title and the focus too.
    await keyboard.getByRole('button', { name: 'Sign out' }).focus();
    await keyboard.keyboard.press('Enter');
    await keyboard.getByLabel('API key', { exact: true }).waitFor();
    // Set once the form is drawn, as a page's are: either may come first.
    await expect.poll(() => keyboard.title()).toBe('Switchboard console');
    await expect.poll(focused).toBe('content');
    await keyboard.context().close();
  });

  it('keeps the focus of a keyboard user on what they pressed, or moves it where they go on', async () => {
    const chatbotId = await createChatbotViaApi(run.app, 'Bäckerei Weiß', 'Wir öffnen um 7 Uhr. Roggenbrot kostet 3,50 €.');
    await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, messages: [{ role: 'user', content: 'Do you sell bicycles?' }] });
    const keyboard = await newPage(run, 390);
    await signIn(keyboard, run.app);
    const focused = () => keyboard.evaluate(() => document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent);
    const open = (section: string) => keyboard.goto(`${run.app.origin}/console/chatbots/${chatbotId}/${section}`);

    // Send stays focused while the answer streams and after (a disabled button drops the focus).
    await open('playground');
    await keyboard.getByLabel('Message').fill('Was kostet Roggenbrot?');
    await keyboard.getByLabel('Message').focus();
    await keyboard.keyboard.press('Tab');
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('log').getByText('3,50 €').waitFor();
    await keyboard.locator('[aria-busy]').waitFor({ state: 'detached' });
    expect(await focused()).toBe('Send');

    // "Keep it" goes with the question it asked: the focus returns to Delete.
    await open('sources');
    await keyboard.getByRole('button', { name: 'Delete API text' }).focus();
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('Yes, delete “API text”');
    await keyboard.keyboard.press('Tab');
    expect(await focused()).toBe('Keep it, cancel “Delete API text”');
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('Delete API text');

    // Once "Yes, …" took its item away, the focus goes to the heading of the list it was in.
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('Yes, delete “API text”');
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('button', { name: 'Delete API text' }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Sources');

    // A form's button stays, and keeps the focus, while what it adds is saved: the next one can follow.
    await keyboard.getByLabel('Question', { exact: true }).fill('¿Tenéis pan sin gluten?');
    await keyboard.getByLabel('Answer', { exact: true }).fill('Sí, los jueves.');
    await keyboard.getByRole('button', { name: 'Add question' }).focus();
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('list', { name: 'Sources' }).getByText('¿Tenéis pan sin gluten?').waitFor();
    await keyboard.getByRole('status').filter({ hasText: 'Adding the answer' }).waitFor({ state: 'detached' });
    expect(await focused()).toBe('Add question');

    // A contact's Save keeps the focus while it saves, and its Delete asks as every Delete does.
    await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/contacts`, run.app.apiKey, { users: [{ external_id: 'guest-7', name: 'Jürgen' }] });
    await open('activity/contacts?contact=guest-7');
    await keyboard.getByLabel('Contact name').fill('Jürgen Weiß');
    await keyboard.getByRole('button', { name: 'Save contact' }).focus();
    await keyboard.keyboard.press('Enter');
    await keyboard.getByText('Contact saved.').waitFor();
    expect(await focused()).toBe('Save contact');
    await keyboard.getByRole('button', { name: 'Delete contact guest-7' }).focus();
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('Yes, delete contact “guest-7”');
    await keyboard.keyboard.press('Tab');
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('Delete contact guest-7');

    // Answer opens its form with the focus in it, and Cancel gives the focus back.
    await open('analytics');
    const answer = keyboard.getByRole('button', { name: 'Answer “Do you sell bicycles?”' });
    await answer.focus();
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('');
    expect(await keyboard.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await keyboard.getByRole('button', { name: 'Cancel' }).focus();
    await keyboard.keyboard.press('Enter');
    await expect.poll(focused).toBe('Answer “Do you sell bicycles?”');
    await keyboard.context().close();
  });

  it('signs in once with a one-time link, after a click', async () => {
    const account = await run.app.store.accounts.findById(run.app.accountId);
    if (!account) throw new Error('no account');
    const token = await createConsoleLink(run.app.store, account);
    const linkPage = await newPage(run);
    await linkPage.goto(`${run.app.origin}/console/link#${token}`);
    await expectAccessible(linkPage);
    await linkPage.getByRole('button', { name: 'Sign in' }).focus();
    await linkPage.keyboard.press('Enter');
    await linkPage.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(linkPage.url()).toBe(`${run.app.origin}/console`);
    await expect.poll(() => linkPage.evaluate(() => document.activeElement?.id)).toBe('content');
    await linkPage.context().close();

    const again = await newPage(run);
    await again.goto(`${run.app.origin}/console/link#${token}`);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => again.getByRole('alert').textContent()).toBe(
      'This link was used already or is more than 15 minutes old. Ask for a new one with npm run admin -- console-link ACCOUNT, or sign in with an API key.',
    );
    await again.context().close();
  });

  it('says in a plain sentence that sign-ins are paused after ten wrong keys from this address, even for the right key', async () => {
    // A hub of its own: the others' sign-ins come from this address too.
    const [sqlite] = storeTargets;
    if (!sqlite) throw new Error('no sqlite target');
    const hub = await startApp(sqlite);
    const paused = await newPage(run);
    try {
      for (let guess = 0; guess < 10; guess += 1) {
        const refused = await fetch(`${hub.baseUrl}/console/sessions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: hub.origin },
          body: JSON.stringify({ apiKey: `sb_guess${guess}` }),
        });
        expect(refused.status).toBe(401);
      }
      await paused.goto(`${hub.origin}/console`);
      await paused.getByLabel('API key', { exact: true }).fill(hub.apiKey);
      await paused.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => paused.getByRole('alert').textContent())
        .toBe('Too many sign-ins from your address failed, so the hub refuses more for a few minutes. Wait ten minutes, then try again.');
      expect(await paused.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
      await expectAccessible(paused);
    } finally {
      await paused.context().close();
      await hub.close();
    }
  });
});
