import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher } from '../../jobs/webhooks/dispatcher.js';
import { call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { queryString, type QueryParams } from '../support/listing.js';
import { storeTargets } from '../support/stores.js';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver.js';

// The webhook management API over HTTP, with the delivery job sending to a local receiver.

const WEBHOOK_KEYS = ['id', 'url', 'events', 'chatbotId', 'enabled', 'disabledReason', 'created_at', 'updated_at'];

type WebhookBody = { id: string; url: string; secret?: string; chatbotId: string | null; enabled: boolean };
type AttemptBody = { eventId: string; event: string; attempt: number; status: string; responseCode: number | null; error: string | null; at: string };

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let receiver: Receiver;
  let bot: string;
  let logLines: string[];

  const webhooksUrl = () => `${app.baseUrl}/integrations/webhooks`;
  const post = (url: string, body: unknown, apiKey: string | null = app.apiKey) => call('POST', url, apiKey ?? undefined, body);
  const get = (url: string, params: QueryParams = {}, apiKey: string | null = app.apiKey) =>
    call('GET', `${url}${queryString(params)}`, apiKey ?? undefined);
  const create = async (body: Record<string, unknown> = {}) => {
    const answer = await post(webhooksUrl(), { url: receiver.url, events: ['leads.submit'], ...body });
    expect(answer.status).toBe(200);
    return (answer.body as { data: WebhookBody }).data;
  };
  const deliver = ({ disableAfterMs = 3_600_000, retryForMs = 3_600_000 } = {}) =>
    createWebhookDispatcher({
      store: app.store,
      logger: pino({ level: 'debug' }, capture(logLines)),
      allowPrivate: true,
      timeoutMs: 2_000,
      retryForMs,
      disableAfterMs,
    }).tick();

  beforeEach(async () => {
    logLines = [];
    receiver = await startReceiver();
    app = await startApp(target, { webhookAllowPrivate: true, logger: pino({ level: 'debug' }, capture(logLines)) });
    bot = await createChatbotViaApi(app);
  });
  afterEach(async () => {
    await app.close();
    await receiver.close();
  });

  it('creates a webhook, shows its secret only then, and lists, filters and deletes', async () => {
    const created = await create();
    expect(Object.keys(created).sort()).toEqual([...WEBHOOK_KEYS, 'secret'].sort());
    expect(created).toMatchObject({ url: receiver.url, events: ['leads.submit'], chatbotId: null, enabled: true, disabledReason: null });
    expect(created.secret).toMatch(/^whsec_[\w-]{43}$/);
    const scoped = await create({ chatbotId: bot });

    const listed = await get(webhooksUrl());
    expect(listed.status).toBe(200);
    const items = (listed.body as { message: string; data: WebhookBody[] }).data;
    expect(items.map((item) => item.id)).toEqual([created.id, scoped.id]);
    for (const item of items) expect(Object.keys(item).sort()).toEqual([...WEBHOOK_KEYS].sort());
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);

    const byChatbot = await get(webhooksUrl(), { chatbotId: bot });
    expect((byChatbot.body as { data: WebhookBody[] }).data.map((item) => item.id)).toEqual([scoped.id]);
    const page = await get(webhooksUrl(), { event: 'leads.submit', enabled: 'true', page: '2', size: '1' });
    expect((page.body as { data: WebhookBody[] }).data.map((item) => item.id)).toEqual([scoped.id]);
    expect((await get(webhooksUrl(), { enabled: 'false' })).body).toEqual({ message: 'Success', data: [] });

    const other = await app.addAccount('other');
    expect(await get(webhooksUrl(), {}, other.apiKey)).toEqual({ status: 200, body: { message: 'Success', data: [] } });
    expect(await call('DELETE', `${webhooksUrl()}/${created.id}`, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    const removed = await call('DELETE', `${webhooksUrl()}/${created.id}`, app.apiKey);
    expect(removed.status).toBe(200);
    expect((removed.body as { data: WebhookBody }).data).toMatchObject({ id: created.id });
    expect(await call('DELETE', `${webhooksUrl()}/${created.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(logLines.join('')).not.toContain(created.secret);
    expect(logLines.join('')).not.toContain(scoped.secret);
  });

  it.each([
    ['no url', { events: ['leads.submit'] }],
    ['an ftp url', { url: 'ftp://hooks.example.com/x', events: ['leads.submit'] }],
    ['a url that is not one', { url: 'hooks.example.com', events: ['leads.submit'] }],
    ['no events', { url: 'https://hooks.example.com/x', events: [] }],
    ['an unknown event', { url: 'https://hooks.example.com/x', events: ['leads.delete'] }],
    ['an unknown field', { url: 'https://hooks.example.com/x', events: ['leads.submit'], secret: 'mine' }],
  ])('refuses %s', async (_name, body) => {
    expect(await post(webhooksUrl(), body)).toEqual({ status: 400, body: INVALID });
    expect((await get(webhooksUrl())).body).toEqual({ message: 'Success', data: [] });
  });

  it('refuses a chatbot of another account, a missing key, and bad filters', async () => {
    const other = await app.addAccount('other');
    const theirs = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: other.apiKey });
    expect(await post(webhooksUrl(), { url: receiver.url, events: ['leads.submit'], chatbotId: theirs })).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
    expect(await post(webhooksUrl(), { url: receiver.url, events: ['leads.submit'] }, null)).toEqual({ status: 401, body: NO_KEY });
    expect(await get(webhooksUrl(), { enabled: 'maybe' })).toEqual({ status: 400, body: INVALID });
    expect(await get(webhooksUrl(), { event: 'ping' })).toEqual({ status: 400, body: INVALID });
  });

  it('sends a ping on /test and lists the attempts', async () => {
    const webhook = await create();
    const queued = await post(`${webhooksUrl()}/${webhook.id}/test`, {});
    expect(queued.status).toBe(202);
    const event = (queued.body as { data: { eventId: string; event: string; status: string } }).data;
    expect(event).toEqual({ eventId: expect.any(String), event: 'ping', status: 'pending' });
    expect((await get(`${webhooksUrl()}/${webhook.id}/deliveries`)).body).toEqual({ message: 'Success', data: [] });

    receiver.answer(502);
    await deliver();
    const listed = await get(`${webhooksUrl()}/${webhook.id}/deliveries`);
    const [attempt] = (listed.body as { data: AttemptBody[] }).data;
    expect(attempt).toEqual({
      eventId: event.eventId,
      event: 'ping',
      attempt: 1,
      status: 'pending',
      responseCode: 502,
      error: 'the receiver answered 502',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const [request] = receiver.received;
    expect(request && verifies(webhook.secret ?? '', request)).toBe(true);
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ id: event.eventId, eventType: 'ping', payload: { webhookId: webhook.id } });

    const other = await app.addAccount('other');
    expect(await post(`${webhooksUrl()}/${webhook.id}/test`, {}, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await get(`${webhooksUrl()}/${webhook.id}/deliveries`, {}, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(logLines.join('')).not.toContain(webhook.secret);
  });

  it('shows one webhook, changes what is given, and turns a disabled one on again with its secret', async () => {
    const webhook = await create();
    const one = `${webhooksUrl()}/${webhook.id}`;
    const { secret, ...shown } = webhook;
    expect(await get(one)).toEqual({ status: 200, body: { message: 'Success', data: shown } });

    const scoped = await call('PATCH', one, app.apiKey, { events: ['handoff.requested', 'leads.submit', 'leads.submit'], chatbotId: bot });
    expect(scoped.status).toBe(200);
    expect((scoped.body as { data: WebhookBody }).data).toMatchObject({ id: webhook.id, url: receiver.url, events: ['handoff.requested', 'leads.submit'], chatbotId: bot });
    expect((await get(one)).body).toEqual(scoped.body);
    const everyChatbot = await call('PATCH', one, app.apiKey, { chatbotId: null });
    expect((everyChatbot.body as { data: WebhookBody }).data).toMatchObject({ chatbotId: null, events: ['handoff.requested', 'leads.submit'] });

    // Every delivery fails past the limit (none here): the job disables it.
    receiver.answer(500);
    await post(`${one}/test`, {});
    await deliver({ disableAfterMs: 0 });
    expect((await get(one)).body).toMatchObject({ data: { enabled: false, disabledReason: expect.stringContaining('every delivery failed') } });

    const on = await call('PATCH', one, app.apiKey, { enabled: true });
    expect((on.body as { data: WebhookBody }).data).toMatchObject({ enabled: true, disabledReason: null });
    // Turned on again, the hours of failure count afresh, from its next failure.
    expect(await app.store.webhooks.findById(webhook.id)).toMatchObject({ failingSince: null });
    await post(`${one}/test`, {});
    await deliver();
    const last = receiver.received.at(-1);
    expect(last?.answered).toBe(200);
    expect(last && verifies(secret ?? '', last)).toBe(true);

    const off = await call('PATCH', one, app.apiKey, { enabled: false });
    expect((off.body as { data: WebhookBody }).data).toMatchObject({ enabled: false, disabledReason: 'turned off by the account' });
    const sent = receiver.received.length;
    await post(`${one}/test`, {});
    await deliver();
    expect(receiver.received.length).toBe(sent);
    expect(JSON.stringify((await get(one)).body)).not.toContain(secret);
  });

  it('refuses a change that is empty, unknown, malformed, of another account, or to another account\'s chatbot, changing nothing', async () => {
    const webhook = await create({ chatbotId: bot });
    const one = `${webhooksUrl()}/${webhook.id}`;
    const before = (await get(one)).body;
    for (const body of [{}, { secret: 'mine' }, { enabled: 'yes' }, { url: 'ftp://hooks.example.com/x' }, { events: [] }, { events: ['leads.delete'] }, { chatbotId: '' }]) {
      expect(await call('PATCH', one, app.apiKey, body)).toEqual({ status: 400, body: INVALID });
    }
    const other = await app.addAccount('other');
    const theirs = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: other.apiKey });
    expect(await call('PATCH', one, app.apiKey, { chatbotId: theirs })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await call('PATCH', one, other.apiKey, { enabled: false })).toEqual({ status: 404, body: NOT_FOUND });
    expect(await get(one, {}, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await post(`${one}/rotate-secret`, {}, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await get(`${webhooksUrl()}/no-such-webhook`)).toEqual({ status: 404, body: NOT_FOUND });
    expect((await get(one)).body).toEqual(before);
  });

  it('gives a new secret once on rotate-secret, and signs every delivery from then on with it', async () => {
    const webhook = await create();
    const one = `${webhooksUrl()}/${webhook.id}`;
    await post(`${one}/test`, {});
    const rotated = await post(`${one}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const { secret, ...shown } = (rotated.body as { data: WebhookBody }).data;
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(secret).not.toBe(webhook.secret);
    expect((await get(one)).body).toEqual({ message: 'Success', data: shown });
    // The event queued before the rotation is sent after it: signed with the new secret.
    await deliver();
    const [request] = receiver.received;
    expect(request && verifies(secret ?? '', request)).toBe(true);
    expect(request && verifies(webhook.secret ?? '', request)).toBe(false);
    expect(logLines.join('')).not.toContain(secret);
  });

  it('sends a failed event again on resend, the same event signed afresh, and leaves a pending one as it is', async () => {
    const webhook = await create();
    const one = `${webhooksUrl()}/${webhook.id}`;
    const queued = (await post(`${one}/test`, {})).body as { data: { eventId: string } };
    const { eventId } = queued.data;
    // Still pending: a resend leaves it as it is.
    expect(await post(`${one}/deliveries/${eventId}/resend`, {})).toEqual({ status: 202, body: { message: 'Success', data: { eventId, event: 'ping', status: 'pending' } } });
    receiver.answer(500);
    await deliver({ retryForMs: 0 });
    expect((await get(`${one}/deliveries`)).body).toMatchObject({ data: [{ eventId, attempt: 1, status: 'failed' }] });

    const resent = await post(`${one}/deliveries/${eventId}/resend`, {});
    expect(resent).toEqual({ status: 202, body: { message: 'Success', data: { eventId, event: 'ping', status: 'pending' } } });
    await deliver({ retryForMs: 0 });
    expect((await get(`${one}/deliveries`)).body).toMatchObject({ data: [{ eventId, attempt: 2, status: 'delivered', responseCode: 200 }, { eventId, attempt: 1 }] });
    const [first, again] = receiver.received;
    expect(again?.body).toBe(first?.body);
    expect(again?.headers['x-switchboard-event-id']).toBe(eventId);
    expect(again && verifies(webhook.secret ?? '', again)).toBe(true);

    const other = await app.addAccount('other');
    const another = await create();
    expect(await post(`${one}/deliveries/${eventId}/resend`, {}, other.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await post(`${webhooksUrl()}/${another.id}/deliveries/${eventId}/resend`, {})).toEqual({ status: 404, body: NOT_FOUND });
    expect(await post(`${one}/deliveries/no-such-event/resend`, {})).toEqual({ status: 404, body: NOT_FOUND });
    await deliver();
    expect(receiver.received.length).toBe(2);
  });

  it('answers the API while a receiver hangs: requests only enqueue', async () => {
    const webhook = await create();
    receiver.answer('hang');
    await post(`${webhooksUrl()}/${webhook.id}/test`, {});
    let sending = true;
    const stuck = deliver().finally(() => (sending = false));
    while (receiver.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    const lead = await post(`${app.baseUrl}/chatbots/${bot}/leads`, { name: 'Bo', email: 'bo@example.com', phone: null });
    const again = await post(`${webhooksUrl()}/${webhook.id}/test`, {});
    const chat = await post(`${app.baseUrl}/chat`, { chatbotId: bot, messages: [{ role: 'user', content: 'When do you open?' }] });
    expect([lead.status, again.status, chat.status]).toEqual([200, 202, 200]);
    expect(sending).toBe(true);
    expect((await stuck).map((outcome) => outcome.status)).toEqual(['pending']);
  });

  it('sends leads.submit for a lead captured in chat, again with the corrected details, not for the same ones', async () => {
    await create();
    const settings = { chatbotId: bot, collectCustomerInformation: { title: 'Stay in touch', email: { active: true, label: 'Email' } } };
    expect((await post(`${app.baseUrl}/update-chatbot-settings`, settings)).status).toBe(202);
    const say = (content: string) =>
      post(`${app.baseUrl}/chat`, { chatbotId: bot, conversationId: 'web-42', messages: [{ role: 'user', content }] });
    await say('When do you open?');
    expect((await say('my email is Ana@Example.com')).status).toBe(200);
    expect((await deliver()).map((outcome) => outcome.status)).toEqual(['delivered']);
    expect((await say('Sorry, use ana.lima@work.example instead')).status).toBe(200);
    expect((await deliver()).map((outcome) => outcome.status)).toEqual(['delivered']);
    expect((await say('Once more: ana.lima@work.example')).status).toBe(200);
    expect(await deliver()).toEqual([]);

    const bodies = receiver.received.map((request) => JSON.parse(request.body) as { id: string; payload: { leadId: string } });
    expect(bodies).toMatchObject([
      { eventType: 'leads.submit', chatbotId: bot, payload: { conversationId: 'web-42', customerEmail: 'ana@example.com', revision: 1 } },
      { eventType: 'leads.submit', chatbotId: bot, payload: { conversationId: 'web-42', customerEmail: 'ana.lima@work.example', revision: 2 } },
    ]);
    const [first, corrected] = bodies;
    expect(corrected?.payload.leadId).toBe(first?.payload.leadId);
    expect(corrected?.id).not.toBe(first?.id);
    const leads = (await get(`${app.baseUrl}/get-leads`, { chatbotId: bot })).body as { collectedCustomers: { email: string }[] };
    expect(leads.collectedCustomers).toMatchObject([{ email: 'ana.lima@work.example' }]);
  });

  it('sends leads.submit for a lead posted to the API', async () => {
    const webhook = await create({ chatbotId: bot });
    const lead = await post(`${app.baseUrl}/chatbots/${bot}/leads`, { name: 'Ada', email: 'ada@example.com', phone: '+47 400 00 001' });
    expect(lead.status).toBe(200);
    expect((await deliver()).map((outcome) => outcome.status)).toEqual(['delivered']);
    const [request] = receiver.received;
    expect(request && verifies(webhook.secret ?? '', request)).toBe(true);
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      eventType: 'leads.submit',
      chatbotId: bot,
      payload: { customerEmail: 'ada@example.com', customerName: 'Ada', customerPhone: '+47 400 00 001', conversationId: null },
    });
    const listed = (await get(`${webhooksUrl()}/${webhook.id}/deliveries`)).body as { data: AttemptBody[] };
    expect(listed.data).toMatchObject([{ event: 'leads.submit', status: 'delivered', responseCode: 200 }]);
  });
});

describe.each(storeTargets.filter((t) => t.available))('$name store, private receivers not allowed', (target) => {
  let app: TestApp;

  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[fe80::1]/hook',
    'http://[fc00::1]/hook',
    'http://[fd00:ec2::254]/latest/',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/hook',
    'http://2130706433/hook',
  ])('refuses %s', async (url) => {
    const webhooks = `${app.baseUrl}/integrations/webhooks`;
    expect(await call('POST', webhooks, app.apiKey, { url, events: ['leads.submit'] })).toEqual({ status: 400, body: INVALID });
    expect((await call('GET', webhooks, app.apiKey)).body).toEqual({ message: 'Success', data: [] });
  });

  it('refuses a change of address to a private one, changing nothing', async () => {
    const webhooks = `${app.baseUrl}/integrations/webhooks`;
    const created = await call('POST', webhooks, app.apiKey, { url: 'https://93.184.215.14/hooks', events: ['leads.submit'] });
    const { id } = (created.body as { data: { id: string } }).data;
    expect(await call('PATCH', `${webhooks}/${id}`, app.apiKey, { url: 'http://169.254.169.254/latest/meta-data/' })).toEqual({ status: 400, body: INVALID });
    expect((await call('GET', `${webhooks}/${id}`, app.apiKey)).body).toMatchObject({ data: { url: 'https://93.184.215.14/hooks' } });
  });

  it('accepts a public address', async () => {
    const answer = await call('POST', `${app.baseUrl}/integrations/webhooks`, app.apiKey, {
      url: 'https://93.184.215.14/hooks',
      events: ['leads.submit'],
    });
    expect(answer.status).toBe(200);
  });
});

function capture(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
}
