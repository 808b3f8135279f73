import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSourceWorker } from '../../jobs/sources/worker.js';
import { call, createChatbotViaApi } from '../support/http.js';
import type { SourceItem } from '../support/sources.js';
import { html, page as sitePage, serveSite, text, type Site } from '../support/website.js';
import { expectAccessible, newPage, signIn, startConsole, type ConsoleRun } from './console.js';

// Files and websites from the console: uploaded or named on the Sources page and on "New
// chatbot", read by the sources job (its passes run by the test, on a site served on 127.0.0.1),
// followed live in the list, refreshed, and cited under the Playground's answers.

const MAX_FILE_BYTES = 4 * 1024;
const MAX_CHARS = 100_000;
const DELIVERIES = '# Deliveries\n\nParcels are delivered to the loading bay behind building B.\n';

let run: ConsoleRun;
let page: Page;
let site: Site;
let folder: string;
let chatbotId: string;
let lunch = 'Lunch is served in the canteen from noon.';
/** Long enough for the Sources list's own polling (every 2 s while a source is being read). */
const LIST_POLL = { timeout: 10_000 };
const readSources = () =>
  createSourceWorker({ store: run.app.store, logger: pino({ level: 'silent' }), allowPrivate: true, maxCharsPerChatbot: MAX_CHARS, processId: 'console-test' }).tick();

beforeAll(async () => {
  run = await startConsole({ sourceLimits: { maxCharsPerChatbot: MAX_CHARS, maxFileBytes: MAX_FILE_BYTES }, sourcesAllowPrivate: true });
  site = await serveSite({
    '/robots.txt': text('User-agent: *\nDisallow: /private\n'),
    '/': html(sitePage('Handbook', '<p>Welcome to the Acme handbook.</p>', { links: ['/lunch', '/gone', '/private'] })),
    '/lunch': (request, response) => html(sitePage('Lunch', `<p>${lunch}</p>`))(request, response),
  });
  folder = await mkdtemp(join(tmpdir(), 'console-sources-'));
  await writeFile(join(folder, 'deliveries.md'), DELIVERIES);
  await writeFile(join(folder, 'too-big.txt'), 'x'.repeat(MAX_FILE_BYTES + 1));
  await writeFile(join(folder, 'photo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000009077', 'hex'));
  chatbotId = await createChatbotViaApi(run.app, 'Acme', 'Acme makes anvils.');
  page = await newPage(run);
  await signIn(page, run.app);
});
afterAll(async () => {
  await run.close();
  await site.close();
  await rm(folder, { recursive: true, force: true });
});

const sourcesOf = async (id: string) =>
  ((await call('GET', `${run.app.baseUrl}/chatbots/${id}/sources`, run.app.apiKey)).body as { data: SourceItem[] }).data;

describe('sources page', () => {
  it('uploads a file, follows it from queued to ready, and refreshes it', async () => {
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/sources`);
    await page.getByLabel('Files', { exact: true }).setInputFiles(join(folder, 'deliveries.md'));
    await page.getByRole('list', { name: 'Chosen files' }).getByText('deliveries.md').waitFor();
    await page.getByRole('button', { name: 'Upload files' }).click();
    const row = page.getByRole('list', { name: 'Sources' }).getByRole('listitem').filter({ hasText: 'deliveries.md' });
    await expect.poll(() => row.textContent()).toMatch(/deliveries\.md · file · queued/);
    expect(await readSources()).toBe(1);
    await expect.poll(() => row.textContent(), LIST_POLL).toMatch(/deliveries\.md · file · ready · 7\d characters/);
    await expectAccessible(page);

    await row.getByRole('button', { name: 'Refresh deliveries.md' }).click();
    await expect.poll(() => row.textContent()).toMatch(/· queued/);
    expect(await readSources()).toBe(1);
    await expect.poll(() => row.textContent(), LIST_POLL).toMatch(/· ready/);
  });

  it('tells by sight the list’s reload from a file’s “Refresh”, which reads the file again', async () => {
    // Found walking the console as a new owner: a "Refresh" under the list, beside each file's
    // "Refresh", read the list again only, and looked like reading every source again.
    const sources = page.getByRole('region', { name: 'Sources' });
    const refreshes = (within: Locator) => within.getByRole('button').filter({ hasText: /^\s*Refresh\s*$/ }).count();
    const inRows = await refreshes(sources.getByRole('list', { name: 'Sources' }));
    expect(inRows).toBe(1);
    expect(await refreshes(sources)).toBe(inRows);
    const read = page.waitForRequest((request) => request.method() === 'GET' && new URL(request.url()).pathname.endsWith(`/chatbots/${chatbotId}/sources`));
    await sources.getByRole('button', { name: 'Reload the list', exact: true }).click();
    await read;
  });

  // The API's refusal is the contract's bare "Invalid request data"; the page says what to change.
  it('says what to do when “Upload files” is pressed with no file chosen, and sends nothing', async () => {
    const form = page.getByRole('form', { name: 'Add files' });
    const sent: string[] = [];
    const record = (request: Request) => {
      if (request.method() === 'POST') sent.push(new URL(request.url()).pathname);
    };
    page.on('request', record);
    await form.getByRole('button', { name: 'Upload files' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Choose the files to upload, or drop them on “Files”, first.');
    page.off('request', record);
    expect(sent).toEqual([]);
  });

  it('explains a refused file (too large, or of another type) next to the field, and adds nothing', async () => {
    const form = page.getByRole('form', { name: 'Add files' });
    for (const name of ['too-big.txt', 'photo.png']) {
      await page.getByLabel('Files', { exact: true }).setInputFiles(join(folder, name));
      await page.getByRole('button', { name: 'Upload files' }).click();
      await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/^The hub refused the upload, so none of its files was added: .*PDF, Word \(DOCX\), Markdown, HTML or plain text .*size limit/);
      expect((await sourcesOf(chatbotId)).map((source) => source.title)).not.toContain(name);
    }
  });

  it('explains a text or question the hub refuses, and adds nothing', async () => {
    await page.getByLabel('Title').fill('t'.repeat(301));
    await page.getByLabel('Text', { exact: true }).fill('Visitors park in the north lot.');
    await page.getByRole('button', { name: 'Add text' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Add text' }).getByRole('alert').textContent()).toMatch(/^The hub refused the text: it needs a text that is not blank, of at most 12 million characters, and a title of at most 300\.$/);

    await page.getByLabel('Title').fill('Everything');
    await page.getByLabel('Text', { exact: true }).fill('x'.repeat(MAX_CHARS + 1));
    await page.getByRole('button', { name: 'Add text' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Add text' }).getByRole('alert').textContent()).toMatch(/^This chatbot’s sources already hold as much text as the hub allows/);

    await page.getByLabel('Question', { exact: true }).fill('q'.repeat(2_001));
    await page.getByLabel('Answer', { exact: true }).fill('Yes.');
    await page.getByRole('button', { name: 'Add question' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Add a question and answer' }).getByRole('alert').textContent()).toMatch(/^The hub refused the question: it needs a question of at most 2,000 characters and an answer of at most 20,000, neither blank\.$/);
    expect((await sourcesOf(chatbotId)).filter((source) => source.type !== 'file').map((source) => source.title)).toEqual(['API text']);
  });

  it('edits a question’s answer and a text in place, and the chatbot answers with the new ones', async () => {
    const add = (body: object) => call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/sources`, run.app.apiKey, body);
    await add({ type: 'qa', question: 'Is the canteen open on Saturdays?', answer: 'No, weekdays only.' });
    await add({ type: 'text', title: 'Parking', text: 'Visitors park in the north lot.' });
    const ask = async (content: string) =>
      ((await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId, messages: [{ role: 'user', content }] })).body as { text: string }).text;
    await page.reload();
    const list = page.getByRole('list', { name: 'Sources' });

    await list.getByRole('button', { name: 'Edit Is the canteen open on Saturdays?' }).click();
    const qa = list.getByRole('form', { name: 'Edit Is the canteen open on Saturdays?' });
    expect(await qa.getByLabel('Answer').inputValue()).toBe('No, weekdays only.');
    await qa.getByLabel('Answer').fill('x'.repeat(20_001));
    await qa.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => qa.getByRole('alert').textContent()).toMatch(/^The hub refused the question/);
    expect(await ask('Is the canteen open on Saturdays?')).toBe('No, weekdays only.');
    await qa.getByLabel('Answer').fill('Yes, from 10 to 2.');
    await expectAccessible(page);
    await qa.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => qa.count()).toBe(0);
    expect(await ask('Is the canteen open on Saturdays?')).toBe('Yes, from 10 to 2.');

    await list.getByRole('button', { name: 'Edit Parking' }).click();
    const text = list.getByRole('form', { name: 'Edit Parking' });
    await expect.poll(() => text.getByLabel('Text').inputValue()).toBe('Visitors park in the north lot.');
    await text.getByLabel('Text').fill('Visitors park in the south lot, by the gate.');
    await text.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => text.count()).toBe(0);
    expect(await ask('Where do visitors park?')).toMatch(/south lot/);
    // Neither a file nor a website is edited in place.
    expect(await list.getByRole('button', { name: 'Edit deliveries.md' }).count()).toBe(0);
  });

  it('takes files dropped on the zone', async () => {
    const form = page.getByRole('form', { name: 'Add files' });
    const dataTransfer = await page.evaluateHandle((text) => {
      const dropped = new DataTransfer();
      dropped.items.add(new File([text], 'dropped.md', { type: 'text/markdown' }));
      return dropped;
    }, '# Visitors\n\nVisitors sign in at the front desk and wear a badge.\n');
    await form.locator('.drop').dispatchEvent('drop', { dataTransfer });
    await form.getByRole('list', { name: 'Chosen files' }).getByText('dropped.md').waitFor();
    await page.getByRole('button', { name: 'Upload files' }).click();
    await expect.poll(async () => (await sourcesOf(chatbotId)).map((source) => source.title)).toContain('dropped.md');
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await readSources()).toBe(1);
  });

  it('adds a website with its page limit, shows its pages as they are read, and refreshes it', async () => {
    await page.getByLabel('Website URL').fill('ftp://example.com/');
    await page.getByRole('button', { name: 'Add website' }).click();
    const form = page.getByRole('form', { name: 'Add a website' });
    await expect.poll(() => form.getByRole('alert').textContent()).toBe(
      'The hub refused the address: give a web address starting with http:// or https://, without a user name or password.',
    );

    await page.getByLabel('Website URL').fill(`${site.origin}/`);
    await page.getByLabel('Max pages').fill('5');
    await page.getByRole('button', { name: 'Add website' }).click();
    const row = page.getByRole('list', { name: 'Sources' }).getByRole('listitem').filter({ hasText: '· website ·' });
    await expect.poll(() => row.textContent()).toMatch(/website · queued · 0 of 0 pages/);
    expect(await form.getByRole('alert').count()).toBe(0);
    const [website] = (await sourcesOf(chatbotId)).filter((source) => source.type === 'website');
    expect(website).toMatchObject({ url: `${site.origin}/`, maxPages: 5 });
    await readSources();
    // Its total counts skipped pages: "2 of 4 pages" would read as a crawl half done.
    await expect.poll(() => row.textContent(), LIST_POLL).toMatch(/website · ready · 2 pages read, 1 failed, 1 skipped ·/);
    await row.getByRole('button', { name: /^Preview / }).click();
    const pages = row.getByRole('table', { name: /^Pages of / });
    await expect.poll(async () => (await pages.getByRole('row').allInnerTexts()).map((line) => line.split('\t').map((cell) => cell.trim()))).toEqual([
      ['Address', 'Title', 'Status', 'Characters', 'Why'],
      [`${site.origin}/`, 'Handbook', 'read', expect.stringMatching(/^\d+$/), ''],
      [`${site.origin}/lunch`, 'Lunch', 'read', expect.stringMatching(/^\d+$/), ''],
      [`${site.origin}/gone`, '', 'failed', '0', 'The server answered 404 Not Found.'],
      [`${site.origin}/private`, '', 'skipped', '0', 'robots.txt disallows it for Switchboard.'],
    ]);
    await expectAccessible(page);

    // The site changes; the preview, left open, shows what the refresh read.
    const previewText = row.getByLabel(/^Text of /);
    expect(await previewText.textContent()).toMatch(/canteen from noon/);
    lunch = 'Lunch is served on the roof terrace from one.';
    await row.getByRole('button', { name: /^Refresh / }).click();
    await expect.poll(() => row.textContent()).toMatch(/website · queued/);
    await readSources();
    await expect.poll(() => row.textContent(), LIST_POLL).toMatch(/website · ready · 2 pages read, 1 failed, 1 skipped ·/);
    await expect.poll(() => previewText.textContent()).toMatch(/roof terrace from one/);

    // The same site again, spelt another way: read again with the new limit, not added twice.
    await page.getByLabel('Website URL').fill(`${site.origin}/#top`);
    await page.getByLabel('Max pages').fill('1');
    await page.getByRole('button', { name: 'Add website' }).click();
    await form.getByRole('status').getByText(`${site.origin}/ is one of this chatbot’s sources already: it is read again (with this page limit), not added twice.`).waitFor();
    await expect.poll(() => row.textContent()).toMatch(/website · queued/);
    expect((await sourcesOf(chatbotId)).filter((source) => source.type === 'website')).toMatchObject([{ id: website?.id, maxPages: 1 }]);
    await readSources();
    await expect.poll(() => row.textContent(), LIST_POLL).toMatch(/website · ready · 1 page read, 3 skipped ·/);
  });
});

describe('playground', () => {
  it('lists the titles of the sources each answer used, read after the stream ends', async () => {
    await page.getByRole('navigation', { name: 'Chatbot' }).getByRole('link', { name: 'Playground' }).click();
    await page.getByLabel('Message').fill('Where are parcels delivered?');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent()).toMatch(/loading bay/);
    const used = log.getByRole('list', { name: 'Sources used' });
    await expect.poll(() => used.getByRole('listitem').allTextContents()).toEqual(['deliveries.md']);
    await expectAccessible(page);
  });
});

describe('new chatbot', () => {
  it('adds files and a website as its first sources, after the chatbot', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Chatbots' }).click();
    await page.getByRole('link', { name: 'New chatbot' }).click();
    await page.getByLabel('Name').fill('Harbor Lights');
    await page.getByLabel('Files', { exact: true }).setInputFiles(join(folder, 'deliveries.md'));
    await page.getByLabel('Website URL').fill(`${site.origin}/`);
    await page.getByLabel('Max pages').fill('0');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.getByLabel('Max pages').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Max pages').fill('3');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('log').waitFor();
    const id = decodeURIComponent(/\/console\/chatbots\/([^/]+)\/playground$/.exec(new URL(page.url()).pathname)?.[1] ?? '');
    const made = await sourcesOf(id);
    expect(made.map(({ type, title, status }) => ({ type, title, status })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: 'file', title: 'deliveries.md', status: 'queued' },
      { type: 'website', title: expect.any(String), status: 'queued' },
    ]);
    expect(made.find((source) => source.type === 'website')).toMatchObject({ url: `${site.origin}/`, maxPages: 3 });
  });
});

describe('analytics', () => {
  it('explains an answer to an open question that would pass the character limit, and adds nothing', async () => {
    const full = await createChatbotViaApi(run.app, 'Full', 'Acme makes anvils. '.repeat(Math.floor(MAX_CHARS / 19)));
    await call('POST', `${run.app.baseUrl}/chat`, run.app.apiKey, { chatbotId: full, messages: [{ role: 'user', content: 'Do you sell pianos?' }] });
    await page.goto(`${run.app.origin}/console/chatbots/${full}/analytics`);
    const open = page.getByRole('list', { name: 'Open questions' });
    await open.getByRole('button', { name: 'Answer “Do you sell pianos?”' }).click();
    const form = open.getByRole('form', { name: 'Answer to “Do you sell pianos?”' });
    await form.getByLabel('Answer').fill('No, only anvils and the hammers for them.');
    await form.getByRole('button', { name: 'Save answer' }).click();
    await expect.poll(() => open.getByRole('alert').textContent()).toMatch(/^This chatbot’s sources already hold as much text as the hub allows/);
    expect((await sourcesOf(full)).map((source) => source.type)).toEqual(['text']);
    await open.getByText('Do you sell pianos?').waitFor();
  });
});
