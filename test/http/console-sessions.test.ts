import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../src/domain/api-keys.js';
import { createConsoleLink } from '../../src/domain/console-sessions.js';
import { createLogger } from '../../src/logger.js';
import {
  bearer,
  call,
  createChatbotViaApi,
  DENIED,
  INVALID,
  NO_KEY,
  NOT_FOUND,
  readJson,
  startApp,
  type StartOptions,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// The console's sign-in: a key (or a one-time link) traded for an HttpOnly session cookie that
// every API route accepts, scoped to its account, slid on use, ended by sign-out or idleness, and
// refused on state-changing calls from other origins.

const CONSOLE = { 'X-Switchboard-Console': '1' };
const MINUTE = 60_000;

/** The cookie's `name=value`, as a browser would send it back. */
function cookieOf(response: Response): string {
  const header = response.headers.get('Set-Cookie') ?? '';
  return header.split(';')[0] ?? '';
}

const tokenOf = (cookie: string) => cookie.slice('sb_session='.length);

describe.each(storeTargets.filter((target) => target.available))('$name store: console sessions', (target) => {
  let app: TestApp;
  const start = async (options: StartOptions = {}) => {
    app = await startApp(target, options);
  };
  afterEach(async () => {
    vi.useRealTimers();
    await app.close();
  });

  const signIn = (body: unknown, origin = app.origin) =>
    fetch(`${app.baseUrl}/console/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify(body),
    });
  const signedIn = async (apiKey = app.apiKey) => {
    const response = await signIn({ apiKey });
    expect(response.status).toBe(200);
    return cookieOf(response);
  };
  /** A call with the session cookie (and, for changes, the console's header and the hub's own Origin). */
  const withSession = (cookie: string, method: string, path: string, body?: unknown, headers = {}) =>
    fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        Cookie: cookie,
        ...(method === 'GET' ? {} : { ...CONSOLE, Origin: app.origin }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  describe('signing in', () => {
    beforeEach(() => start());

    it('answers the account and an HttpOnly, SameSite=Strict session cookie, stored only as a hash', async () => {
      const response = await signIn({ apiKey: app.apiKey });
      expect(await readJson(response)).toEqual({
        status: 200,
        body: { message: 'Success', data: { account: { id: app.accountId, name: 'primary' } } },
      });
      const header = response.headers.get('Set-Cookie') ?? '';
      const [pair, ...attributes] = header.split(/;\s*/);
      expect(pair).toMatch(/^sb_session=[\w-]{40,}$/);
      expect(attributes.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
      expect(response.headers.get('Cache-Control')).toBe('no-store');

      const token = tokenOf(cookieOf(response));
      expect(await app.store.consoleSessions.find(hashSecret(token), new Date())).toMatchObject({
        accountId: app.accountId,
        apiKeyHash: hashSecret(app.apiKey),
      });
      expect(await app.store.consoleSessions.find(token, new Date())).toBeUndefined();
    });

    it('lets the cookie stand in for the key on every API route, and reads the session back', async () => {
      const cookie = await signedIn();
      expect(await readJson(await withSession(cookie, 'GET', '/console/session'))).toEqual({
        status: 200,
        body: { message: 'Success', data: { account: { id: app.accountId, name: 'primary' } } },
      });
      const created = await readJson(
        await withSession(cookie, 'POST', '/create-chatbot', { chatbotName: 'Console bot', sourceText: 'We open at nine.' }),
      );
      expect(created.status).toBe(200);
      const response = await withSession(cookie, 'GET', '/get-chatbots');
      // Shared caches may keep answers to requests with cookies unless told not to.
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      const listed = await readJson(response);
      expect((listed.body as { chatbots: { name: string }[] }).chatbots.map((bot) => bot.name)).toEqual(['Console bot']);
    });

    it('refuses a wrong key with the invalid-key body, and sets no cookie', async () => {
      const response = await signIn({ apiKey: `${app.apiKey}x` });
      expect(await readJson(response)).toEqual({ status: 401, body: NO_KEY });
      expect(response.headers.get('Set-Cookie')).toBeNull();
    });

    it('refuses a body with neither or both credentials', async () => {
      for (const body of [{}, { apiKey: '' }, { apiKey: app.apiKey, linkToken: 'x' }, { key: app.apiKey }]) {
        expect(await readJson(await signIn(body))).toEqual({ status: 400, body: INVALID });
      }
    });

    it('refuses a sign-in posted from another origin, cross-site or same-site', async () => {
      const port = new URL(app.origin).port;
      for (const origin of ['http://other.test', `http://evil.localhost:${port}`, 'null']) {
        const response = await signIn({ apiKey: app.apiKey }, origin);
        expect(await readJson(response)).toEqual({ status: 403, body: DENIED });
        expect(response.headers.get('Set-Cookie')).toBeNull();
      }
    });

    it('answers 401 to a session read without a session, even with a key', async () => {
      const bare = await fetch(`${app.baseUrl}/console/session`);
      expect(await readJson(bare)).toEqual({ status: 401, body: NO_KEY });
      const keyed = await fetch(`${app.baseUrl}/console/session`, { headers: bearer(app.apiKey) });
      expect(await readJson(keyed)).toEqual({ status: 401, body: NO_KEY });
      const forged = await withSession('sb_session=made-up', 'GET', '/get-chatbots');
      expect(await readJson(forged)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  it('refuses sign-ins from an address for 10 minutes after 10 wrong keys or links, counting no success and no other address', async () => {
    await start({ trustProxy: true });
    const from = (ip: string, body: unknown) =>
      fetch(`${app.baseUrl}/console/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: app.origin, 'X-Forwarded-For': ip },
        body: JSON.stringify(body),
      });
    // Every attempt falls in one window of the limit's.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.ceil(Date.now() / (10 * MINUTE)) * 10 * MINUTE + MINUTE);
    const guesser = '203.0.113.7';
    for (let attempt = 0; attempt < 12; attempt += 1) expect((await from(guesser, { apiKey: app.apiKey })).status).toBe(200);
    for (let attempt = 0; attempt < 9; attempt += 1) expect((await from(guesser, { apiKey: `sb_guess${attempt}` })).status).toBe(401);
    // A malformed body guesses nothing: not counted.
    expect((await from(guesser, { apiKey: '' })).status).toBe(400);
    expect((await from(guesser, { linkToken: 'made-up' })).status).toBe(401);

    const refused = await from(guesser, { apiKey: app.apiKey });
    expect(await readJson(refused.clone())).toEqual({ status: 429, body: { message: 'Rate limit exceeded. Please try again later.' } });
    expect(Number(refused.headers.get('Retry-After'))).toBe(540);
    expect(refused.headers.get('Set-Cookie')).toBeNull();
    expect((await from('203.0.113.8', { apiKey: app.apiKey })).status).toBe(200);

    vi.setSystemTime(Date.now() + 9 * MINUTE);
    expect((await from(guesser, { apiKey: app.apiKey })).status).toBe(200);
  });

  it('marks the cookie Secure when PUBLIC_URL is https, and wants that origin', async () => {
    await start({ publicUrl: 'https://hub.example.org' });
    expect((await signIn({ apiKey: app.apiKey })).status).toBe(403);
    const response = await signIn({ apiKey: app.apiKey }, 'https://hub.example.org');
    expect(response.status).toBe(200);
    expect((response.headers.get('Set-Cookie') ?? '').split(/;\s*/)).toContain('Secure');
    const cookie = cookieOf(response);
    const change = (origin: string) =>
      withSession(cookie, 'POST', '/create-chatbot', { chatbotName: 'Secure bot' }, { Origin: origin });
    expect((await change(app.origin)).status).toBe(403);
    expect((await change('https://hub.example.org')).status).toBe(200);
  });

  describe('scope', () => {
    beforeEach(() => start());

    it('sees only its own account', async () => {
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Their bot', 'Theirs.', other.apiKey);
      const mine = await createChatbotViaApi(app, 'My bot');
      const cookie = await signedIn();

      const listed = await readJson(await withSession(cookie, 'GET', '/get-chatbots'));
      expect((listed.body as { chatbots: { id: string }[] }).chatbots.map((bot) => bot.id)).toEqual([mine]);
      for (const id of [theirs]) {
        expect(await readJson(await withSession(cookie, 'GET', `/chatbots/${id}`))).toEqual({ status: 404, body: NOT_FOUND });
        const renamed = await withSession(cookie, 'POST', '/update-chatbot-settings', { chatbotId: id, name: 'Taken' });
        expect(await readJson(renamed)).toEqual({ status: 404, body: NOT_FOUND });
      }
    });

    it('uses the key when a request carries both a key and a cookie', async () => {
      const other = await app.addAccount('other');
      await createChatbotViaApi(app, 'Their bot', 'Theirs.', other.apiKey);
      const cookie = await signedIn();
      const response = await fetch(`${app.baseUrl}/get-chatbots`, { headers: { ...bearer(other.apiKey), Cookie: cookie } });
      const listed = await readJson(response);
      expect((listed.body as { chatbots: { name: string }[] }).chatbots.map((bot) => bot.name)).toEqual(['Their bot']);
    });
  });

  describe('guarding changes against other origins', () => {
    beforeEach(() => start());

    const create = (cookie: string, headers: Record<string, string>) =>
      fetch(`${app.baseUrl}/create-chatbot`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ chatbotName: 'Forged bot' }),
      });

    it('refuses cross-site and same-site origins, a missing Origin and a missing header, and changes nothing', async () => {
      const cookie = await signedIn();
      const port = new URL(app.origin).port;
      const refused: Record<string, string>[] = [
        { ...CONSOLE, Origin: 'http://other.test' },
        { ...CONSOLE, Origin: `http://evil.localhost:${port}` },
        { ...CONSOLE, Origin: `https://127.0.0.1:${port}` },
        { ...CONSOLE },
        { Origin: app.origin },
        { 'X-Switchboard-Console': 'true', Origin: app.origin },
      ];
      for (const headers of refused) {
        expect(await readJson(await create(cookie, headers))).toEqual({ status: 403, body: DENIED });
      }
      const signOut = await fetch(`${app.baseUrl}/console/session`, {
        method: 'DELETE',
        headers: { Cookie: cookie, ...CONSOLE, Origin: 'http://other.test' },
      });
      expect(signOut.status).toBe(403);
      const listed = await readJson(await withSession(cookie, 'GET', '/get-chatbots'));
      expect(listed).toEqual({ status: 200, body: { chatbots: [] } });

      expect((await create(cookie, { ...CONSOLE, Origin: app.origin })).status).toBe(200);
    });

    it('leaves key-authenticated calls alone, whatever their Origin', async () => {
      const response = await fetch(`${app.baseUrl}/create-chatbot`, {
        method: 'POST',
        headers: { ...bearer(app.apiKey), 'Content-Type': 'application/json', Origin: 'http://other.test' },
        body: JSON.stringify({ chatbotName: 'Keyed bot' }),
      });
      expect(response.status).toBe(200);
    });
  });

  describe('ending', () => {
    it('signs out on the server: the old cookie then gets 401 everywhere', async () => {
      await start();
      const cookie = await signedIn();
      const response = await withSession(cookie, 'DELETE', '/console/session');
      expect(response.status).toBe(200);
      expect(response.headers.get('Set-Cookie')).toMatch(/^sb_session=; .*Max-Age=0/);
      expect(await app.store.consoleSessions.find(hashSecret(tokenOf(cookie)), new Date())).toBeUndefined();
      for (const [method, path] of [
        ['GET', '/console/session'],
        ['GET', '/get-chatbots'],
        ['DELETE', '/console/session'],
      ] as const) {
        expect(await readJson(await withSession(cookie, method, path))).toEqual({ status: 401, body: NO_KEY });
      }
      expect(await call('GET', `${app.baseUrl}/get-chatbots`, app.apiKey)).toEqual({ status: 200, body: { chatbots: [] } });
    });

    it('ends a session left unused for the idle time, and slides it on use', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const startedAt = Date.now();
      const at = (ms: number) => vi.setSystemTime(startedAt + ms);
      await start({ consoleSessionIdleHours: 1 });
      const cookie = await signedIn();
      const read = async () => (await withSession(cookie, 'GET', '/get-chatbots')).status;
      at(40 * MINUTE);
      expect(await read()).toBe(200);
      at(95 * MINUTE); // 95 minutes after sign-in, 55 after the last use
      expect(await read()).toBe(200);
      at(95 * MINUTE + 60 * MINUTE + 1);
      expect(await read()).toBe(401);
    });

    it('writes the last use at most once a minute', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const startedAt = Date.now();
      let touches = 0;
      await start({
        wrapStore: (store) => ({
          ...store,
          engine: store.engine,
          consoleSessions: {
            ...store.consoleSessions,
            touch: (...args) => {
              touches += 1;
              return store.consoleSessions.touch(...args);
            },
          },
        }),
      });
      const cookie = await signedIn();
      for (const seconds of [1, 20, 59]) {
        vi.setSystemTime(startedAt + seconds * 1000);
        expect((await withSession(cookie, 'GET', '/get-chatbots')).status).toBe(200);
      }
      expect(touches).toBe(0);
      vi.setSystemTime(startedAt + 61_000);
      await withSession(cookie, 'GET', '/get-chatbots');
      await withSession(cookie, 'GET', '/get-chatbots');
      expect(touches).toBe(1);
    });

    it('takes fractions of an hour as the idle time', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const startedAt = Date.now();
      await start({ consoleSessionIdleHours: 0.001 }); // 3.6 seconds
      const cookie = await signedIn();
      vi.setSystemTime(startedAt + 3_000);
      expect((await withSession(cookie, 'GET', '/console/session')).status).toBe(200);
      vi.setSystemTime(startedAt + 3_000 + 3_601);
      expect((await withSession(cookie, 'GET', '/console/session')).status).toBe(401);
    });
  });

  describe('one-time links', () => {
    beforeEach(() => start());

    it('signs in once with a link’s token, and never again', async () => {
      const account = (await app.store.accounts.findById(app.accountId))!;
      const linkToken = await createConsoleLink(app.store, account);
      const first = await signIn({ linkToken });
      expect(await readJson(first.clone())).toEqual({
        status: 200,
        body: { message: 'Success', data: { account: { id: app.accountId, name: 'primary' } } },
      });
      expect((await withSession(cookieOf(first), 'GET', '/get-chatbots')).status).toBe(200);
      expect(await readJson(await signIn({ linkToken }))).toEqual({ status: 401, body: NO_KEY });
      expect(await readJson(await signIn({ linkToken: 'made-up' }))).toEqual({ status: 401, body: NO_KEY });
    });

    it('refuses a link used after 15 minutes', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const account = (await app.store.accounts.findById(app.accountId))!;
      const linkToken = await createConsoleLink(app.store, account);
      vi.setSystemTime(Date.now() + 15 * MINUTE);
      expect(await readJson(await signIn({ linkToken }))).toEqual({ status: 401, body: NO_KEY });
    });
  });

  it('writes no key, session token or link token to the log', async () => {
    const lines: string[] = [];
    await start({ logger: createLogger('trace', { pretty: false, destination: { write: (line: string) => void lines.push(line) } }) });
    const account = (await app.store.accounts.findById(app.accountId))!;
    const linkToken = await createConsoleLink(app.store, account);
    const cookie = await signedIn();
    await signIn({ apiKey: `${app.apiKey}x` });
    await signIn({ linkToken });
    await signIn({ linkToken });
    await withSession(cookie, 'GET', '/get-chatbots');
    await withSession(cookie, 'POST', '/create-chatbot', { chatbotName: 'Forged' }, { Origin: 'http://other.test' });
    await withSession(cookie, 'DELETE', '/console/session');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [app.apiKey, tokenOf(cookie), linkToken]) expect(log).not.toContain(secret);
  });
});
