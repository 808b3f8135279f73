import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument, appRouters } from '../../src/http/app.js';
import { bearer, IMAGES, imageForm, startApp, type TestApp } from '../support/http.js';
import { invalidExamples, responseChecker, type Exchange } from '../support/openapi.js';
import { storeTargets } from '../support/stores.js';

// The OpenAPI document against the app itself: every route documented, every documented
// operation served, and every response of a walk through all of them valid by the document.

const document = apiDocument();
const problemsOf = responseChecker(document);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const documentedOperations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  METHODS.filter((method) => item && method in item).map((method) => `${method.toUpperCase()} ${path}`),
);

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with a unique id for every operation', () => {
    expect(document.openapi).toBe('3.1.0');
    const ids = Object.values(document.paths ?? {}).flatMap((item) =>
      METHODS.map((method) => item?.[method]?.operationId).filter((id) => id !== undefined),
    );
    expect(ids).toHaveLength(documentedOperations.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives examples that its own schemas accept', () => {
    expect(JSON.stringify(document)).toContain('"example"');
    expect(invalidExamples(document)).toEqual([]);
  });

  it('closes the JSON bodies of new and edited sources to keys they do not take', () => {
    const sources = document.paths?.['/api/v1/chatbots/{chatbotId}/sources']?.post?.requestBody;
    const source = document.paths?.['/api/v1/chatbots/{chatbotId}/sources/{sourceId}']?.patch?.requestBody;
    const schemaOf = (body: typeof sources) => (body && 'content' in body ? body.content['application/json']?.schema : undefined) as
      | { oneOf?: { additionalProperties?: unknown }[]; additionalProperties?: unknown }
      | undefined;
    expect(schemaOf(sources)?.oneOf?.map((type) => type.additionalProperties)).toEqual([false, false, false]);
    expect(schemaOf(source)?.additionalProperties).toBe(false);
  });

  it('documents exactly the routes the app serves', async () => {
    const target = storeTargets[0];
    if (!target) throw new Error('no store');
    const store = await target.open();
    try {
      const served = appRouters({ store, logger: pino({ level: 'silent' }) }).flatMap((router) =>
        router.stack
          .filter((layer) => layer.methods.length > 0)
          .flatMap((layer) =>
            layer.methods
              .filter((method) => method !== 'HEAD')
              .map((method) => `${method} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
          ),
      );
      expect([...new Set(served)].sort()).toEqual([...documentedOperations].sort());
    } finally {
      await store.close();
    }
  });
});

describe.each(storeTargets.filter((t) => t.available))('real responses on the $name store', (target) => {
  let app: TestApp;
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    app = await startApp(target, { webhookAllowPrivate: true, sourcesAllowPrivate: true });
  });
  afterAll(async () => {
    await app.close();
  });

  type Request = {
    params?: Record<string, string>;
    query?: Record<string, string>;
    json?: unknown;
    form?: FormData;
    key?: string | null;
    headers?: Record<string, string>;
  };

  /** Sends a request to a documented path and keeps the exchange; answers its parsed body. */
  async function send(
    method: string,
    path: string,
    request: Request = {},
  ): Promise<{ status: number; body: unknown; text: string; headers: Headers }> {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
    const url = new URL(app.origin + filled);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = request.key === null ? {} : bearer(request.key ?? app.apiKey);
    if (request.json !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers: { ...headers, ...request.headers },
      body: request.form ?? (request.json === undefined ? undefined : JSON.stringify(request.json)),
    });
    const contentType = response.headers.get('content-type') ?? '';
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = contentType.startsWith('image/') ? '' : bytes.toString('utf8');
    exchanges.push({ method, path, status: response.status, contentType, text });
    const body: unknown = contentType.includes('json') ? JSON.parse(text) : text;
    return { status: response.status, body, text, headers: response.headers };
  }

  /** Sends, and expects `status`. */
  async function expectStatus(status: number, method: string, path: string, request?: Request) {
    const answer = await send(method, path, request);
    expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 300)}`).toBe(status);
    return answer.body as Record<string, unknown> & { data: Record<string, unknown> };
  }

  it('answers every documented operation as the document says', async () => {
    const api = '/api/v1';
    const created = await expectStatus(200, 'POST', `${api}/create-chatbot`, {
      json: { chatbotName: 'Documented', sourceText: 'We open at nine.\n\nReturns are accepted within 30 days.' },
    });
    const chatbotId = String(created.chatbotId);
    const bot = { chatbotId };

    // Failures, each with its documented body.
    await expectStatus(401, 'GET', `${api}/get-chatbots`, { key: null });
    await expectStatus(400, 'POST', `${api}/create-chatbot`, { json: { chatbotName: 'x' } });
    await expectStatus(404, 'POST', `${api}/chat`, { json: { chatbotId: 'missing', messages: [{ role: 'user', content: 'hi' }] } });
    await expectStatus(404, 'GET', `${api}/get-leads`, { query: { chatbotId: 'missing' } });

    // Chatbots.
    await expectStatus(200, 'POST', `${api}/update-chatbot-data`, { json: { chatbotId, chatbotName: 'Documented bot' } });
    await expectStatus(202, 'POST', `${api}/update-chatbot-settings`, {
      json: {
        chatbotId,
        visibility: 'public',
        initialMessages: ['Hello!'],
        suggestedMessages: ['When do you open?'],
        collectCustomerInformation: { email: { active: true } },
      },
    });
    await expectStatus(200, 'GET', `${api}/get-chatbots`);
    await expectStatus(200, 'GET', `${api}/chatbots/{chatbotId}`, { params: bot });
    await expectStatus(404, 'GET', `${api}/chatbots/{chatbotId}`, { params: { chatbotId: 'missing' } });
    const doomed = await expectStatus(200, 'POST', `${api}/create-chatbot`, { json: { chatbotName: 'Doomed' } });
    await expectStatus(200, 'DELETE', `${api}/delete-chatbot`, { query: { chatbotId: String(doomed.chatbotId) } });

    // Chat, whole and streamed, then the saved conversation.
    const question = { ...bot, messages: [{ role: 'user', content: 'When do you open?' }], conversationId: 'doc-1' };
    await expectStatus(200, 'POST', `${api}/chat`, { json: question });
    await expectStatus(200, 'POST', `${api}/chat`, { json: { ...question, stream: true } });
    const conversations = await expectStatus(200, 'GET', `${api}/get-conversations`, { query: bot });
    const [saved] = conversations.data as unknown as { messages: { id: string; role: string }[] }[];
    const answer = { ...bot, messageId: saved?.messages.find((message) => message.role === 'assistant')?.id ?? '' };
    const feedback = `${api}/chatbots/{chatbotId}/messages/{messageId}/feedback`;
    await expectStatus(200, 'POST', feedback, { params: answer, json: { feedback: 'up' } });
    await expectStatus(400, 'POST', feedback, { params: answer, json: { feedback: 'meh' } });
    await expectStatus(404, 'POST', feedback, { params: { ...answer, messageId: 'missing' }, json: { feedback: 'down' } });
    await expectStatus(200, 'GET', `${api}/chatbots/{chatbotId}/messages/{messageId}/sources`, { params: answer });
    await expectStatus(404, 'GET', `${api}/chatbots/{chatbotId}/messages/{messageId}/sources`, { params: { ...answer, messageId: 'missing' } });
    await expectStatus(200, 'POST', `${api}/chatbots/{chatbotId}/messages/{messageId}/revision`, {
      params: answer,
      json: { answer: 'We open at eight.' },
    });
    // Shown on the message, as the document says.
    await expectStatus(200, 'GET', `${api}/get-conversations`, { query: bot });

    // Human handoff: asked for, taken, answered (shown with its author and state), resolved.
    await expectStatus(202, 'POST', `${api}/update-chatbot-settings`, {
      json: { ...bot, handoff: { enabled: true, platform: 'slack', workspaceId: 'T1', channelId: 'C1' } },
    });
    await expectStatus(200, 'POST', `${api}/chat`, { json: { ...bot, conversationId: 'doc-2', messages: [{ role: 'user', content: 'agent please' }] } });
    const handoff = (action: string) => `${api}/chatbots/{chatbotId}/conversations/{conversationId}/handoff/${action}`;
    const handedOff = { params: { ...bot, conversationId: 'doc-2' } };
    // The Slack adapter's side: the request posted into a thread, which then finds its handoff.
    const claimed = await expectStatus(200, 'POST', `${api}/handoffs/notices/claim`, { json: { platform: 'slack' } });
    const requested = { params: { noticeId: String((claimed.data as unknown as { id: string }[])[0]?.id) } };
    const thread = { channelId: 'C1', threadId: '1712345678.000100' };
    await expectStatus(200, 'POST', `${api}/handoffs/notices/{noticeId}/done`, { ...requested, json: { thread } });
    await expectStatus(404, 'POST', `${api}/handoffs/notices/{noticeId}/done`, { params: { noticeId: 'missing' }, json: {} });
    await expectStatus(200, 'GET', `${api}/handoffs/thread`, { query: { platform: 'slack', ...thread } });
    await expectStatus(404, 'GET', `${api}/handoffs/thread`, { query: { platform: 'slack', channelId: 'C1', threadId: '1.2' } });
    await expectStatus(200, 'POST', handoff('take'), { ...handedOff, json: { name: 'Ada' } });
    await expectStatus(200, 'POST', handoff('messages'), { ...handedOff, json: { name: 'Ada', text: 'Hello, Ada here.' } });
    await expectStatus(200, 'GET', `${api}/get-conversations`, { query: bot });
    await expectStatus(200, 'POST', handoff('resolve'), handedOff);
    await expectStatus(404, 'POST', handoff('resolve'), handedOff);
    await expectStatus(202, 'POST', `${api}/update-chatbot-settings`, { json: { ...bot, handoff: { enabled: false } } });

    // Review: a declined question, recorded after its reply; analytics.
    await expectStatus(200, 'POST', `${api}/chat`, { json: { ...bot, messages: [{ role: 'user', content: 'Do you sell gift cards?' }] } });
    const unanswered = `${api}/chatbots/{chatbotId}/unanswered`;
    await expect.poll(async () => (await expectStatus(200, 'GET', unanswered, { params: bot, query: { status: 'open' } })).total).toBe(1);
    const listed = await expectStatus(200, 'GET', unanswered, { params: bot });
    const group = { params: { ...bot, id: String((listed.data as unknown as { id: string }[])[0]?.id) } };
    await expectStatus(200, 'POST', `${unanswered}/{id}/resolve`, { ...group, json: { answer: 'Yes, in the shop.' } });
    await expectStatus(200, 'POST', `${unanswered}/{id}/dismiss`, group);
    await expectStatus(200, 'GET', `${api}/chatbots/{chatbotId}/analytics`, { params: bot, query: { timezone: 'Europe/Oslo' } });
    await expectStatus(200, 'GET', `${api}/analytics`);

    // Leads.
    const lead = await expectStatus(200, 'POST', `${api}/chatbots/{chatbotId}/leads`, { params: bot, json: { name: 'Ada', email: 'ada@example.com' } });
    await expectStatus(200, 'GET', `${api}/get-leads`, { query: bot });
    const leadPath = { params: { ...bot, leadId: String((lead.data as unknown as { id: string }).id) } };
    await expectStatus(200, 'DELETE', `${api}/chatbots/{chatbotId}/leads/{leadId}`, leadPath);
    await expectStatus(404, 'DELETE', `${api}/chatbots/{chatbotId}/leads/{leadId}`, leadPath);

    // Erasing a conversation.
    const conversation = `${api}/chatbots/{chatbotId}/conversations/{conversationId}`;
    await expectStatus(200, 'DELETE', conversation, { params: { ...bot, conversationId: 'doc-1' } });
    await expectStatus(404, 'DELETE', conversation, { params: { ...bot, conversationId: 'doc-1' } });

    // Assets, uploaded, served publicly, deleted.
    const png = { bytes: IMAGES.png, name: 'a.png', type: 'image/png' };
    await expectStatus(200, 'POST', `${api}/upload-chatbot-profile-picture`, { form: imageForm(chatbotId, 'profilePictureFile', png) });
    await expectStatus(200, 'POST', `${api}/upload-chatbot-icon`, { form: imageForm(chatbotId, 'chatbotIconFile', png) });
    await expectStatus(200, 'GET', '/assets/chatbots/{chatbotId}/profile-picture', { params: bot, key: null });
    await expectStatus(200, 'GET', '/assets/chatbots/{chatbotId}/icon', { params: bot, key: null });

    // Contacts and custom attributes.
    const contacts = `${api}/chatbots/{chatbotId}/contacts`;
    const contact = { params: { ...bot, contactId: 'c-1' } };
    await expectStatus(200, 'POST', `${api}/chatbots/{chatbotId}/custom-attributes`, { params: bot, json: { name: 'plan', type: 'text' } });
    await expectStatus(200, 'GET', `${api}/chatbots/{chatbotId}/custom-attributes`, { params: bot });
    await expectStatus(200, 'PUT', `${api}/chatbots/{chatbotId}/custom-attributes/{name}`, {
      params: { ...bot, name: 'plan' },
      json: { label: 'Plan' },
    });
    await expectStatus(200, 'POST', contacts, {
      params: bot,
      json: { users: [{ external_id: 'c-1', email: 'c1@example.com', custom_attributes: { plan: 'pro' } }, { external_id: 'c-2' }] },
    });
    await expectStatus(409, 'POST', contacts, { params: bot, json: { users: [{ external_id: 'c-1' }] } });
    await expectStatus(200, 'GET', contacts, { params: bot, query: { per_page: '10' } });
    await expectStatus(200, 'GET', `${contacts}/{contactId}`, contact);
    await expectStatus(200, 'PATCH', `${contacts}/{contactId}`, { ...contact, json: { data: { name: 'Grace' } } });
    await expectStatus(200, 'DELETE', `${contacts}/{contactId}`, contact);
    await expectStatus(404, 'GET', `${contacts}/{contactId}`, contact);

    // Knowledge sources.
    const sources = `${api}/chatbots/{chatbotId}/sources`;
    const qa = await expectStatus(201, 'POST', sources, { params: bot, json: { type: 'qa', question: 'Dogs?', answer: 'Yes, on a lead.' } });
    await expectStatus(201, 'POST', sources, { params: bot, json: { type: 'text', title: 'Parking', text: 'Park on Mill Lane.' } });
    await expectStatus(400, 'POST', sources, { params: bot, json: { type: 'text', text: '' } });
    const website = await expectStatus(202, 'POST', sources, { params: bot, json: { type: 'website', url: 'http://127.0.0.1:9/' } });
    await expectStatus(202, 'POST', `${sources}/{sourceId}/refresh`, { params: { ...bot, sourceId: String(website.data.id) } });
    await expectStatus(200, 'GET', sources, { params: bot });
    const source = { params: { ...bot, sourceId: String(qa.data.id) } };
    await expectStatus(200, 'GET', `${sources}/{sourceId}`, source);
    await expectStatus(200, 'PATCH', `${sources}/{sourceId}`, { ...source, json: { answer: 'Yes, always on a lead.' } });
    await expectStatus(200, 'DELETE', `${sources}/{sourceId}`, source);
    await expectStatus(404, 'GET', `${sources}/{sourceId}`, source);

    // Integrations: bindings, digests, claims, command servers, prompts.
    const channel = { platform: 'slack', workspaceId: 'T1', channelId: 'C1', chatbotId };
    const binding = await expectStatus(200, 'POST', `${api}/integrations/bindings`, { json: channel });
    await expectStatus(200, 'GET', `${api}/integrations/bindings`);
    await expectStatus(200, 'GET', `${api}/integrations/bindings/resolve`, { query: { platform: 'slack', workspaceId: 'T1', channelId: 'C1' } });
    await expectStatus(200, 'DELETE', `${api}/integrations/bindings/{id}`, { params: { id: String(binding.data.id) } });
    const digest = await expectStatus(200, 'POST', `${api}/integrations/digests`, {
      json: { ...channel, time: '09:00', timezone: 'Europe/Oslo' },
    });
    await expectStatus(200, 'GET', `${api}/integrations/digests`);
    await expectStatus(200, 'DELETE', `${api}/integrations/digests/{id}`, { params: { id: String(digest.data.id) } });
    await expectStatus(200, 'POST', `${api}/integrations/claims`, { json: { key: 'doc:1', ttlSeconds: 60 } });
    await expectStatus(200, 'GET', `${api}/integrations/claims/{key}`, { params: { key: 'doc:1' } });
    const application = { applicationId: '1234567890' };
    await expectStatus(200, 'GET', `${api}/integrations/discord/{applicationId}/command-servers`, { params: application });
    await expectStatus(200, 'PUT', `${api}/integrations/discord/{applicationId}/command-servers`, { params: application, json: { serverIds: ['42'] } });
    await expectStatus(200, 'GET', `${api}/integrations/chatbots/{chatbotId}/prompts`, { params: bot });

    // Webhooks.
    const webhook = await expectStatus(200, 'POST', `${api}/integrations/webhooks`, {
      json: { url: 'http://127.0.0.1:9/hook', events: ['leads.submit'] },
    });
    const hook = { params: { id: String(webhook.data.id) } };
    await expectStatus(200, 'GET', `${api}/integrations/webhooks`);
    await expectStatus(202, 'POST', `${api}/integrations/webhooks/{id}/test`, hook);
    await expectStatus(200, 'GET', `${api}/integrations/webhooks/{id}/deliveries`, hook);
    await expectStatus(200, 'GET', `${api}/integrations/webhooks/{id}`, hook);
    await expectStatus(200, 'PATCH', `${api}/integrations/webhooks/{id}`, { ...hook, json: { enabled: false } });
    await expectStatus(200, 'POST', `${api}/integrations/webhooks/{id}/rotate-secret`, hook);
    const { eventId } = (await expectStatus(202, 'POST', `${api}/integrations/webhooks/{id}/test`, hook)).data;
    await expectStatus(202, 'POST', `${api}/integrations/webhooks/{id}/deliveries/{eventId}/resend`, { params: { id: hook.params.id, eventId: String(eventId) } });
    await expectStatus(200, 'DELETE', `${api}/integrations/webhooks/{id}`, hook);

    // The widget, as a visitor's browser calls it.
    const visit = { params: { ...bot, conversationId: `wc_${'d'.repeat(24)}` }, key: null };
    await expectStatus(200, 'GET', '/widget/embed.js', { key: null });
    await expectStatus(200, 'GET', '/widget/chatbots/{chatbotId}/config', { params: bot, key: null });
    const page = String(await expectStatus(200, 'GET', '/widget/chatbots/{chatbotId}', { params: bot, key: null }));
    for (const [, name] of page.matchAll(/\/widget\/assets\/([^"]+)"/g)) {
      await expectStatus(200, 'GET', '/widget/assets/{name}', { params: { name: name ?? '' }, key: null });
    }
    await expectStatus(200, 'POST', '/widget/chatbots/{chatbotId}/chat', {
      ...visit,
      json: { conversationId: visit.params.conversationId, message: 'When do you open?' },
    });
    const history = await expectStatus(200, 'GET', '/widget/chatbots/{chatbotId}/conversations/{conversationId}', visit);
    const widgetAnswer = (history as unknown as { messages: { id: string; role: string }[] }).messages.find((message) => message.role === 'assistant');
    await expectStatus(200, 'POST', '/widget/chatbots/{chatbotId}/conversations/{conversationId}/messages/{messageId}/feedback', {
      ...visit,
      params: { ...visit.params, messageId: widgetAnswer?.id ?? '' },
      json: { feedback: 'up' },
    });
    await expectStatus(200, 'POST', '/widget/chatbots/{chatbotId}/leads', {
      ...visit,
      json: { conversationId: visit.params.conversationId, email: 'visitor@example.com' },
    });
    // The conversation as listed now carries its lead.
    const withLead = await expectStatus(200, 'GET', `${api}/get-conversations`, { query: bot });
    expect(withLead.data).toContainEqual(expect.objectContaining({ id: visit.params.conversationId, lead: expect.objectContaining({ email: 'visitor@example.com' }) }));
    await expectStatus(400, 'POST', '/widget/chatbots/{chatbotId}/leads', { ...visit, json: { email: 'not an email' } });
    // Its "Talk to a person", and the live stream of a handoff resolved already (it ends at once).
    await expectStatus(400, 'POST', '/widget/chatbots/{chatbotId}/conversations/{conversationId}/handoff', { ...visit, json: {} });
    await expectStatus(202, 'POST', `${api}/update-chatbot-settings`, { json: { ...bot, handoff: { enabled: true } } });
    await expectStatus(200, 'POST', '/widget/chatbots/{chatbotId}/conversations/{conversationId}/handoff', { ...visit, json: {} });
    await expectStatus(200, 'POST', handoff('resolve'), { params: visit.params });
    await expectStatus(200, 'POST', '/widget/chatbots/{chatbotId}/conversations/{conversationId}/handoff/end', { ...visit, json: {} });
    await expectStatus(200, 'GET', '/widget/chatbots/{chatbotId}/conversations/{conversationId}/events', visit);

    // The console's page, at each URL shape, and its assets.
    const consolePage = String(await expectStatus(200, 'GET', '/console', { key: null }));
    await expectStatus(200, 'GET', '/console/{section}', { params: { section: 'account' }, key: null });
    await expectStatus(200, 'GET', '/console/chatbots/{chatbotId}', { params: bot, key: null });
    await expectStatus(200, 'GET', '/console/chatbots/{chatbotId}/{section}', { params: { ...bot, section: 'settings' }, key: null });
    await expectStatus(200, 'GET', '/console/chatbots/{chatbotId}/{section}/{item}', {
      params: { ...bot, section: 'activity', item: 'leads' },
      key: null,
    });
    for (const [, name] of consolePage.matchAll(/\/console\/assets\/([^"]+)"/g)) {
      await expectStatus(200, 'GET', '/console/assets/{name}', { params: { name: name ?? '' }, key: null });
    }
    await expectStatus(404, 'GET', '/console/assets/{name}', { params: { name: 'main-UNKNOWN.js' }, key: null });

    // The account and its keys.
    await expectStatus(200, 'GET', `${api}/account`);
    const newKey = await expectStatus(201, 'POST', `${api}/api-keys`, { json: { label: 'Documented' } });
    await expectStatus(400, 'POST', `${api}/api-keys`, { json: {} });
    await expectStatus(200, 'GET', `${api}/api-keys`);
    await expectStatus(200, 'DELETE', `${api}/api-keys/{id}`, { params: { id: String(newKey.data.id) } });
    await expectStatus(404, 'DELETE', `${api}/api-keys/{id}`, { params: { id: String(newKey.data.id) } });

    // The console's session: signed in with the key, used, read back, ended.
    const sameOrigin = { Origin: app.origin };
    const signedIn = await send('POST', `${api}/console/sessions`, { key: null, json: { apiKey: app.apiKey }, headers: sameOrigin });
    expect(signedIn.status).toBe(200);
    const session = { key: null, headers: { Cookie: (signedIn.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '' } };
    await expectStatus(401, 'POST', `${api}/console/sessions`, { key: null, json: { apiKey: 'sb_wrong' }, headers: sameOrigin });
    await expectStatus(403, 'POST', `${api}/console/sessions`, {
      key: null,
      json: { apiKey: app.apiKey },
      headers: { Origin: 'http://other.test' },
    });
    await expectStatus(200, 'GET', `${api}/console/session`, session);
    await expectStatus(403, 'DELETE', `${api}/console/session`, session);
    await expectStatus(200, 'DELETE', `${api}/console/session`, {
      ...session,
      headers: { ...session.headers, ...sameOrigin, 'X-Switchboard-Console': '1' },
    });
    await expectStatus(401, 'GET', `${api}/console/session`, session);

    // Assets deleted once the widget has shown them.
    await expectStatus(200, 'DELETE', `${api}/delete-chatbot-profile-picture`, { query: bot });
    await expectStatus(200, 'DELETE', `${api}/delete-chatbot-icon`, { query: bot });

    // Operations and the reference itself.
    await expectStatus(200, 'GET', '/healthz', { key: null });
    await expectStatus(200, 'GET', '/readyz', { key: null });
    await expectStatus(200, 'GET', '/metrics', { key: null });
    const served = await expectStatus(200, 'GET', `${api}/openapi.json`, { key: null });
    expect(served).toEqual(JSON.parse(JSON.stringify(document)));
    await expectStatus(200, 'GET', '/docs', { key: null });
    await expectStatus(200, 'GET', '/docs/start.js', { key: null });
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']) {
      await expectStatus(200, 'GET', '/docs/{file}', { params: { file }, key: null });
    }
    await expectStatus(404, 'GET', '/docs/{file}', { params: { file: 'index.html' }, key: null });

    expect(exchanges.flatMap(problemsOf)).toEqual([]);
    const answered = new Set(exchanges.filter((e) => e.status < 300).map((e) => `${e.method} ${e.path}`));
    expect(documentedOperations.filter((operation) => !answered.has(operation))).toEqual([]);
  });
});
