import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page, Request } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookDispatcher } from '../../jobs/webhooks/dispatcher.js';
import { THUMB_PATH } from '../../adapters/thumb-icon.js';
import { call, createChatbotViaApi } from '../support/http.js';
import { buttonNames } from '../widget/browser.js';
import { expectAccessible, newPage, screenshots, SHOTS, signIn, startConsole, type ConsoleRun } from './console.js';

// Running a chatbot from the console: connecting it (widget, channels, digests, webhooks),
// reading its activity (conversations, ratings, leads, contacts) and the account's keys and quota.

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

let run: ConsoleRun;
let page: Page;
let chatbotId: string;
let receiver: Server;
let received = 0;

beforeAll(async () => {
  run = await startConsole({ webhookAllowPrivate: true });
  receiver = createServer((_req, res) => {
    received += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { app } = run;
  chatbotId = await createChatbotViaApi(app, 'Harbor Lights', 'Harbor Lights Bakery opens at seven in the morning on weekdays.');
  const api = (method: string, path: string, body?: unknown) => call(method, `${app.baseUrl}${path}`, app.apiKey, body);
  await api('POST', '/chat', { chatbotId, conversationId: 'api-1', messages: [{ role: 'user', content: 'When do you open?' }] });
  await api('POST', '/chat', { chatbotId, conversationId: 'slack-like', source: 'Slack', messages: [{ role: 'user', content: `Hello ${HOSTILE}` }] });
  await api('POST', `/chatbots/${chatbotId}/leads`, { name: `=HYPERLINK("x") ${HOSTILE}`, email: 'ada@example.com', phone: '+47 123 45 678' });
  await api('POST', `/chatbots/${chatbotId}/leads`, { name: 'Begoña Weiß 🥐', email: 'bego@example.com' });
  await api('POST', `/chatbots/${chatbotId}/contacts`, { users: [{ external_id: 'user-42', name: 'Ada', email: 'ada@example.com' }] });
  page = await newPage(run);
  await signIn(page, app);
});
afterAll(async () => {
  receiver.closeAllConnections();
  receiver.close();
  await run.close();
});

const dispatcher = (limits = { retryForMs: 60_000, disableAfterMs: 60_000 }) =>
  createWebhookDispatcher({ store: run.app.store, logger: pino({ level: 'silent' }), allowPrivate: true, timeoutMs: 5_000, ...limits });

/** The log is read again every 2 s while a test's delivery is pending: a read comes well within this. */
const LOG_POLL = { timeout: 10_000 };
/** Longer than two of those 2 s. */
const LOG_QUIET_MS = 5_000;

/** Counts the page's reads of a webhook's delivery log until stopped. */
function readsOfTheLog() {
  const reads = { count: 0, stop: () => page.off('request', count) };
  const count = (request: Request) => {
    if (request.method() === 'GET' && /\/integrations\/webhooks\/[^/]+\/deliveries$/.test(new URL(request.url()).pathname)) reads.count += 1;
  };
  page.on('request', count);
  return reads;
}

/** Adds a webhook from the Connect page; answers the signing secret shown for it. */
async function addWebhook(url: string): Promise<string | null> {
  const hooks = section('Webhooks');
  await hooks.getByLabel('Webhook URL').fill(url);
  await hooks.getByRole('button', { name: 'Add webhook' }).click();
  return hooks.locator('code.secret').textContent();
}

const chatbotPage = (section: string) => page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/${section}`);
const section = (name: string | RegExp) => page.getByRole('region', { name });

describe('connect', () => {
  it('shows the embed snippet with a copy button and the full-page link', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await chatbotPage('connect');
    const snippet = await page.getByLabel('Embed snippet').textContent();
    expect(snippet).toBe(`<script src="${run.app.origin}/widget/embed.js" data-chatbot-id="${chatbotId}" defer></script>`);
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
    expect(await page.getByRole('link', { name: `${run.app.origin}/widget/chatbots/${chatbotId}` }).count()).toBe(1);
    await expectAccessible(page);
  });

  it('adds and removes a Slack channel, and adds a digest', async () => {
    const channels = section('Slack and Discord channels');
    await channels.getByLabel('Workspace ID').fill('T0123');
    await channels.getByLabel('Channel ID').fill('C0456');
    await channels.getByRole('button', { name: 'Add channel' }).click();
    await channels.getByText('Slack T0123 / C0456 · mentions only').waitFor();
    const digests = section('Lead digests');
    await digests.getByLabel('Workspace ID').fill('T0123');
    await digests.getByLabel('Channel ID').fill('C0456');
    await digests.getByLabel('Time zone').fill('Europe/Oslo');
    await digests.getByRole('button', { name: 'Add digest' }).click();
    await digests.getByText(/Slack T0123 \/ C0456 · 09:00 Europe\/Oslo/).waitFor();
    await screenshots(page, 'connect', true);
    await channels.getByRole('button', { name: 'Remove Slack T0123 / C0456' }).click();
    await channels.getByText('No channels yet.').waitFor();
    const { body } = await call('GET', `${run.app.baseUrl}/integrations/digests?chatbotId=${chatbotId}`, run.app.apiKey);
    expect((body as { data: unknown[] }).data).toHaveLength(1);
  });

  it('shows under a digest how its latest day went, and why it was not posted', async () => {
    const { body } = await call('GET', `${run.app.baseUrl}/integrations/digests?chatbotId=${chatbotId}`, run.app.apiKey);
    const [digest] = (body as { data: { id: string; lastRun: unknown }[] }).data;
    if (!digest) throw new Error('the digest added above is missing');
    expect(digest.lastRun).toBeNull();
    const reason = 'the Slack bot is not in channel C0456 (not_in_channel): invite it there with /invite, or the digest fails every day';
    const scheduledAt = new Date('2026-03-10T08:00:00.000Z');
    const day = { digestId: digest.id, localDate: '2026-03-10', scheduledAt, claimedBy: 'clock', claimedAt: scheduledAt };
    await run.app.store.digestRuns.claim({ ...day, leaseUntil: new Date(scheduledAt.getTime() + 600_000) });
    await run.app.store.digestRuns.finish(digest.id, day.localDate, { status: 'failed', attempts: 1, error: reason, finishedAt: scheduledAt });
    await chatbotPage('connect');
    const digests = section('Lead digests');
    await digests.getByText(`Last run 2026-03-10: failed (${reason}).`).waitFor();
    // The button is named after the digest alone.
    await digests.getByRole('button', { name: 'Remove Slack T0123 / C0456 · 09:00 Europe/Oslo', exact: true }).waitFor();
    await expectAccessible(page);
  });

  // The API refuses each with the bare "Invalid request data"; the page says what to change.
  it('explains a refused channel, digest or webhook next to its form, and adds nothing', async () => {
    const channels = section('Slack and Discord channels');
    await channels.getByLabel('Workspace ID').fill('T0123 ABCD');
    await channels.getByLabel('Channel ID').fill('C0456');
    await channels.getByRole('button', { name: 'Add channel' }).click();
    await expect.poll(() => channels.getByRole('alert').textContent()).toMatch(/^The hub refused the channel: the workspace \(or server\) and channel IDs are up to 64 letters/);
    const digests = section('Lead digests');
    await digests.getByLabel('Workspace ID').fill('T0123');
    await digests.getByLabel('Channel ID').fill('C0456');
    await digests.getByLabel('Time zone').fill('Mars/Olympus');
    await digests.getByRole('button', { name: 'Add digest' }).click();
    await expect.poll(() => digests.getByRole('alert').textContent()).toMatch(/the time zone is an IANA name such as Europe\/Oslo\.$/);
    const hooks = section('Webhooks');
    await hooks.getByLabel('Webhook URL').fill('ftp://crm.example.com/hook');
    await hooks.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(() => hooks.getByRole('alert').textContent()).toMatch(/^The hub refused the address: a webhook needs an http:\/\/ or https:\/\/ URL/);
    // The one digest is the test before's.
    for (const kind of ['bindings', 'digests', 'webhooks']) {
      const { body } = await call('GET', `${run.app.baseUrl}/integrations/${kind}?chatbotId=${chatbotId}`, run.app.apiKey);
      expect((body as { data: unknown[] }).data, kind).toHaveLength(kind === 'digests' ? 1 : 0);
    }
  });

  it('adds a webhook, shows its secret once, sends a test and shows the delivery', async () => {
    const hooks = section('Webhooks');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const secret = await addWebhook(url);
    expect(secret).toMatch(/^whsec_/);
    const reads = readsOfTheLog();
    await hooks.getByRole('button', { name: `Send test to ${url}` }).click();
    await hooks.getByText('Event queued').waitFor();
    // Read once the send returned, and again while the test waits for the delivery job.
    await hooks.getByText('No deliveries yet.').waitFor();
    await expect.poll(() => reads.count, LOG_POLL).toBeGreaterThan(1);
    const outcomes = await dispatcher().tick();
    expect(outcomes.map(({ status }) => status)).toContain('delivered');
    expect(received).toBeGreaterThan(0);
    await hooks.getByRole('cell', { name: 'delivered' }).first().waitFor();
    // Delivered: the log is not read again.
    const once = reads.count;
    await page.waitForTimeout(LOG_QUIET_MS);
    expect(reads.count).toBe(once);
    reads.stop();
    await expectAccessible(page);
    await page.reload();
    await section('Webhooks').getByText(url).waitFor();
    expect(await page.getByText(secret ?? 'none').count()).toBe(0);
    // Its secret is gone with it, so it is removed only once confirmed.
    await section('Webhooks').getByRole('button', { name: `Remove ${url}` }).click();
    expect(await section('Webhooks').getByText(url, { exact: true }).count()).toBe(1);
    await section('Webhooks').getByRole('button', { name: `Yes, remove “${url}”` }).click();
    await section('Webhooks').getByText('No webhooks yet.').waitFor();
  });

  it('gives a webhook a new secret once confirmed, shows it once, and the hub keeps only the new one', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/rotated`;
    const old = await addWebhook(url);
    const row = section('Webhooks').getByRole('listitem').filter({ hasText: url });
    await row.getByRole('button', { name: `New secret ${url}` }).click();
    const yes = row.getByRole('button', { name: `Yes, new secret “${url}”` });
    // Asked first, saying what it costs: the secret is the same until confirmed.
    expect(await yes.getAttribute('aria-describedby').then((id) => page.locator(`[id="${id}"]`).textContent())).toMatch(/^The old secret stops working at once/);
    await expect.poll(() => yes.evaluate((button) => button === document.activeElement)).toBe(true);
    const { body } = await call('GET', `${run.app.baseUrl}/integrations/webhooks?chatbotId=${chatbotId}`, run.app.apiKey);
    const hook = (body as { data: { id: string; url: string }[] }).data.find((one) => one.url === url);
    if (!hook) throw new Error('the webhook just added is missing');
    const stored = async () => (await run.app.store.webhooks.findById(hook.id))?.secret;
    expect(await stored()).toBe(old);
    await yes.click();
    await row.getByText('Its new signing secret, shown this once').waitFor();
    const fresh = await row.locator('code.secret').textContent();
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(await stored()).toBe(fresh);
    // The secret it replaced, shown as the webhook was added, shows no more.
    expect(await page.getByText(old ?? 'none').count()).toBe(0);
    // The question is done with: the button is back, with the focus.
    await expect.poll(() => row.getByRole('button', { name: `New secret ${url}` }).evaluate((button) => button === document.activeElement)).toBe(true);
    await row.getByRole('button', { name: 'Copy secret' }).click();
    await row.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fresh);
    await expectAccessible(page);
    await page.reload();
    await section('Webhooks').getByText(url).waitFor();
    expect(await page.getByText(fresh ?? 'none').count()).toBe(0);
    await section('Webhooks').getByRole('button', { name: `Remove ${url}` }).click();
    await section('Webhooks').getByRole('button', { name: `Yes, remove “${url}”` }).click();
    await section('Webhooks').getByText('No webhooks yet.').waitFor();
  });

  it('turns on again a webhook the hub disabled, and sends a failed event again from its log', async () => {
    // The receiver is down for the first delivery, then back.
    let answers = 0;
    const flaky = createServer((_req, res) => res.writeHead((answers += 1) === 1 ? 503 : 200).end());
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const hooks = section('Webhooks');
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/flaky`;
      await hooks.getByLabel('Webhook URL').fill(url);
      await hooks.getByRole('button', { name: 'Add webhook' }).click();
      await hooks.getByRole('button', { name: `Send test to ${url}` }).click();
      await hooks.getByText('Event queued').waitFor();
      // Failed for good, and every delivery failing past the limit: the hub disables it.
      await dispatcher({ retryForMs: 0, disableAfterMs: 0 }).tick();
      await page.reload();
      const row = section('Webhooks').getByRole('listitem').filter({ hasText: url });
      await row.getByText(/disabled: every delivery failed/).waitFor();
      await row.getByRole('button', { name: `Turn on again ${url}` }).click();
      await expect.poll(() => row.textContent()).not.toContain('disabled');
      await row.getByRole('button', { name: `Delivery log of ${url}` }).click();
      await row.getByRole('cell', { name: 'failed' }).waitFor();
      await row.getByRole('button', { name: new RegExp(`^Send again to ${url}: ping of `) }).click();
      await row.getByText('Event queued').waitFor();
      await dispatcher().tick();
      await row.getByRole('cell', { name: 'delivered' }).waitFor();
      expect(answers).toBe(2);
      // Delivered in the end: nothing left to send again.
      expect(await row.getByRole('button', { name: /^Send again/ }).count()).toBe(0);
      await expectAccessible(page);
      await row.getByRole('button', { name: `Remove ${url}` }).click();
      await section('Webhooks').getByRole('button', { name: `Yes, remove “${url}”` }).click();
      await section('Webhooks').getByText('No webhooks yet.').waitFor();
    } finally {
      flaky.close();
    }
  });

  it('stops reading a test’s delivery log once the page is left', async () => {
    const hooks = section('Webhooks');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/left`;
    await hooks.getByLabel('Webhook URL').fill(url);
    await hooks.getByRole('button', { name: 'Add webhook' }).click();
    const reads = readsOfTheLog();
    await hooks.getByRole('button', { name: `Send test to ${url}` }).click();
    await expect.poll(() => reads.count, LOG_POLL).toBeGreaterThan(1);
    await page.getByRole('navigation', { name: 'Chatbot' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: /^Activity/ }).waitFor();
    const left = reads.count;
    await page.waitForTimeout(LOG_QUIET_MS);
    expect(reads.count).toBe(left);
    reads.stop();
  });

  it('names each row’s buttons for the item they act on, so no two buttons in Connect have one name', async () => {
    const api = async (method: string, path: string, body?: unknown) => (await call(method, `${run.app.baseUrl}${path}`, run.app.apiKey, body)).body as { data: { id: string } };
    // Two of each: webhooks whose test failed for good, so the hub disabled them and each row shows every button it has.
    const urls = ['http://127.0.0.1:9/first', 'http://127.0.0.1:9/second'];
    const made: string[] = [];
    try {
      // The leads waiting for their event are sent before these webhooks exist: each log holds only its ping.
      await dispatcher().tick();
      for (const url of urls) {
        const { data } = await api('POST', '/integrations/webhooks', { url, events: ['leads.submit'], chatbotId });
        made.push(`webhooks/${data.id}`);
        await api('POST', `/integrations/webhooks/${data.id}/test`);
      }
      for (const channelId of ['C1', 'C2']) {
        const channel = { platform: 'slack', workspaceId: 'T0123', channelId, chatbotId };
        made.push(`bindings/${(await api('POST', '/integrations/bindings', { ...channel, mode: 'mentions' })).data.id}`);
        made.push(`digests/${(await api('POST', '/integrations/digests', { ...channel, time: '09:00', timezone: 'Europe/Oslo', postWhenEmpty: false })).data.id}`);
      }
      await dispatcher({ retryForMs: 0, disableAfterMs: 0 }).tick();
      await chatbotPage('connect');
      for (const url of urls) {
        // Found by their words, whatever their names.
        const row = section('Webhooks').getByRole('listitem').filter({ hasText: url });
        const button = (words: string) => row.locator('button', { hasText: words });
        await button('Turn on again').waitFor();
        await button('Delivery log').click();
        await button('Send again').waitFor();
        // Both questions asked at once, each with its "Keep it".
        await button('Remove').click();
        await button('New secret').click();
        await expect.poll(() => button('Keep it').count()).toBe(2);
      }
      const names = await buttonNames(page);
      expect(names).toEqual(expect.arrayContaining(urls.flatMap((url) => [`Send test to ${url}`, `Refresh the log of ${url}`, `Keep it, cancel “New secret ${url}”`])));
      expect(names).toEqual(expect.arrayContaining(['Remove Slack T0123 / C1 · mentions only', 'Remove Slack T0123 / C2 · 09:00 Europe/Oslo']));
      expect(names.filter((name) => name.startsWith('Send again to ')).sort()).toEqual(urls.map((url) => expect.stringMatching(`^Send again to ${url}: ping of `)));
      expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    } finally {
      for (const item of made) await call('DELETE', `${run.app.baseUrl}/integrations/${item}`, run.app.apiKey);
    }
  });

  it('names apart the "Send again" of two failed events of one type, in one minute, in one log', async () => {
    const url = 'http://127.0.0.1:9/twice';
    await dispatcher().tick();
    const { body } = await call('POST', `${run.app.baseUrl}/integrations/webhooks`, run.app.apiKey, { url, events: ['leads.submit'], chatbotId });
    const { id } = (body as { data: { id: string } }).data;
    try {
      for (let test = 0; test < 2; test += 1) await call('POST', `${run.app.baseUrl}/integrations/webhooks/${id}/test`, run.app.apiKey);
      // Both fail for good in one run of the job: the same second, as a receiver's outage makes them.
      await dispatcher({ retryForMs: 0, disableAfterMs: 60_000 }).tick();
      await chatbotPage('connect');
      const row = section('Webhooks').getByRole('listitem').filter({ hasText: url });
      await row.getByRole('button', { name: `Delivery log of ${url}` }).click();
      await expect.poll(() => row.locator('button', { hasText: 'Send again' }).count()).toBe(2);
      const names = (await buttonNames(page)).filter((name) => name.startsWith(`Send again to ${url}: ping of `));
      expect(names).toHaveLength(2);
      expect(new Set(names).size).toBe(2);
      // Each is found, and sends its own event again, by its name.
      await row.getByRole('button', { name: names[1], exact: true }).click();
      await row.getByText('Event queued').waitFor();
    } finally {
      await call('DELETE', `${run.app.baseUrl}/integrations/webhooks/${id}`, run.app.apiKey);
    }
  });
});

describe('activity', () => {
  it('lists conversations, filters them by source and by text, and never runs their markup', async () => {
    await chatbotPage('activity');
    const list = page.getByRole('list', { name: 'Conversations' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByLabel('Source').selectOption('Slack');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Source').selectOption('');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByLabel('Search').fill('open');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Search').fill('');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expectAccessible(page);
  });

  it('explains a range of days it cannot list, rather than the API’s bare refusal', async () => {
    await page.getByLabel('From', { exact: true }).fill('2026-03-10');
    await page.getByLabel('To', { exact: true }).fill('2026-03-01');
    await page.getByRole('alert').getByText('“From” is after “To”: choose a From on or before the To.').waitFor();
    expect(await page.getByText('Invalid request data').count()).toBe(0);
    await page.getByLabel('From', { exact: true }).fill('');
    await page.getByLabel('To', { exact: true }).fill('');
    await expect.poll(() => page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').count()).toBe(2);
  });

  it('filters by the reader’s days, in the browser’s time zone, as Analytics does, and says so', async () => {
    // A zone whose date now is not UTC's: UTC+14 from 10:00 UTC, UTC−11 before.
    const timezoneId = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezoneId }).format(new Date());
    const utcToday = new Date().toISOString().slice(0, 10);
    const context = await run.browser.newContext({ timezoneId, viewport: { width: 1200, height: 800 } });
    const far = await context.newPage();
    await signIn(far, run.app);
    await far.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity`);
    const days = far.getByRole('group', { name: `Days in your time zone, ${timezoneId}` });
    const list = far.getByRole('list', { name: 'Conversations' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    // Both conversations began today in the reader's zone: on its date, not on UTC's.
    for (const [day, listed] of [[today, 2], [utcToday, 0]] as const) {
      await days.getByLabel('From', { exact: true }).fill(day);
      await days.getByLabel('To', { exact: true }).fill(day);
      await expect.poll(() => far.getByRole('status').filter({ hasText: /^\d+ conversations?$/ }).textContent()).toBe(`${listed} conversations`);
    }
    await context.close();
  });

  it('counts the chatbot’s conversations of the last 7 days of the reader’s time zone in the chatbots list', async () => {
    const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}`, run.app.apiKey);
    const began = (body as { data: { created_at: string }[] }).data.map((conversation) => Date.parse(conversation.created_at));
    const first = Math.min(...began);
    const HOUR = 3_600_000;
    const utcMidnight = first - (first % (24 * HOUR));
    // A reader six days on whose first day begins on the other side of the conversations than UTC's
    // does: in UTC+14 it began 14 hours before UTC's day, in UTC−11 11 hours after.
    const east = new Date(first).getUTCHours() >= 10;
    const timezoneId = east ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const firstDay = east ? utcMidnight + 24 * HOUR : utcMidnight;
    const context = await run.browser.newContext({ timezoneId, viewport: { width: 1200, height: 800 } });
    await context.clock.setFixedTime(firstDay + 6 * 24 * HOUR + (east ? 5 : 12) * HOUR);
    const far = await context.newPage();
    await signIn(far, run.app);
    const row = far.getByRole('row', { name: /Harbor Lights/ });
    await expect.poll(() => row.getByRole('cell').last().textContent()).toBe(east ? String(began.length) : '0');
    await context.close();
  });

  it('opens a transcript and rates an answer Helpful', async () => {
    await page.getByRole('link', { name: 'When do you open?' }).click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    expect(await transcript.getByRole('list', { name: 'Sources used' }).getByRole('listitem').allTextContents()).toEqual(['API text']);
    await transcript.getByRole('button', { name: 'Helpful', exact: true }).click();
    await expect.poll(() => transcript.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await expectAccessible(page);
    await screenshots(page, 'activity', true);
    const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}&filteredSources=API`, run.app.apiKey);
    const [conversation] = (body as { data: { messages: { role: string; feedback?: string }[] }[] }).data;
    expect(conversation?.messages.find((message) => message.role === 'assistant')?.feedback).toBe('up');
  });

  it('draws the transcript’s thumbs as the widget draws them: one thumb, turned over for Not helpful, hidden from screen readers', async () => {
    const rating = page.getByRole('log', { name: 'Transcript' }).getByRole('group', { name: 'Rate this answer' }).first();
    const drawn = (name: string) =>
      rating.getByRole('button', { name, exact: true }).evaluate((button) =>
        [...button.querySelectorAll('svg')].map((icon) => ({
          hidden: icon.getAttribute('aria-hidden'),
          stroke: icon.getAttribute('stroke'),
          paths: [...icon.querySelectorAll('path')].map((path) => ({ d: path.getAttribute('d'), transform: path.getAttribute('transform') })),
        })),
      );
    const thumb = (transform: string | null) => [{ hidden: 'true', stroke: 'currentColor', paths: [{ d: THUMB_PATH, transform }] }];
    expect(await drawn('Helpful')).toEqual(thumb(null));
    expect(await drawn('Not helpful')).toEqual(thumb('rotate(180 12 12)'));
  });

  it('revises an answer: the transcript shows the revision under it, and the chatbot gives it from then on', async () => {
    const transcript = page.getByRole('log', { name: 'Transcript' });
    const answer = transcript.locator('.bubble.assistant').first();
    await answer.getByRole('button', { name: 'Revise' }).click();
    const form = answer.getByRole('form', { name: 'Revise this answer' });
    await form.getByLabel('Revised answer').fill('We open at half past six on weekdays.');
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save revision' }).click();
    await answer.getByText('We open at half past six on weekdays.').waitFor();
    expect(await answer.getByRole('form').count()).toBe(0);
    const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}&filteredSources=API`, run.app.apiKey);
    const [conversation] = (body as { data: { messages: { role: string; content: string; revision?: { answer: string } }[] }[] }).data;
    expect(conversation?.messages.find((message) => message.role === 'assistant')).toMatchObject({
      content: expect.stringMatching(/seven in the morning/),
      revision: { answer: 'We open at half past six on weekdays.' },
    });
    const { body: reply } = await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, messages: [{ role: 'user', content: 'When do you open?' }] });
    expect(reply).toEqual({ text: 'We open at half past six on weekdays.' });
    // Read again, the transcript shows the answer as it was given and its revision.
    await page.reload();
    await expect.poll(() => transcript.locator('.bubble.assistant').first().textContent()).toMatch(/seven in the morning.*Revised answer.*half past six/s);
  });

  it('shows where a handoff stands and marks the team’s reply by its author, rating or revising neither it nor the waiting message', async () => {
    const api = (path: string, body?: unknown) => call('POST', `${run.app.baseUrl}${path}`, run.app.apiKey, body);
    await api('/update-chatbot-settings', { chatbotId, handoff: { enabled: true, platform: 'slack', workspaceId: 'T1', channelId: 'C1' } });
    await api('/chat', { chatbotId, conversationId: 'handed', messages: [{ role: 'user', content: 'Can I talk to a person?' }] });
    await api(`/chatbots/${chatbotId}/conversations/handed/handoff/messages`, { name: 'Ada', text: 'Hi, Ada here. How can I help?' });
    await chatbotPage('activity?conversation=handed');
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('Hi, Ada here. How can I help?').waitFor();
    expect(await page.getByRole('region', { name: /^Conversation of / }).getByText(/handoff: with the team \(Ada\)/).count()).toBe(1);
    const team = transcript.locator('.bubble').filter({ hasText: 'Hi, Ada here.' });
    expect(await team.textContent()).toBe('Ada (team)Hi, Ada here. How can I help?');
    // Neither the team's reply nor the chatbot's "I am asking someone…" is an answer to rate or correct.
    expect(await transcript.locator('.bubble').filter({ hasText: 'I am asking someone from the team' }).count()).toBe(1);
    expect(await transcript.getByRole('group', { name: 'Rate this answer' }).count()).toBe(0);
    expect(await transcript.getByRole('button', { name: /^Revise/ }).count()).toBe(0);
    await expectAccessible(page);
  });

  /** A person asks for the team in a new conversation; its transcript opens with Sinead's reply typed, not sent. */
  const handedOff = async (conversationId: string, question: string, answer: string) => {
    await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, conversationId, messages: [{ role: 'user', content: question }] });
    await chatbotPage(`activity?conversation=${conversationId}`);
    const reply = page.getByRole('form', { name: 'Reply as the team' });
    await reply.getByLabel('Your name').fill('Sinead');
    await reply.getByLabel('Reply').fill(answer);
    return reply;
  };

  it('replies to an open handoff under the team member’s name and hands it back to the chatbot', async () => {
    // Found handing a Tallyho widget visitor to the team of a chatbot whose team works in the
    // console: the transcript said "waiting for the team", and nothing in the console could answer.
    const reply = await handedOff('console-team', 'I need to speak to a human please', 'Hi, Sinead here. What can I do?');
    await screenshots(page, 'activity-team-reply');
    await expectAccessible(page);
    await reply.getByRole('button', { name: 'Send reply' }).click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.getByText('Hi, Sinead here. What can I do?').waitFor();
    await section(/^Conversation of /).getByText(/handoff: with the team \(Sinead\)/).waitFor();
    expect(await reply.getByLabel('Reply').inputValue()).toBe('');
    const saved = async () => {
      const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}`, run.app.apiKey);
      type Saved = { id: string; handoff?: { status: string }; messages: { content: string; author?: { name: string } }[] };
      return (body as { data: Saved[] }).data.find((conversation) => conversation.id === 'console-team');
    };
    expect((await saved())?.messages.at(-1)).toMatchObject({ content: 'Hi, Sinead here. What can I do?', author: { type: 'human', name: 'Sinead' } });
    // The person's answer appears without a reload, and a reply being typed meanwhile stays.
    await reply.getByLabel('Reply').fill('Let me look');
    await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, conversationId: 'console-team', messages: [{ role: 'user', content: 'My invoice 1042 bounced' }] });
    await transcript.getByText('My invoice 1042 bounced').waitFor();
    expect(await reply.getByLabel('Reply').inputValue()).toBe('Let me look');

    await reply.getByRole('button', { name: 'Hand back to the chatbot' }).click();
    await section(/^Conversation of /).getByText('handoff: handed back to the chatbot').waitFor();
    expect(await reply.count()).toBe(0);
    expect((await saved())?.handoff?.status).toBe('resolved');
  });

  it('says a handoff closed meanwhile can no longer be answered, keeping the reply that was not sent', async () => {
    // Found as Harbour House's receptionist: the sentence showed for an instant, then the form went
    // with the reply typed in it, as the transcript was read again and the handoff was closed.
    const reply = await handedOff('closed-meanwhile', 'Can I talk to a person?', 'Still there? We have a room on the 12th.');
    // The transcript's rereading (every 3 s) waits until the reply is sent: had it found the
    // handoff closed first, the form would be gone before the click, and the test would hang.
    let reread!: () => void;
    const rereading = new Promise<void>((resolve) => (reread = resolve));
    await page.route(/\/conversations/, async (route) => {
      if (route.request().method() === 'GET') await rereading;
      await route.continue();
    });
    await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/conversations/closed-meanwhile/handoff/resolve`, run.app.apiKey);
    // The reply to a handoff shown waiting takes it first: that call is the one refused.
    const refused = page.waitForResponse((response) => /\/handoff\/(take|messages)$/.test(response.url()));
    await reply.getByRole('button', { name: 'Send reply' }).click();
    expect((await refused).status()).toBe(404);
    reread();
    await page.unroute(/\/conversations/);
    await section(/^Conversation of /).getByText('handoff: handed back to the chatbot').waitFor();
    expect(await reply.count()).toBe(0);
    const alert = page.getByRole('alert').filter({ hasText: 'This handoff is closed' });
    expect(await alert.textContent()).toContain('Still there? We have a room on the 12th.');
    await page.getByRole('link', { name: 'When do you open?' }).click();
    await section(/^Conversation of /).getByText('When do you open?').first().waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('marks the conversations waiting for the team, or with it, in the list', async () => {
    // Found as Harbour House's receptionist: a guest asked for a person, and the list of
    // conversations gave no sign of which one it was.
    const api = (path: string, body?: unknown) => call('POST', `${run.app.baseUrl}${path}`, run.app.apiKey, body);
    await api('/update-chatbot-settings', { chatbotId, handoff: { enabled: true } });
    await api('/chat', { chatbotId, conversationId: 'waiting-in-list', messages: [{ role: 'user', content: 'I want a human, please' }] });
    await chatbotPage('activity');
    const item = (conversationId: string) =>
      page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ has: page.locator(`a[href$="conversation=${conversationId}"]`) });
    await item('waiting-in-list').waitFor();
    expect(await item('waiting-in-list').textContent()).toContain('handoff: waiting for the team');
    expect(await item('handed').textContent()).toContain('handoff: with the team (Ada)');
    // Handed back, and never handed off:
    expect(await item('console-team').textContent()).not.toContain('handoff');
    expect(await item('api-1').textContent()).not.toContain('handoff');
    await expectAccessible(page);
  });

  it('shows new conversations and handoff requests in an open list by itself, in place, and asks nothing while hidden', async () => {
    // Found leaving the console open as Harbour House's receptionist: a guest's new conversation,
    // and their asking for a person in one already listed, showed only after a reload.
    const say = (conversationId: string, content: string) =>
      call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, conversationId, messages: [{ role: 'user', content }] });
    const open = await newPage(run);
    await open.clock.install();
    await signIn(open, run.app);
    await open.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/conversations?conversation=api-1`);
    const list = open.getByRole('list', { name: 'Conversations' });
    const item = (conversationId: string) =>
      list.getByRole('listitem').filter({ has: open.locator(`a[href$="conversation=${conversationId}"]`) });
    await item('api-1').waitFor();
    await open.getByLabel('Source', { exact: true }).selectOption('API');
    await expect.poll(() => item('slack-like').count()).toBe(0);
    // Marks the list's element: a list built anew (losing its scroll position) would lose the mark.
    await list.evaluate((element) => element.setAttribute('data-marked', ''));

    await say('arrives-later', 'Do you bake sourdough?');
    await open.clock.fastForward(10_000);
    await item('arrives-later').waitFor();
    expect(await item('arrives-later').textContent()).not.toContain('handoff');
    await say('arrives-later', 'I want a human, please');
    await open.clock.fastForward(10_000);
    await expect.poll(() => item('arrives-later').textContent()).toContain('handoff: waiting for the team');
    expect(await list.getAttribute('data-marked')).toBe('');
    expect(await open.getByLabel('Source', { exact: true }).inputValue()).toBe('API');
    expect(await item('slack-like').count()).toBe(0);
    await open.getByRole('region', { name: /^Conversation of / }).getByText('When do you open?').first().waitFor();

    // A reading that fails (the hub restarting) keeps the list, the transcript and a reply being typed.
    await item('arrives-later').getByRole('link').click();
    const reply = open.getByRole('form', { name: 'Reply as the team' });
    await reply.getByLabel('Reply').fill('Hello, Sinead here');
    await open.route(/\/get-conversations/, (route) => route.fulfill({ status: 503, json: { message: 'Service unavailable' } }));
    await open.clock.fastForward(3_000);
    await open.getByRole('alert').filter({ hasText: 'Service unavailable' }).waitFor();
    expect(await reply.getByLabel('Reply').inputValue()).toBe('Hello, Sinead here');
    expect(await list.getAttribute('data-marked')).toBe('');
    await open.unroute(/\/get-conversations/);
    await open.clock.fastForward(3_000);
    await expect.poll(() => open.getByRole('alert').count()).toBe(0);
    expect(await reply.getByLabel('Reply').inputValue()).toBe('Hello, Sinead here');
    await open.getByRole('button', { name: 'Close' }).click();

    // A hidden tab asks nothing, and reads again as soon as it is shown.
    const show = (state: 'hidden' | 'visible') =>
      open.evaluate((visibility) => {
        Object.defineProperty(document, 'visibilityState', { value: visibility, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    let asked = 0;
    open.on('request', (request) => {
      if (request.url().includes('/get-conversations')) asked += 1;
    });
    await show('hidden');
    await say('while-hidden', 'Are you open on Sundays?');
    await open.clock.fastForward(60_000);
    expect(asked).toBe(0);
    await show('visible');
    await item('while-hidden').waitFor();
    // One reading: the conversations, and the open handoffs listed first.
    expect(asked).toBe(2);
    await open.context().close();
  });

  it('keeps a conversation opened far down a long list in view beside it', async () => {
    // Found walking a busy day at Harbour House's front desk: a conversation far down the list,
    // clicked, opened at the top of the page, out of sight, and nothing seemed to happen.
    await chatbotPage('activity');
    const links = page.getByRole('list', { name: 'Conversations' }).getByRole('link');
    const clicked = links.last();
    await clicked.click();
    const title = page.getByRole('heading', { name: /^Conversation of / });
    const inView = (target: Locator) =>
      target.evaluate((element) => {
        const { top, bottom } = element.getBoundingClientRect();
        return top >= 0 && Math.floor(bottom) <= window.innerHeight;
      });
    await expect.poll(() => inView(title)).toBe(true);
    expect(await title.evaluate((element) => element === document.activeElement)).toBe(true);
    // Beside the list, not at the top of the page: the conversation clicked is still in view too.
    expect(await inView(clicked)).toBe(true);
  });

  it('lists leads and exports them as CSV, formulas defused, marked as UTF-8 for spreadsheets', async () => {
    await page.getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    // The byte-order mark: without it Excel reads "Begoña" in the system's code page.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv.split('\r\n')[0]).toBe('name,email,phone,created_at');
    expect(csv).toContain('Begoña Weiß 🥐,bego@example.com,,');
    expect(csv).toContain(`"'=HYPERLINK(""x"") ${HOSTILE.replaceAll('"', '""')}",ada@example.com,+47 123 45 678,`);
    await expectAccessible(page);
  });

  it('views, edits and deletes a contact', async () => {
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('link', { name: 'Ada' }).click();
    await page.getByLabel('Contact name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await page.getByText('Contact saved.').waitFor();
    await expectAccessible(page);
    const { body } = await call('GET', `${run.app.baseUrl}/chatbots/${chatbotId}/contacts/user-42`, run.app.apiKey);
    expect((body as { data: { name: string } }).data.name).toBe('Ada Lovelace');
    await page.getByRole('button', { name: 'Delete contact' }).click();
    await page.getByRole('button', { name: 'Yes, delete contact “user-42”' }).click();
    await page.getByText('No contacts yet.').waitFor();
  });

  it('lists the contacts a hundred at a time, saying how many there are', async () => {
    const users = Array.from({ length: 101 }, (_, index) => ({ external_id: `customer-${String(index).padStart(3, '0')}`, name: `Customer ${index}` }));
    await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/contacts`, run.app.apiKey, { users });
    await page.reload();
    const list = page.getByRole('list', { name: 'Contacts' });
    await page.getByRole('status').getByText('100 of 101 contacts shown.', { exact: true }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(100);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('status').getByText('101 contacts.', { exact: true }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(101);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('shows new leads and contacts in an open list by itself, keeping the table, the pages loaded and the open contact', async () => {
    // Found leaving the console open on Leads at Harbour House's front desk: a guest's details,
    // left in the widget, showed only after a reload.
    const api = (path: string, body: unknown) => call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}${path}`, run.app.apiKey, body);
    const open = await newPage(run);
    await open.clock.install();
    await signIn(open, run.app);
    await open.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/leads`);
    const table = open.getByRole('table');
    await table.getByRole('cell', { name: 'ada@example.com', exact: true }).waitFor();
    // Marks the table: one built anew (losing its scroll position) would lose the mark.
    await table.evaluate((element) => element.setAttribute('data-marked', ''));
    await api('/leads', { name: 'Grace', email: 'grace@example.com' });
    await open.clock.fastForward(10_000);
    await table.getByRole('cell', { name: 'grace@example.com', exact: true }).waitFor();
    expect(await table.getAttribute('data-marked')).toBe('');

    await open.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/contacts?contact=customer-000`);
    const list = open.getByRole('list', { name: 'Contacts' });
    await open.getByRole('button', { name: 'Load more' }).click();
    await open.getByRole('status').getByText('101 contacts.', { exact: true }).waitFor();
    await open.getByLabel('Contact name').fill('Customer zero, typed');
    await list.evaluate((element) => element.setAttribute('data-marked', ''));
    await api('/contacts', { users: [{ external_id: 'arrives-later', name: 'Late guest' }] });
    await open.clock.fastForward(10_000);
    await open.getByRole('status').getByText('102 contacts.', { exact: true }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(102);
    await list.getByRole('link', { name: 'Late guest' }).waitFor();
    expect(await list.getAttribute('data-marked')).toBe('');
    expect(await open.getByLabel('Contact name').inputValue()).toBe('Customer zero, typed');
    await open.context().close();
  });
  it('reads only the newest page of three pages of leads each time it reads the list again, showing new and corrected leads', async () => {
    const busy = await createChatbotViaApi(run.app, 'Busy Harbour');
    const addLead = (body: Record<string, string>) => call('POST', `${run.app.baseUrl}/chatbots/${busy}/leads`, run.app.apiKey, body);
    // 250 leads, oldest first: pages of 100 make three. The newest one's conversation corrects it later.
    for (let start = 0; start < 250; start += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, offset) => start + offset).map((index) => addLead({ email: `guest-${index}@example.com` })));
    }
    await addLead({ email: 'newest@example.com', conversationId: 'newest-chat' });
    const open = await newPage(run);
    await open.clock.install();
    await signIn(open, run.app);
    const reads: string[] = [];
    open.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/get-leads')) reads.push(request.url());
    });
    await open.goto(`${run.app.origin}/console/chatbots/${busy}/activity/leads`);
    const table = open.getByRole('table');
    await table.getByRole('cell', { name: 'guest-0@example.com', exact: true }).waitFor();
    expect(reads).toHaveLength(3);

    await addLead({ name: 'Grace', email: 'grace@example.com' });
    await addLead({ email: 'newest@corrected.example', conversationId: 'newest-chat' });
    await open.clock.fastForward(10_000);
    await table.getByRole('cell', { name: 'grace@example.com', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'newest@corrected.example', exact: true }).waitFor();
    // One page read again, and every lead still shown, once, newest first.
    expect(reads).toHaveLength(4);
    const emails = await table.getByRole('row').evaluateAll((rows) => rows.slice(1).map((row) => row.children[1]?.textContent));
    const guests = Array.from({ length: 250 }, (_, index) => `guest-${index}@example.com`);
    expect(emails).toHaveLength(252);
    expect(new Set(emails)).toEqual(new Set(['grace@example.com', 'newest@corrected.example', ...guests]));
    await open.context().close();
  });
});

describe('account', () => {
  it('shows the quota, creates a key shown once, and revokes it', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Account' }).click();
    await page.getByText(/Messages in \d{4}-\d{2}: \d+ of 1,000$/).waitFor();
    await page.getByLabel('Key label').fill('CRM sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('code.secret').textContent()) ?? '';
    const row = page.getByRole('row', { name: /CRM sync/ });
    await expect.poll(() => row.textContent()).toContain(`${key.slice(0, 6)}`);
    expect((await call('GET', `${run.app.baseUrl}/get-chatbots`, key)).status).toBe(200);
    await expectAccessible(page);
    await screenshots(page, 'account', true);
    await page.reload();
    expect(await page.getByText(key).count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke CRM sync' }).click();
    // A key that integrations may use is revoked only once confirmed.
    expect((await call('GET', `${run.app.baseUrl}/get-chatbots`, key)).status).toBe(200);
    await page.getByRole('button', { name: 'Yes, revoke “CRM sync”' }).click();
    await expect.poll(() => page.getByRole('row', { name: /CRM sync/ }).count()).toBe(0);
    expect((await call('GET', `${run.app.baseUrl}/get-chatbots`, key)).status).toBe(401);
  });

  // A write shown as done has had its answer read to the end: an answer left unread keeps its
  // request open, and a reload right after aborts it.
  it('reads the answer of a key revoked before showing it gone, so a reload right after aborts nothing', async () => {
    const created = await call('POST', `${run.app.baseUrl}/api-keys`, run.app.apiKey, { label: 'Old sync' });
    expect(created.status).toBe(201);
    const failed: string[] = [];
    const note = (request: Request) => failed.push(`${request.method()} ${request.url()} ${request.failure()?.errorText}`);
    page.on('requestfailed', note);
    await page.goto(`${run.app.origin}/console/account`);
    await page.getByRole('button', { name: 'Revoke Old sync' }).click();
    await page.getByRole('button', { name: 'Yes, revoke “Old sync”' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Old sync/ }).count()).toBe(0);
    await page.reload();
    await page.getByRole('region', { name: 'API keys' }).getByRole('table').waitFor();
    page.off('requestfailed', note);
    expect(failed).toEqual([]);
  });

  it('explains why the last key, the one signed in with, cannot be revoked', async () => {
    const [last] = ((await call('GET', `${run.app.baseUrl}/api-keys`, run.app.apiKey)).body as { data: { label: string }[] }).data;
    await page.getByRole('button', { name: `Revoke ${last?.label}` }).click();
    await page.getByRole('button', { name: `Yes, revoke “${last?.label}”` }).click();
    // The API's 403 body is "Access denied or quota exceeded".
    await expect.poll(() => page.getByRole('region', { name: 'API keys' }).getByRole('alert').textContent()).toMatch(/^This is the account’s last key/);
    expect((await call('GET', `${run.app.baseUrl}/get-chatbots`, run.app.apiKey)).status).toBe(200);
  });
});

describe('at 360 px', () => {
  it('keeps every page inside the screen', async () => {
    const narrow = await newPage(run, 360);
    await signIn(narrow, run.app);
    const sections = ['playground', 'sources', 'settings', 'connect', 'activity', 'activity/leads', 'activity/contacts', 'analytics'];
    for (const path of ['', '/account', ...sections.map((name) => `/chatbots/${chatbotId}/${name}`)]) {
      await narrow.goto(`${run.app.origin}/console${path}`);
      await narrow.getByRole('heading', { level: 1 }).waitFor();
      // The tables too: a table wider than the screen scrolls inside its frame, not the page.
      await narrow.waitForLoadState('networkidle');
      const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
    }
    await screenshots(narrow, 'activity-360');
    await narrow.context().close();
  });

  it('brings a conversation opened from the list into view, under the list on a narrow screen', async () => {
    const narrow = await newPage(run, 360);
    await signIn(narrow, run.app);
    await narrow.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity`);
    await narrow.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: 'When do you open?' }).click();
    const heading = narrow.getByRole('heading', { name: /^Conversation of / });
    const transcript = narrow.getByRole('log', { name: 'Transcript' });
    // Its heading and the start of its messages are on the screen.
    const onScreen = async () =>
      (await heading.evaluate((element) => element.getBoundingClientRect().top >= 0)) &&
      (await transcript.evaluate((element) => element.getBoundingClientRect().top + 100 < window.innerHeight));
    await expect.poll(onScreen).toBe(true);
    expect(await narrow.evaluate(() => document.activeElement?.id)).toBe('transcript-title');
    // Closed, it gives the focus back to where it was opened from, not to the top of the page.
    await narrow.getByRole('button', { name: 'Close' }).focus();
    await narrow.keyboard.press('Enter');
    await heading.waitFor({ state: 'detached' });
    expect(await narrow.evaluate(() => document.activeElement?.textContent)).toBe('When do you open?');
    await narrow.context().close();
  });
});

// Last: its fifty more conversations push the earlier ones off the list's first page.
describe('a busy day', () => {
  it('says when the list holds only the newest conversations, and loads the older ones', async () => {
    // Found on a busy day at Harbour House's front desk: "50 conversations" read as all of them,
    // while twenty older ones, a guest waiting for the team among them, were behind "Load more".
    const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}&size=100`, run.app.apiKey);
    const before = (body as { data: unknown[] }).data.length;
    const ask = (number: number) =>
      call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, conversationId: `busy-${number}`, messages: [{ role: 'user', content: `Is breakfast included in room ${number}?` }] });
    await Promise.all(Array.from({ length: 52 - before }, (_, index) => ask(before + index)));
    await chatbotPage('activity');
    const status = page.getByRole('status').filter({ hasText: /conversation/ });
    await expect.poll(() => status.textContent()).toBe('50 conversations, of the newest 50: “Load more” for older ones');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => status.textContent()).toBe('52 conversations');
    await page.getByLabel('Search').fill('sourdough');
    await expect.poll(() => status.textContent()).toBe('1 conversation');
    await page.getByLabel('Search').fill('');
  });

  it('draws the transcript beside the list where the page lays it out, however far the page is scrolled', async () => {
    // A sticky transcript was drawn where the scroll had left it: a full-page screenshot of the
    // scrolled page showed its column blank above it, down to where the window was.
    const links = page.getByRole('list', { name: 'Conversations' }).getByRole('link');
    await links.last().click();
    const transcript = page.getByRole('region', { name: /^Conversation of / });
    const onPage = () => transcript.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    const laidOut = await onPage();
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    expect(await onPage()).toBe(laidOut);
    await page.screenshot({ path: `${SHOTS}/activity-scrolled.png`, fullPage: true });
    // The list scrolls beside it, as far as its last conversation.
    await links.last().scrollIntoViewIfNeeded();
    expect(await onPage()).toBe(laidOut);
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('lists the open handoffs first, however many newer conversations there are, with no “Load more”', async () => {
    // Found on a busy day at Harbour House's front desk: a guest who asked for a person before
    // fifty others wrote in waited behind "Load more", where nobody looked.
    const api = (path: string, body: unknown) => call('POST', `${run.app.baseUrl}${path}`, run.app.apiKey, body);
    await api('/update-chatbot-settings', { chatbotId, handoff: { enabled: true } });
    await api('/chat', { chatbotId, conversationId: 'waited-long', messages: [{ role: 'user', content: 'I want a human, please' }] });
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        api('/chat', { chatbotId, conversationId: `later-${index}`, messages: [{ role: 'user', content: `Is parking free for car ${index}?` }] }),
      ),
    );
    await chatbotPage('activity');
    const waitedLong = (list: Locator) => list.getByRole('listitem').filter({ has: page.locator('a[href$="conversation=waited-long"]') });
    const handoffs = page.getByRole('list', { name: 'Open handoffs' });
    await waitedLong(handoffs).waitFor();
    expect(await waitedLong(handoffs).textContent()).toContain('handoff: waiting for the team');
    // Older than the newest 50, so not among the conversations shown before "Load more".
    const conversations = page.getByRole('list', { name: 'Conversations' });
    await expect.poll(() => conversations.getByRole('listitem').count()).toBe(50);
    expect(await waitedLong(conversations).count()).toBe(0);
    await waitedLong(handoffs).getByRole('link').click();
    await page.getByRole('form', { name: 'Reply as the team' }).waitFor();
    await expectAccessible(page);
  });
});

describe('in Spanish and German', () => {
  it('finds conversations whatever the accents, capitals or ß typed, and shows each message in its own direction', async () => {
    const bakery = await createChatbotViaApi(run.app, 'Panadería Müller', 'El roscón de Reyes cuesta 24,00 €. Die Straße heißt Calle Mayor.');
    const ask = (conversationId: string, content: string) =>
      call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId: bakery, conversationId, messages: [{ role: 'user', content }] });
    await ask('es-1', '¿Cuánto cuesta el ROSCÓN?');
    await ask('de-1', 'Welche Straße, Frau Müller?');
    await ask('ar-1', 'مرحبا، هل لديكم خبز؟');
    await page.goto(`${run.app.origin}/console/chatbots/${bakery}/activity`);
    const list = page.getByRole('list', { name: 'Conversations' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    const found = async (typed: string) => {
      await page.getByLabel('Search').fill(typed);
      await expect.poll(() => list.getByRole('listitem').count()).toBeLessThan(3);
      return list.getByRole('link').allTextContents();
    };
    expect(await found('roscon')).toEqual(['¿Cuánto cuesta el ROSCÓN?']);
    expect(await found('cuánto cuesta el roscón')).toEqual(['¿Cuánto cuesta el ROSCÓN?']);
    expect(await found('strasse')).toEqual(['Welche Straße, Frau Müller?']);
    expect(await found('MULLER')).toEqual(['Welche Straße, Frau Müller?']);
    await page.getByLabel('Search').fill('');

    // Each message reads in its own direction: an Arabic visitor's right to left, the reply left to right.
    await list.getByRole('link', { name: 'مرحبا، هل لديكم خبز؟' }).click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    const direction = (text: string) => transcript.getByText(text).evaluate((node) => getComputedStyle(node).direction);
    expect(await direction('مرحبا')).toBe('rtl');
    expect(await direction("I'm sorry")).toBe('ltr');
  });
});

describe('a long conversation', () => {
  /** The boxes around `target` that hold more than they show (scrolled or cut), innermost first. */
  const cutBy = (target: Locator) =>
    target.evaluate((element) => {
      const boxes: string[] = [];
      for (let box = element.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowY !== 'visible' && box.scrollHeight > box.clientHeight + 1) boxes.push(box.className || box.tagName);
      }
      return boxes;
    });

  it('scrolls a transcript taller than the window within the page on a screen, and draws it whole printed or pictured full-page, at 1280 and 375 px', async () => {
    const tours = await createChatbotViaApi(run.app, 'Harbor Tours', 'Harbor Tours sails at ten every morning from pier four, weather allowing.');
    for (let turn = 1; turn <= 8; turn += 1) {
      await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId: tours, conversationId: 'long-talk', messages: [{ role: 'user', content: `When do you sail, question ${turn}?` }] });
    }
    for (const width of [1280, 375]) {
      const reader = await newPage(run, width);
      await signIn(reader, run.app);
      await reader.goto(`${run.app.origin}/console/chatbots/${tours}/activity?conversation=long-talk`);
      const last = reader.getByRole('log', { name: 'Transcript' }).getByText('When do you sail, question 8?');
      await last.waitFor();
      // On a screen the transcript scrolls within the window's height, and its end can be read.
      expect({ width, cut: (await cutBy(last)).length > 0 }).toEqual({ width, cut: true });
      await last.scrollIntoViewIfNeeded();
      const onScreen = await last.evaluate((element) => {
        const { top, bottom } = element.getBoundingClientRect();
        return top >= 0 && Math.floor(bottom) <= window.innerHeight;
      });
      expect({ width, onScreen }).toEqual({ width, onScreen: true });
      // Printed, and in a full-page picture, nothing around it cuts it off.
      await reader.emulateMedia({ media: 'print' });
      expect({ width, cutBy: await cutBy(last) }).toEqual({ width, cutBy: [] });
      await reader.emulateMedia({ media: null });
      await screenshots(reader, `activity-long-${width}`);
      await reader.context().close();
    }
  });
});

describe('conversations that begin alike', () => {
  let rooms: string;

  it('tells them apart in the list by the contact’s name and email, the Slack or Discord channel or the API caller’s id, and the time', async () => {
    rooms = await createChatbotViaApi(run.app, 'Harbor Rooms', 'Harbor Rooms has twelve rooms by the quay.');
    const api = (path: string, body: unknown) => call('POST', `${run.app.baseUrl}${path}`, run.app.apiKey, body);
    await api(`/chatbots/${rooms}/contacts`, { users: [{ external_id: 'slack:T1:U1', name: 'Ada', email: 'ada@example.com' }, { external_id: 'slack:T1:U2', name: 'Bo' }] });
    const hello = (conversationId: string, source: string, contactId?: string) =>
      api('/chat', { chatbotId: rooms, conversationId, source, contactId, messages: [{ role: 'user', content: 'Hi' }] });
    await hello('slack:T1:C111:1.1', 'Slack', 'slack:T1:U1');
    await hello('slack:T1:C222:2.2', 'Slack', 'slack:T1:U2');
    // A contact the hub does not have adds nothing.
    await hello('discord:dm:D333', 'Discord', 'discord:U3');
    await hello('rooms-4', 'API');
    await hello('rooms-5', 'API');
    await page.goto(`${run.app.origin}/console/chatbots/${rooms}/activity`);
    const items = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(5);
    const details = items.locator('div.muted');
    await expect.poll(() => details.allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Ada · ada@example\.com · Slack · channel C111 · .+ · 2 messages$/),
        expect.stringMatching(/^Bo · Slack · channel C222 · .+ · 2 messages$/),
        expect.stringMatching(/^Discord · direct message · .+ · 2 messages$/),
        expect.stringMatching(/^API · rooms-4 · .+ · 2 messages$/),
        expect.stringMatching(/^API · rooms-5 · .+ · 2 messages$/),
      ]),
    );
    const texts = await details.allTextContents();
    expect(new Set(texts).size).toBe(texts.length);
    await items.filter({ hasText: 'Ada' }).getByRole('link').click();
    await expect.poll(() => page.getByRole('region', { name: /^Conversation of / }).locator('p.muted').first().textContent()).toBe(
      'Slack · channel C111 · contact slack:T1:U1 (Ada · ada@example.com)',
    );
  });

  it('names a widget visitor who left their details by the lead collected in the conversation, reading no leads for it', async () => {
    const desk = await createChatbotViaApi(run.app, 'Harbor Desk', 'Harbor Desk answers questions about the harbour.');
    await call('POST', `${run.app.baseUrl}/update-chatbot-settings`, run.app.apiKey, {
      chatbotId: desk,
      visibility: 'public',
      collectCustomerInformation: { name: { active: true }, email: { active: true } },
    });
    const widget = (path: string, body: unknown) => call('POST', `${run.app.origin}/widget/chatbots/${desk}${path}`, undefined, body);
    const [leftDetails, anonymous] = [`wc_${'l'.repeat(24)}`, `wc_${'a'.repeat(24)}`];
    for (const conversationId of [leftDetails, anonymous]) expect((await widget('/chat', { conversationId, message: 'Hi' })).status).toBe(200);
    expect((await widget('/leads', { conversationId: leftDetails, name: 'Begoña Weiß', email: 'bego@example.com' })).status).toBe(200);
    const leadReads: string[] = [];
    const countLeadReads = (request: Request) => {
      if (new URL(request.url()).pathname.includes('leads')) leadReads.push(request.url());
    };
    page.on('request', countLeadReads);
    await page.goto(`${run.app.origin}/console/chatbots/${desk}/activity`);
    const items = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await expect.poll(() => items.locator('div.muted').allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Begoña Weiß · bego@example\.com · Widget or Iframe · .+ · 2 messages$/),
        expect.stringMatching(/^Widget or Iframe · .+ · 2 messages$/),
      ]),
    );
    // Searched by who it is with, accents or none, as by its words.
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('begona weiß · BEGO@');
    await expect.poll(() => items.locator('div.muted').allTextContents()).toEqual([expect.stringMatching(/^Begoña Weiß · bego@example\.com/)]);
    await search.fill('');
    await expect.poll(() => items.count()).toBe(2);
    await items.filter({ hasText: 'Begoña' }).getByRole('link').click();
    await expect.poll(() => page.getByRole('region', { name: /^Conversation of / }).locator('p.muted').first().textContent()).toBe(
      'Widget or Iframe · lead (Begoña Weiß · bego@example.com)',
    );
    page.off('request', countLeadReads);
    expect(leadReads).toEqual([]);
  });

  it('lists the conversations when their contacts cannot be read, without their names', async () => {
    const reader = await newPage(run);
    await signIn(reader, run.app);
    await reader.route(/\/contacts\//, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal server error' }) }));
    await reader.goto(`${run.app.origin}/console/chatbots/${rooms}/activity`);
    const details = reader.getByRole('list', { name: 'Conversations' }).getByRole('listitem').locator('div.muted');
    await expect.poll(() => details.count()).toBe(5);
    expect((await details.allTextContents()).filter((text) => /Ada|Bo/.test(text))).toEqual([]);
    await reader.context().close();
  });
});
