import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConsoleLink } from '../../src/domain/console-sessions.js';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import {
  bearer,
  call,
  createChatbotViaApi,
  DEFAULT_QUOTA,
  DENIED,
  INVALID,
  NO_KEY,
  NOT_FOUND,
  readJson,
  startApp,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// What the console needs of the API besides signing in: one chatbot with every setting, the
// account's keys and usage, chats saved as the Playground, and every source name in filters.

type KeyItem = { id: string; label: string; prefix: string | null; created_at: string };

/** `name=value` of the session cookie a sign-in set. */
async function signInCookie(app: TestApp, body: unknown): Promise<string> {
  const response = await fetch(`${app.baseUrl}/console/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: app.origin },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
}

/** A console call: the cookie, and for changes the console's header and the hub's own Origin. */
async function consoleCall(app: TestApp, cookie: string, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { Cookie: cookie };
  if (method !== 'GET') Object.assign(headers, { 'X-Switchboard-Console': '1', Origin: app.origin });
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return readJson(await fetch(`${app.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

describe.each(storeTargets.filter((target) => target.available))('$name store: the console’s API', (target) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  const keysOf = async (apiKey = app.apiKey) => {
    const { status, body } = await call('GET', `${app.baseUrl}/api-keys`, apiKey);
    expect(status).toBe(200);
    return (body as { data: KeyItem[] }).data;
  };
  const works = async (apiKey: string) => (await call('GET', `${app.baseUrl}/get-chatbots`, apiKey)).status;

  describe('GET /chatbots/{chatbotId}', () => {
    it('reads every setting, in the shape update-chatbot-settings takes back', async () => {
      const chatbotId = await createChatbotViaApi(app, 'Support bot');
      const change = { instructions: 'Be brief.', styles: { theme: 'dark' }, collectCustomerInformation: { email: { active: true } } };
      expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, ...change })).status).toBe(202);

      const { status, body } = await call('GET', `${app.baseUrl}/chatbots/${chatbotId}`, app.apiKey);
      const defaults = defaultSettings('Support bot');
      expect(status).toBe(200);
      expect(body).toEqual({
        message: 'Success',
        data: {
          id: chatbotId,
          name: 'Support bot',
          status: 'ready',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          // No image uploaded: the addresses the console shows them from are null.
          profilePictureUrl: null,
          iconUrl: null,
          settings: {
            ...defaults,
            instructions: 'Be brief.',
            styles: { ...defaults.styles, theme: 'dark' },
            collectCustomerInformation: {
              ...defaults.collectCustomerInformation,
              email: { ...defaults.collectCustomerInformation.email, active: true },
            },
          },
        },
      });
      const { settings } = (body as { data: { settings: object } }).data;
      expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, ...settings })).status).toBe(202);
    });

    it('answers 404 for an unknown chatbot and another account’s', async () => {
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Their bot', 'Theirs.', other.apiKey);
      for (const id of ['missing', theirs]) {
        expect(await call('GET', `${app.baseUrl}/chatbots/${id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      }
      expect(await call('GET', `${app.baseUrl}/chatbots/${theirs}`, undefined)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  describe('API keys', () => {
    it('lists the account’s keys by label and first characters, never the key', async () => {
      const response = await fetch(`${app.baseUrl}/api-keys`, { headers: bearer(app.apiKey) });
      const text = await response.text();
      expect(text).not.toContain(app.apiKey);
      expect(JSON.parse(text)).toEqual({
        message: 'Success',
        data: [{ id: expect.any(String), label: 'Default', prefix: app.apiKey.slice(0, 7), created_at: expect.any(String) }],
      });
      const other = await app.addAccount('other');
      expect((await keysOf(other.apiKey)).map((key) => key.prefix)).toEqual([other.apiKey.slice(0, 7)]);
    });

    it('creates a key shown once, which then works', async () => {
      const { status, body } = await call('POST', `${app.baseUrl}/api-keys`, app.apiKey, { label: 'CI' });
      expect(status).toBe(201);
      const created = (body as { data: KeyItem & { key: string } }).data;
      expect(created).toEqual({
        id: expect.any(String),
        label: 'CI',
        prefix: created.key.slice(0, 7),
        created_at: expect.any(String),
        key: expect.stringMatching(/^sb_[\w-]{32}$/),
      });
      expect(await works(created.key)).toBe(200);
      const listed = await keysOf();
      expect(listed.map((key) => key.label)).toEqual(['Default', 'CI']);
      expect(JSON.stringify(listed)).not.toContain(created.key);
    });

    it('refuses a missing, blank or overlong label', async () => {
      for (const body of [{}, { label: ' ' }, { label: 'x'.repeat(101) }, { label: 'CI', key: 'sb_mine' }]) {
        expect(await call('POST', `${app.baseUrl}/api-keys`, app.apiKey, body)).toEqual({ status: 400, body: INVALID });
      }
      expect(await keysOf()).toHaveLength(1);
    });

    it('revokes a key at once, and ends the console sessions signed in with it', async () => {
      const second = (await call('POST', `${app.baseUrl}/api-keys`, app.apiKey, { label: 'Laptop' })).body as { data: KeyItem & { key: string } };
      expect(await works(second.data.key)).toBe(200);
      const cookie = await signInCookie(app, { apiKey: second.data.key });
      const kept = await signInCookie(app, { apiKey: app.apiKey });

      const revoked = await call('DELETE', `${app.baseUrl}/api-keys/${second.data.id}`, app.apiKey);
      expect(revoked).toEqual({ status: 200, body: { message: 'Success', data: { ...second.data, key: undefined } } });
      expect(await works(second.data.key)).toBe(401);
      expect(await consoleCall(app, cookie, 'GET', '/console/session')).toEqual({ status: 401, body: NO_KEY });
      expect((await consoleCall(app, kept, 'GET', '/console/session')).status).toBe(200);
      expect((await keysOf()).map((key) => key.label)).toEqual(['Default']);
      expect(await call('DELETE', `${app.baseUrl}/api-keys/${second.data.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 404 for another account’s key, and leaves it working', async () => {
      const other = await app.addAccount('other');
      const [theirs] = await keysOf(other.apiKey);
      expect(await call('DELETE', `${app.baseUrl}/api-keys/${theirs?.id}`, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await works(other.apiKey)).toBe(200);
    });

    it('refuses to revoke the last key to a caller who depends on it, and allows a link session', async () => {
      const [only] = await keysOf();
      const path = `/api-keys/${only?.id}`;
      expect(await call('DELETE', `${app.baseUrl}${path}`, app.apiKey)).toEqual({ status: 403, body: DENIED });
      const keySession = await signInCookie(app, { apiKey: app.apiKey });
      expect(await consoleCall(app, keySession, 'DELETE', path)).toEqual({ status: 403, body: DENIED });
      expect(await works(app.apiKey)).toBe(200);

      const account = (await app.store.accounts.findById(app.accountId))!;
      const linkSession = await signInCookie(app, { linkToken: await createConsoleLink(app.store, account) });
      expect((await consoleCall(app, linkSession, 'DELETE', path)).status).toBe(200);
      expect(await works(app.apiKey)).toBe(401);
      expect(await consoleCall(app, keySession, 'GET', '/console/session')).toEqual({ status: 401, body: NO_KEY });
      expect(await consoleCall(app, linkSession, 'GET', '/api-keys')).toEqual({ status: 200, body: { message: 'Success', data: [] } });
    });
  });

  describe('GET /account', () => {
    it('answers the quota and this month’s messages', async () => {
      const period = new Date().toISOString().slice(0, 7);
      const account = async () => (await call('GET', `${app.baseUrl}/account`, app.apiKey)).body;
      expect(await account()).toEqual({
        message: 'Success',
        data: { name: 'primary', quota: DEFAULT_QUOTA, usage: { period, messages: 0 } },
      });
      const chatbotId = await createChatbotViaApi(app);
      const chat = { chatbotId, messages: [{ role: 'user', content: 'When do you open?' }] };
      expect((await call('POST', `${app.baseUrl}/chat`, app.apiKey, chat)).status).toBe(200);
      expect(await account()).toMatchObject({ data: { usage: { period, messages: 1 } } });
      const other = await app.addAccount('other', { messagesPerMonth: 5, maxChatbots: 2 });
      expect((await call('GET', `${app.baseUrl}/account`, other.apiKey)).body).toEqual({
        message: 'Success',
        data: { name: 'other', quota: { messagesPerMonth: 5, maxChatbots: 2 }, usage: { period, messages: 0 } },
      });
    });
  });

  describe('conversation sources', () => {
    let chatbotId: string;
    beforeEach(async () => {
      chatbotId = await createChatbotViaApi(app);
    });
    const chat = (conversationId: string, source?: string) => ({
      chatbotId,
      conversationId,
      messages: [{ role: 'user', content: 'When do you open?' }],
      ...(source && { source }),
    });
    const listed = async (filteredSources?: string) => {
      const query = new URLSearchParams({ chatbotId, ...(filteredSources !== undefined && { filteredSources }) });
      const { status, body } = await call('GET', `${app.baseUrl}/get-conversations?${query}`, app.apiKey);
      return status === 200 ? (body as { data: { id: string; source: string }[] }).data.map((item) => `${item.id}:${item.source}`) : status;
    };

    it('saves console chats as the Playground, and refuses that source from a key', async () => {
      expect(await call('POST', `${app.baseUrl}/chat`, app.apiKey, chat('keyed', 'Playground'))).toEqual({ status: 400, body: INVALID });
      const cookie = await signInCookie(app, { apiKey: app.apiKey });
      expect((await consoleCall(app, cookie, 'POST', '/chat', chat('tried', 'Playground'))).status).toBe(200);
      expect((await call('POST', `${app.baseUrl}/chat`, app.apiKey, chat('api'))).status).toBe(200);
      expect(await listed()).toEqual(['api:API', 'tried:Playground']);
    });

    it('filters by every source name of the hosted reference, and Discord', async () => {
      const cookie = await signInCookie(app, { apiKey: app.apiKey });
      await consoleCall(app, cookie, 'POST', '/chat', chat('tried', 'Playground'));
      for (const [id, source] of [['api', undefined], ['slack', 'Slack'], ['discord', 'Discord'], ['widget', 'Widget or Iframe']]) {
        expect((await call('POST', `${app.baseUrl}/chat`, app.apiKey, chat(id!, source))).status).toBe(200);
      }
      expect(await listed('Playground')).toEqual(['tried:Playground']);
      expect(await listed('Discord,API')).toEqual(['discord:Discord', 'api:API']);
      for (const never of ['WhatsApp', 'Messenger', 'Instagram', 'Action preview', 'action_preview,whatsapp']) {
        expect(await listed(never)).toEqual([]);
      }
      expect(await listed('WhatsApp,Slack')).toEqual(['slack:Slack']);
      expect(await listed('Widget or Iframe')).toEqual(['widget:Widget or Iframe']);
      expect(await listed('Telegram')).toBe(400);
      expect(await listed('')).toHaveLength(5);
    });
  });
});
