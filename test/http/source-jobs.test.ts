import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSourceWorker, type SourceWorker } from '../../jobs/sources/worker.js';
import type { Store } from '../../src/store/port.js';
import { call, createChatbotViaApi, INVALID, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import type { SourceItem } from '../support/sources.js';
import { storeTargets, type SharedDatabase } from '../support/stores.js';
import { html, page, serveSite, type Route, type Site } from '../support/website.js';
import { docxOf, docxUnpackingTo, MEETING_ROOMS, pdfOf } from '../sources/extract/documents.js';

// Files and websites end to end: uploaded or named over HTTP, read by the sources job (its passes
// run by the test, so nothing depends on timing), then listed, shown and answered from.

const silent = pino({ level: 'silent' });
const MAX_CHARS = 100_000;
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const worker = (store: Store, processId = 'test') =>
  createSourceWorker({ store, logger: silent, allowPrivate: true, maxCharsPerChatbot: MAX_CHARS, processId, crawl: { pageTimeoutMs: 2_000 } });

/** A small handbook site: a home page linking three pages, one of them a duplicate by its canonical link. */
function handbook(gate?: Promise<void>): (site: { origin: string }) => Record<string, Route> {
  return ({ origin }) => ({
    '/': html(page('Handbook', '<p>Welcome to the Acme handbook.</p>', { links: ['/parking', '/lunch', '/parking-copy'] })),
    '/parking': html(page('Parking', '<p>Staff park in the blue garage on Quay Street.</p>')),
    '/lunch': async (request, response) => {
      await gate;
      html(page('Lunch', '<p>Lunch is served in the canteen from noon.</p>'))(request, response);
    },
    '/parking-copy': html(
      page('Parking', '<p>Staff park in the blue garage on Quay Street.</p>', { head: `<link rel="canonical" href="${origin}/parking">` }),
    ),
  });
}

/** A lamp shop whose home page is also served as /index.html (gated), with no canonical link. */
function mirroredHome(gate?: Promise<void>): Record<string, Route> {
  const home = html(page('Lamp Shop', '<p>We sell brass desk lamps with linen shades.</p>', { links: ['/returns', '/index.html'] }));
  return {
    '/': home,
    '/returns': html(page('Returns', '<p>Return a lamp within 30 days.</p>')),
    '/index.html': async (request, response) => {
      await gate;
      home(request, response);
    },
  };
}

describe.each(storeTargets.filter((t) => t.available))('$name store: file and website sources', (target) => {
  let app: TestApp;
  let bot: string;
  let site: Site | undefined;

  beforeEach(async () => {
    app = await startApp(target, { sourceLimits: { maxCharsPerChatbot: MAX_CHARS, maxFileBytes: 64 * 1024 }, sourcesAllowPrivate: true });
    bot = await createChatbotViaApi(app, 'Acme', 'Acme makes anvils.');
  });
  afterEach(async () => {
    await site?.close();
    site = undefined;
    await app.close();
  });

  const sources = `/chatbots/{bot}/sources`;
  const url = (path = '') => `${app.baseUrl}${sources.replace('{bot}', bot)}${path}`;
  const upload = async (files: { name: string; bytes: Uint8Array | string; type?: string; part?: string }[]) => {
    const form = new FormData();
    for (const file of files) form.append(file.part ?? 'file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
    const response = await fetch(url(), { method: 'POST', headers: { Authorization: `Bearer ${app.apiKey}` }, body: form });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const list = async () => ((await call('GET', url(), app.apiKey)).body as { data: SourceItem[] }).data;
  const detail = async (id: string) => ((await call('GET', url(`/${id}`), app.apiKey)).body as { data: SourceItem }).data;
  const ask = async (question: string) =>
    ((await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, messages: [{ role: 'user', content: question }] })).body as { text: string }).text;

  it('reads uploaded files (202, queued) into ready sources the chatbot answers from', async () => {
    const docx = await docxOf(MEETING_ROOMS);
    const pdf = await pdfOf({ title: 'Floor plan', sections: [{ heading: 'Lifts', paragraphs: ['The lifts are beside the north stairs.'], bullets: [], steps: [] }] });
    const markdown = '# Deliveries\n\nParcels are delivered to the loading bay behind building B.\n';
    const { status, body } = await upload([
      { name: 'rooms.docx', bytes: docx },
      { name: 'deliveries.txt', bytes: markdown },
      { name: 'floors.pdf', bytes: pdf },
    ]);
    expect(status).toBe(202);
    const queued = (body as { data: SourceItem[] }).data;
    expect(queued.sort((a, b) => (a.title < b.title ? -1 : 1))).toMatchObject([
      // The type is judged on upload, from the content: Markdown, whatever the name says.
      { type: 'file', title: 'deliveries.txt', filename: 'deliveries.txt', contentType: 'text/markdown', status: 'queued' },
      { type: 'file', title: 'floors.pdf', filename: 'floors.pdf', contentType: 'application/pdf', bytes: pdf.byteLength, status: 'queued' },
      { type: 'file', title: 'rooms.docx', filename: 'rooms.docx', contentType: DOCX_TYPE, bytes: docx.byteLength, status: 'queued', chars: 0 },
    ]);

    // The job reads each file's bytes back from the store, as a hub does; two at once.
    const job = worker(app.store);
    expect((await job.tick()) + (await job.tick())).toBe(3);

    const files = await list();
    const rooms = files.find((file) => file.filename === 'rooms.docx');
    const deliveries = files.find((file) => file.filename === 'deliveries.txt');
    expect(rooms).toMatchObject({ status: 'ready', error: null, contentType: DOCX_TYPE });
    expect(rooms?.chars).toBeGreaterThan(50);
    expect(deliveries).toMatchObject({ status: 'ready', contentType: expect.stringMatching(/markdown/) });
    expect((await detail(rooms?.id ?? '')).text).toContain('Room: Kestrel; Floor: 3; Code: KES-4105');
    expect(await ask('Where are parcels delivered?')).toContain('loading bay');
    expect(await ask('What is the code of the Kestrel room?')).toContain('KES-4105');
    expect(files.find((file) => file.filename === 'floors.pdf')).toMatchObject({ status: 'ready', error: null, contentType: 'application/pdf' });
    expect(await ask('Where are the lifts?')).toContain('north stairs');
  });

  it('lists the files of one upload in the order of their parts, each created after the one before', async () => {
    const names = ['zebra', 'apple', 'mango', 'kiwi', 'banana', 'cherry', 'lemon', 'fig'].map((fruit) => `${fruit}.md`);
    const { status, body } = await upload(names.map((name) => ({ name, bytes: `# ${name}\n\nA note on ${name}.` })));
    expect(status).toBe(202);
    expect((body as { data: SourceItem[] }).data.map((source) => source.filename)).toEqual(names);
    const [, ...files] = await list();
    expect(files.map((file) => file.filename)).toEqual(names);
    const created = files.map((file) => Date.parse(file.created_at));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(new Set(created).size).toBe(names.length);
  });

  it('keeps a file’s base name alone, without control characters, at most 255 characters, as its filename and title', async () => {
    // Written by hand: a browser's form would clean the names on its side.
    const boundary = 'switchboard-names';
    const sent = ['../../etc/passwd', 'C:\\x\\a.pdf', 'bell\u0007\u001b[31mred\u007f.md', 'report\u202egpj.exe', `${'n'.repeat(300)}.md`, 'dir/', '..', ' '];
    const parts = sent.map(
      (name, k) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n# Note ${k}\n\nA note.\r\n`,
    );
    const response = await fetch(url(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: `${parts.join('')}--${boundary}--\r\n`,
    });
    expect(response.status).toBe(202);
    const shown = ['passwd', 'a.pdf', 'bell[31mred.md', 'reportgpj.exe', 'n'.repeat(255), 'file', 'file', 'file'];
    expect(((await response.json()) as { data: SourceItem[] }).data.map((source) => [source.filename, source.title])).toEqual(shown.map((name) => [name, name]));
    const [, ...files] = await list();
    expect(files.map((file) => [file.filename, file.title])).toEqual(shown.map((name) => [name, name]));
  });

  it('fails a damaged file with one sentence, and answers from the others', async () => {
    const docx = await docxOf(MEETING_ROOMS);
    const { status } = await upload([{ name: 'broken.docx', bytes: docx.subarray(0, docx.byteLength / 2) }]);
    expect(status).toBe(202);
    await worker(app.store).tick();
    const [, broken] = await list();
    expect(broken).toMatchObject({ status: 'failed', chars: 0, contentType: DOCX_TYPE });
    expect(broken?.error).toMatch(/^The file .*\.$/);
    expect(await ask('What does Acme make?')).toContain('anvils');
  });

  it('fails a file or website whose text would take the chatbot past its character limit, saying so', async () => {
    site = await serveSite(handbook());
    await upload([{ name: 'long.txt', bytes: 'Parcels go to the loading bay. '.repeat(100) }]);
    await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 });
    const small = createSourceWorker({ store: app.store, logger: silent, allowPrivate: true, maxCharsPerChatbot: 100 });
    expect(await small.tick()).toBe(2);
    const listed = await list();
    const [file, website] = (['file', 'website'] as const).map((type) => listed.find((source) => source.type === type));
    expect(file).toMatchObject({ status: 'failed', error: expect.stringMatching(/^The file holds \d+ characters of text, which would take the chatbot past its limit of 100 characters of sources\.$/) });
    expect(website).toMatchObject({ status: 'failed', error: expect.stringMatching(/^The website holds \d+ characters .* limit of 100 characters of sources\.$/) });
    expect(await ask('Where do parcels go?')).not.toContain('loading bay');
    expect(await ask('What does Acme make?')).toContain('anvils');
  });

  it('fails a file whose text a source added after its reading takes past the character limit: the settle decides', async () => {
    const text = 'Parcels go to the loading bay. '.repeat(1_900);
    await upload([{ name: 'long.txt', bytes: text }]);
    // The add lands once the file is read and its room checked, before its text is written.
    const added: { status: number }[] = [];
    const settle: Store['sources']['settle'] = async (...args) => {
      if (added.length === 0) added.push(await call('POST', url(), app.apiKey, { type: 'text', title: 'Hours', text: 'Open from nine. '.repeat(3_000) }));
      return app.store.sources.settle(...args);
    };
    expect(await worker({ ...app.store, sources: { ...app.store.sources, settle } }).tick()).toBe(1);
    expect(added).toMatchObject([{ status: 201 }]);
    const listed = await list();
    expect(listed.find((source) => source.type === 'file')).toMatchObject({
      status: 'failed',
      chars: 0,
      error: `The file holds ${text.trim().length} characters of text, which would take the chatbot past its limit of ${MAX_CHARS} characters of sources.`,
    });
    expect(listed.reduce((sum, source) => sum + source.chars, 0)).toBeLessThanOrEqual(MAX_CHARS);
    expect(await ask('Where do parcels go?')).not.toContain('loading bay');
  });

  it('refuses an unsupported, oversized or empty file, a file outside the file parts or more than ten files, up front with 400, and stores none of the upload', async () => {
    const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(await upload([{ name: 'fine.md', bytes: '# Fine\n\nA fine file.' }, { name: 'blob.bin', bytes: binary }])).toEqual({ status: 400, body: INVALID });
    expect(await upload([{ name: 'huge.txt', bytes: 'x'.repeat(65 * 1024) }])).toEqual({ status: 400, body: INVALID });
    expect(await upload([{ name: 'fine.md', bytes: '# Fine\n\nA fine file.' }, { name: 'empty.txt', bytes: '' }])).toEqual({ status: 400, body: INVALID });
    // A file in a part of another name would be dropped unread: the upload is refused whole.
    const misplaced = [{ name: 'fine.md', bytes: '# Fine\n\nA fine file.' }, { name: 'other.md', bytes: '# Other\n\nAnother file.', part: 'files' }];
    expect(await upload(misplaced)).toEqual({ status: 400, body: INVALID });
    const eleven = Array.from({ length: 11 }, (_, index) => ({ name: `part-${index}.md`, bytes: `# Part ${index}\n\nA part.` }));
    expect(await upload(eleven)).toEqual({ status: 400, body: INVALID });
    expect(await list()).toHaveLength(1);
  });

  it('refuses up front with 400 a DOCX that unpacks to more than the file limit, however small the file', async () => {
    // A zip bomb: a 1.4 MB DOCX unpacking to 400 MB of XML held the extraction worker for 87 s and 4.8 GB.
    const bomb = await docxUnpackingTo(MEETING_ROOMS, 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect(await upload([{ name: 'bomb.docx', bytes: bomb }])).toEqual({ status: 400, body: INVALID });
    const fits = await docxUnpackingTo(MEETING_ROOMS, 32 * 1024);
    expect((await upload([{ name: 'fits.docx', bytes: fits }])).status).toBe(202);
    expect((await list()).map((source) => source.title)).toEqual(['API text', 'fits.docx']);
  });

  it('refreshes a file (202): read again, answering from its last reading meanwhile', async () => {
    const { body } = await upload([{ name: 'deliveries.md', bytes: '# Deliveries\n\nParcels go to the loading bay behind building B.\n' }]);
    const [file] = (body as { data: SourceItem[] }).data;
    await worker(app.store).tick();
    const read = await detail(file?.id ?? '');
    expect(read).toMatchObject({ status: 'ready', contentType: 'text/markdown' });

    const refreshed = await call('POST', url(`/${file?.id}/refresh`), app.apiKey);
    expect(refreshed.status).toBe(202);
    expect((refreshed.body as { data: SourceItem }).data).toMatchObject({ status: 'queued', filename: 'deliveries.md', bytes: read.bytes });
    expect(await ask('Where do parcels go?')).toContain('loading bay');
    expect(await worker(app.store).tick()).toBe(1);
    expect(await detail(file?.id ?? '')).toMatchObject({ status: 'ready', chars: read.chars, text: read.text });
    expect(await ask('Where do parcels go?')).toContain('loading bay');
  });

  it('crawls a website (202) into a ready source with its pages, and answers from them', async () => {
    site = await serveSite(handbook());
    const { status, body } = await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 });
    expect(status).toBe(202);
    const queued = (body as { data: SourceItem }).data;
    expect(queued).toMatchObject({ type: 'website', status: 'queued', url: `${site.origin}/`, pages: { done: 0, failed: 0, total: 0 } });

    await worker(app.store).tick();

    const crawled = await detail(queued.id);
    expect(crawled).toMatchObject({ status: 'ready', error: null, pages: { done: 3, failed: 0 } });
    expect(crawled.pageList?.filter((item) => item.status === 'read').map((item) => item.url).sort()).toEqual(
      ['/', '/lunch', '/parking'].map((path) => `${site?.origin}${path}`),
    );
    expect(crawled.pageList?.find((item) => item.url.endsWith('/parking-copy'))?.status).toBe('skipped');
    expect(crawled.text).toContain('blue garage');
    expect(await ask('Where do staff park?')).toContain('Quay Street');
    // The answer cites the page it drew on, with its title and URL.
    const question = { chatbotId: bot, conversationId: 'parking', messages: [{ role: 'user', content: 'Where do staff park?' }] };
    await call('POST', `${app.baseUrl}/chat`, app.apiKey, question);
    const { body: saved } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
    const [conversation] = (saved as { data: { messages: { role: string; sources?: unknown }[] }[] }).data;
    expect(conversation?.messages.find((message) => message.role === 'assistant')?.sources).toEqual([
      { id: queued.id, title: 'Parking', url: `${site.origin}/parking` },
    ]);
  });

  it('cites a page once when two website sources read it', async () => {
    // Found teaching a support bot its whole docs site and then, with /chatbot learn, its changelog:
    // the second crawl read the same pages, and Slack's reply ended "Sources: Pricing (…/pricing/),
    // Pricing (…/pricing/)".
    site = await serveSite(handbook());
    for (const start of ['/', '/parking']) await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}${start}`, maxPages: 10 });
    await worker(app.store).tick();
    expect((await list()).filter((source) => source.type === 'website').map((source) => source.status)).toEqual(['ready', 'ready']);

    const question = { chatbotId: bot, conversationId: 'parking-twice', messages: [{ role: 'user', content: 'Where do staff park?' }] };
    await call('POST', `${app.baseUrl}/chat`, app.apiKey, question);
    const { body: saved } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
    const [conversation] = (saved as { data: { messages: { role: string; sources?: { url?: string }[] }[] }[] }).data;
    const cited = conversation?.messages.find((message) => message.role === 'assistant')?.sources;
    expect(cited?.map((source) => source.url)).toEqual([`${site.origin}/parking`]);
  });

  it('reads a page served under two URLs once, the other skipped as its duplicate, its text in the material once', async () => {
    site = await serveSite(mirroredHome());
    const created = (await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 })).body as { data: SourceItem };
    await worker(app.store).tick();

    const crawled = await detail(created.data.id);
    expect(crawled).toMatchObject({ status: 'ready', pages: { done: 2, failed: 0, total: 3 } });
    expect(crawled.pageList?.find((item) => item.url === `${site?.origin}/index.html`)).toEqual({
      url: `${site.origin}/index.html`,
      title: '',
      status: 'skipped',
      chars: 0,
      reason: `It is a duplicate of ${site.origin}/.`,
    });
    expect(crawled.text?.split('brass desk lamps')).toHaveLength(2);
  });

  it('refuses a website with maxPages outside 1 to 1,000, a URL that is not http(s) or one with a password, with 400', async () => {
    for (const input of [
      { type: 'website', url: 'https://example.com/', maxPages: 0 },
      { type: 'website', url: 'https://example.com/', maxPages: 1_001 },
      { type: 'website', url: 'ftp://example.com/' },
      // Credentials would show in every citation of its pages.
      { type: 'website', url: 'https://bob:hunter2@example.com/' },
      { type: 'website' },
    ]) {
      expect(await call('POST', url(), app.apiKey, input)).toEqual({ status: 400, body: INVALID });
    }
    expect(await list()).toHaveLength(1);
  });

  it('refuses a website on the hub\'s own network up front with 400, creating nothing, unless SOURCES_ALLOW_PRIVATE', async () => {
    // Found in a walk-through: accepted with 202, then failed at the crawl's first request.
    const strict = await startApp(target);
    try {
      const chatbotId = await createChatbotViaApi(strict, 'Acme', 'Acme makes anvils.');
      const strictUrl = `${strict.baseUrl}/chatbots/${chatbotId}/sources`;
      const refused = [
        'http://127.0.0.1:8080/',
        'http://localhost/docs',
        'https://192.168.1.10/intranet',
        'http://[::ffff:10.0.0.1]/',
        'http://169.254.169.254/latest/meta-data/',
        'http://metadata.google.internal/',
      ];
      for (const siteUrl of refused) {
        expect(await call('POST', strictUrl, strict.apiKey, { type: 'website', url: siteUrl }), siteUrl).toEqual({ status: 400, body: INVALID });
      }
      const left = (await call('GET', strictUrl, strict.apiKey)).body as { data: SourceItem[] };
      expect(left.data.map((source) => source.type)).toEqual(['text']);
    } finally {
      await strict.close();
    }
    expect((await call('POST', url(), app.apiKey, { type: 'website', url: 'http://127.0.0.1:8080/' })).status).toBe(202);
  });

  it('answers an add of a website the chatbot has already with that source (200), crawled again with the maxPages given, and racing adds with one source', async () => {
    // Found in the walk-through: a second add of one site (or /chatbot learn of it) crawled it all
    // again into a second source, and the chatbot held the site twice.
    site = await serveSite(handbook());
    const add = (path: string, maxPages: number) => call('POST', url(), app.apiKey, { type: 'website', url: `${site?.origin}${path}`, maxPages });
    const first = await add('/', 1);
    expect(first.status).toBe(202);
    const created = (first.body as { data: SourceItem }).data;
    // Another spelling of it (a tracking parameter, a fragment) is the same site; queued, it is left to be read.
    expect(await add('/?utm_source=newsletter#top', 1)).toEqual({ status: 200, body: { message: 'Success', data: created } });
    await worker(app.store).tick();
    expect(await detail(created.id)).toMatchObject({ status: 'ready', pages: { done: 1 } });

    const again = await Promise.all([add('/', 10), add('/', 10), add('/#', 10)]);
    for (const answer of again) expect(answer).toMatchObject({ status: 200, body: { data: { id: created.id, status: 'queued' } } });
    await worker(app.store).tick();
    expect(await detail(created.id)).toMatchObject({ status: 'ready', pages: { done: 3 } });

    const racing = await Promise.all(Array.from({ length: 4 }, () => add('/lunch', 1)));
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 202]);
    expect(new Set(racing.map((answer) => (answer.body as { data: SourceItem }).data.id)).size).toBe(1);
    expect((await list()).filter((source) => source.type === 'website').map((source) => source.url)).toEqual([`${site.origin}/`, `${site.origin}/lunch`]);
  });

  it('answers an add of a website’s start page on its www. twin or the other scheme with that source (200), a page of it elsewhere with a new one', async () => {
    // Found by audit-sources: example.com and then www.example.com made two sources, crawling the site twice.
    const add = (siteUrl: string, maxPages = 5) => call('POST', url(), app.apiKey, { type: 'website', url: siteUrl, maxPages });
    const first = await add('https://example.com/help/');
    expect(first.status).toBe(202);
    const created = (first.body as { data: SourceItem }).data;
    for (const twin of ['https://www.example.com/help/', 'http://WWW.example.com/help/#faq', 'http://example.com/help/?utm_source=mail']) {
      expect(await add(twin), twin).toEqual({ status: 200, body: { message: 'Success', data: created } });
    }
    for (const other of ['https://www.example.com/', 'https://www.example.com/help', 'https://docs.example.com/help/', 'https://example.com:8443/help/']) {
      expect((await add(other)).status, other).toBe(202);
    }
    const websites = (await list()).filter((source) => source.type === 'website');
    expect(websites.map((source) => source.url)).toEqual([
      'https://example.com/help/',
      'https://www.example.com/',
      'https://www.example.com/help',
      'https://docs.example.com/help/',
      'https://example.com:8443/help/',
    ]);
  });

  it('refreshes a website (202): crawled again from the start', async () => {
    site = await serveSite(handbook());
    const created = (await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 })).body as {
      data: SourceItem;
    };
    await worker(app.store).tick();
    const refreshed = await call('POST', url(`/${created.data.id}/refresh`), app.apiKey);
    expect(refreshed.status).toBe(202);
    expect((refreshed.body as { data: SourceItem }).data).toMatchObject({ status: 'queued', pages: { done: 0, failed: 0, total: 0 } });
    await worker(app.store).tick();
    expect(await detail(created.data.id)).toMatchObject({ status: 'ready', pages: { done: 3 } });
    expect(site.hits.get('/parking')).toBe(2);
    const apiText = (await list())[0];
    expect(await call('POST', url(`/${apiText?.id}/refresh`), app.apiKey)).toEqual({ status: 400, body: INVALID });
  });

  it('ends a crawl whose source is deleted meanwhile without an error, keeping none of its pages', async () => {
    let release = () => {};
    site = await serveSite(handbook(new Promise((resolve) => (release = resolve))));
    const created = (await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 })).body as {
      data: SourceItem;
    };
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as { level: number; msg: string }) });
    const crawling = createSourceWorker({ store: app.store, logger, allowPrivate: true, maxCharsPerChatbot: MAX_CHARS }).tick();
    // The crawl is held on /lunch once the other pages are recorded.
    await expect.poll(async () => (await detail(created.data.id)).pages?.done, { timeout: 5_000 }).toBe(2);
    expect((await call('DELETE', url(`/${created.data.id}`), app.apiKey)).status).toBe(200);
    release();
    await crawling;
    expect(logged.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(await call('GET', url(`/${created.data.id}`), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect((await list()).map((source) => source.id)).not.toContain(created.data.id);
    expect(await app.store.sources.pageCounts(created.data.id)).toEqual({ done: 0, failed: 0, total: 0 });
  });

  it('no longer answers from a website whose refresh fails', async () => {
    let down = false;
    const served = (content: string): Route => (request, response) => {
      if (!down) return html(page('Parking', content))(request, response);
      response.writeHead(503).end();
    };
    site = await serveSite({ '/': served('<p>Staff park in the blue garage on Quay Street.</p>') });
    const created = (await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 })).body as {
      data: SourceItem;
    };
    await worker(app.store).tick();
    expect(await ask('Where do staff park?')).toContain('Quay Street');

    down = true;
    expect((await call('POST', url(`/${created.data.id}/refresh`), app.apiKey)).status).toBe(202);
    await worker(app.store).tick();
    expect(await detail(created.data.id)).toMatchObject({ status: 'failed' });
    expect(await ask('Where do staff park?')).not.toContain('Quay Street');
  });

  it('answers from a website’s last reading while it is crawled again, and from the new pages once it is ready', async () => {
    let garage = 'blue garage on Quay Street';
    let release = () => {};
    let gate = Promise.resolve();
    site = await serveSite(() => ({
      '/': html(page('Handbook', '<p>Welcome to the Acme handbook.</p>', { links: ['/parking'] })),
      '/parking': async (request, response) => {
        await gate;
        html(page('Parking', `<p>Staff park in the ${garage}.</p>`))(request, response);
      },
    }));
    const created = (await call('POST', url(), app.apiKey, { type: 'website', url: `${site.origin}/`, maxPages: 10 })).body as {
      data: SourceItem;
    };
    await worker(app.store).tick();
    expect(await ask('Where do staff park?')).toContain('Quay Street');

    garage = 'red garage on Mill Lane';
    gate = new Promise((resolve) => (release = resolve));
    expect((await call('POST', url(`/${created.data.id}/refresh`), app.apiKey)).status).toBe(202);
    const crawling = worker(app.store).tick();
    await expect.poll(async () => (await detail(created.data.id)).status).toBe('processing');
    expect(await ask('Where do staff park?')).toContain('Quay Street');
    // Another change retrains meanwhile: the website's last reading still stands.
    expect((await call('POST', url(), app.apiKey, { type: 'qa', question: 'Who founded Acme?', answer: 'Ada Smith founded Acme.' })).status).toBe(201);
    expect(await ask('Where do staff park?')).toContain('Quay Street');

    release();
    await crawling;
    expect(await detail(created.data.id)).toMatchObject({ status: 'ready', pages: { done: 2 } });
    const answer = await ask('Where do staff park?');
    expect(answer).toContain('Mill Lane');
    expect(answer).not.toContain('Quay Street');
    expect(await ask('Who founded Acme?')).toContain('Ada Smith');
  });
});

describe.each(storeTargets.filter((t) => t.available))('$name store: website crawls across processes on one database', (target) => {
  let database: SharedDatabase;
  const stores: Store[] = [];
  const workers: SourceWorker[] = [];
  let site: Site;

  beforeEach(() => {
    database = target.shared();
  });
  afterEach(async () => {
    for (const running of workers.splice(0)) await running.stop();
    for (const store of stores.splice(0)) await store.close();
    await site.close();
    database.remove();
  });

  const open = async () => {
    const store = await database.open();
    stores.push(store);
    return store;
  };
  const start = (store: Store, processId: string) => {
    const started = worker(store, processId);
    workers.push(started);
    return started;
  };

  async function websiteSource(store: Store, origin: string): Promise<{ chatbotId: string; sourceId: string }> {
    const { seedAccount, seedChatbot } = await import('../support/seed.js');
    const account = await seedAccount(store);
    const chatbot = await seedChatbot(store, account);
    const { addWebsiteSource, DEFAULT_SOURCE_LIMITS } = await import('../../src/domain/sources.js');
    const { source } = await addWebsiteSource(store, account, chatbot.id, { url: `${origin}/`, maxPages: 10 }, DEFAULT_SOURCE_LIMITS, { allowPrivate: true });
    return { chatbotId: chatbot.id, sourceId: source.id };
  }

  /**
   * A crawl of the site `routes` make, stopped (a restart) once two pages are read while the gate
   * holds another; then the gate opens and a new process on a new store continues it.
   */
  async function restartedCrawl(routes: (gate: Promise<void>) => Parameters<typeof serveSite>[0]) {
    let open_ = () => {};
    const gate = new Promise<void>((resolve) => (open_ = resolve));
    site = await serveSite(routes(gate));
    const before = await open();
    const { chatbotId, sourceId } = await websiteSource(before, site.origin);
    const stopping = start(before, 'before-restart');
    const pass = stopping.tick();
    for (let counts = await before.sources.pageCounts(sourceId); counts.done < 2; counts = await before.sources.pageCounts(sourceId)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await stopping.stop();
    await pass;
    const stopped = await before.sources.find(chatbotId, sourceId);
    open_();

    const after = await open();
    await start(after, 'after-restart').tick();
    return { stopped, after, chatbotId, sourceId };
  }

  it('reads each page once when two hubs run the job', async () => {
    site = await serveSite(handbook());
    const [first, second] = [await open(), await open()] as [Store, Store];
    const { chatbotId, sourceId } = await websiteSource(first, site.origin);
    await Promise.all([start(first, 'hub-1').tick(), start(second, 'hub-2').tick()]);
    expect(await second.sources.find(chatbotId, sourceId)).toMatchObject({ status: 'ready', pages: { done: 3 } });
    for (const path of ['/', '/parking', '/lunch', '/parking-copy']) expect(site.hits.get(path)).toBe(1);
  });

  it('continues a crawl stopped midway (a restart) where it was, reading no recorded page again', async () => {
    // The crawl is held on /lunch; the other pages are recorded meanwhile.
    const { stopped, after, chatbotId, sourceId } = await restartedCrawl(handbook);
    expect(stopped?.status).toBe('processing');
    expect(await after.sources.find(chatbotId, sourceId)).toMatchObject({ status: 'ready', pages: { done: 3 } });
    expect(site.hits.get('/')).toBe(1);
    expect(site.hits.get('/parking')).toBe(1);
    // Its crawl was stopped in flight: asked again by the next run.
    expect(site.hits.get('/lunch')).toBe(2);
  });

  it('skips after a restart a page whose content was read before it', async () => {
    // The crawl is held on /index.html; the home page and /returns are recorded meanwhile.
    const { after, chatbotId, sourceId } = await restartedCrawl(mirroredHome);
    expect(await after.sources.find(chatbotId, sourceId)).toMatchObject({ status: 'ready', pages: { done: 2, total: 3 } });
    const pages = await after.sources.pageList(chatbotId, sourceId);
    expect(pages.find((item) => item.url.endsWith('/index.html'))).toMatchObject({ status: 'skipped', reason: `It is a duplicate of ${site.origin}/.` });
    expect(site.hits.get('/index.html')).toBe(2);
  });
});

describe.each(storeTargets.filter((t) => t.available))('$name store: a file reading cut short by a stop', (target) => {
  it('stops within its grace while a file is read, leaving it to be read again by another process once its lease ends', async () => {
    const database = target.shared();
    const store = await database.open();
    try {
      const { seedAccount, seedChatbot } = await import('../support/seed.js');
      const account = await seedAccount(store);
      const chatbot = await seedChatbot(store, account);
      const { addFileSources } = await import('../../src/domain/sources.js');
      const text = '# Late\n\nThe office opens at nine.\n';
      const [source] = await addFileSources(store, account, chatbot.id, [{ filename: 'late.md', bytes: Buffer.from(text) }]);
      // A reading that never ends, as a large PDF's may outlast any grace.
      const stuck: Store = { ...store, sources: { ...store.sources, file: () => new Promise<never>(() => {}) } };
      const leaseMs = 300;
      const options = { logger: silent, allowPrivate: true, maxCharsPerChatbot: MAX_CHARS, leaseMs };
      const stopping = createSourceWorker({ ...options, store: stuck, processId: 'stopping' });
      void stopping.tick();
      await vi.waitFor(async () => expect(await store.sources.find(chatbot.id, source?.id ?? '')).toMatchObject({ status: 'processing' }));
      await stopping.stop(50);

      const other = createSourceWorker({ ...options, store, processId: 'other' });
      expect(await other.tick()).toBe(0);
      await vi.waitFor(async () => expect(await other.tick()).toBe(1), { timeout: 5_000, interval: 100 });
      expect(await store.sources.find(chatbot.id, source?.id ?? '')).toMatchObject({ status: 'ready', chars: text.trim().length });
      await other.stop();
    } finally {
      await store.close();
      database.remove();
    }
  });
});
