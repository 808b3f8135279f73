import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { queryString, type QueryParams } from '../support/listing.js';
import { storeTargets } from '../support/stores.js';
import type { DigestRunRepository } from '../../src/store/port.js';

const BINDING_KEYS = ['id', 'platform', 'workspaceId', 'channelId', 'chatbotId', 'mode', 'created_at', 'updated_at'];
const DIGEST_KEYS = [
  'id',
  'chatbotId',
  'platform',
  'workspaceId',
  'channelId',
  'time',
  'timezone',
  'postWhenEmpty',
  'created_at',
  'updated_at',
];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type BindingBody = {
  id: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  chatbotId: string;
  mode: string;
  created_at: string;
  updated_at: string;
};
type DigestBody = {
  id: string;
  chatbotId: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  time: string;
  timezone: string;
  postWhenEmpty: boolean;
  created_at: string;
  updated_at: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let bot: string;
  let otherBot: string;

  const bindingsUrl = () => `${app.baseUrl}/integrations/bindings`;
  const digestsUrl = () => `${app.baseUrl}/integrations/digests`;
  const slackChannel = { platform: 'slack', workspaceId: 'T0001', channelId: 'C0001' };

  // `null` sends no key (an undefined argument would take the default).
  const post = (url: string, body: unknown, apiKey: string | null = app.apiKey) =>
    call('POST', url, apiKey ?? undefined, body);
  const get = (url: string, params: QueryParams = {}, apiKey: string | null = app.apiKey) =>
    call('GET', `${url}${queryString(params)}`, apiKey ?? undefined);
  const remove = (url: string, id: string, apiKey: string | null = app.apiKey) =>
    call('DELETE', `${url}/${encodeURIComponent(id)}`, apiKey ?? undefined);

  async function bind(body: object, apiKey = app.apiKey): Promise<BindingBody> {
    const { status, body: answer } = await post(bindingsUrl(), body, apiKey);
    expect(status).toBe(200);
    return (answer as { data: BindingBody }).data;
  }
  async function bindings(params: QueryParams = {}, apiKey = app.apiKey): Promise<BindingBody[]> {
    const { status, body } = await get(bindingsUrl(), { size: '100', ...params }, apiKey);
    expect(status).toBe(200);
    return (body as { data: BindingBody[] }).data;
  }
  async function subscribe(body: object, apiKey = app.apiKey): Promise<DigestBody> {
    const { status, body: answer } = await post(digestsUrl(), body, apiKey);
    expect(status).toBe(200);
    return (answer as { data: DigestBody }).data;
  }
  /** The listed subscriptions as a subscription is answered: each listed with a `lastRun`, null before its first day ran. */
  async function digests(params: QueryParams = {}, apiKey = app.apiKey): Promise<DigestBody[]> {
    const listed = await digestsWithRuns(params, apiKey);
    expect(listed.map((digest) => digest.lastRun)).toEqual(listed.map(() => null));
    return listed.map(({ lastRun: _lastRun, ...digest }) => digest);
  }
  async function digestsWithRuns(params: QueryParams = {}, apiKey = app.apiKey): Promise<(DigestBody & { lastRun: unknown })[]> {
    const { status, body } = await get(digestsUrl(), { size: '100', ...params }, apiKey);
    expect(status).toBe(200);
    return (body as { data: (DigestBody & { lastRun: unknown })[] }).data;
  }
  const ids = (items: { id: string }[]) => items.map((item) => item.id);

  /** Another account with a chatbot of its own. */
  async function stranger() {
    const account = await app.addAccount('stranger');
    const theirBot = await createChatbotViaApi(app, 'Theirs', 'Their material.', account.apiKey);
    return { ...account, bot: theirBot };
  }

  beforeEach(async () => {
    app = await startApp(target);
    bot = await createChatbotViaApi(app);
    otherBot = await createChatbotViaApi(app, 'Sales bot', 'We sell lamps.');
  });
  afterEach(async () => {
    await app.close();
  });

  describe('POST /integrations/bindings', () => {
    it('binds a channel and answers the binding with exactly its fields', async () => {
      const before = Date.now();
      const { status, body } = await post(bindingsUrl(), { ...slackChannel, chatbotId: bot, mode: 'all' });
      expect(status).toBe(200);
      expect(Object.keys(body as object)).toEqual(['message', 'data']);
      const { message, data } = body as { message: string; data: BindingBody };
      expect(message).toBe('Success');
      expect(Object.keys(data)).toEqual(BINDING_KEYS);
      expect(data).toEqual({
        id: expect.any(String),
        ...slackChannel,
        chatbotId: bot,
        mode: 'all',
        created_at: expect.stringMatching(ISO_8601),
        updated_at: data.created_at,
      });
      expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(data.created_at)).toBeLessThanOrEqual(Date.now());
      expect(await bindings()).toEqual([data]);
    });

    it('defaults the mode to mentions and takes the workspace default `*` and Discord ids', async () => {
      const fallback = await bind({ platform: 'slack', workspaceId: 'T0001', channelId: '*', chatbotId: bot });
      expect(fallback).toMatchObject({ channelId: '*', mode: 'mentions' });
      const discord = await bind({
        platform: 'discord',
        workspaceId: '1122334455667788',
        channelId: '9988776655443322',
        chatbotId: otherBot,
        mode: 'mentions',
      });
      expect(discord).toMatchObject({ platform: 'discord', workspaceId: '1122334455667788', chatbotId: otherBot });
      const edgy = await bind({ platform: 'slack', workspaceId: 'a'.repeat(64), channelId: 'x_y.z:w-1', chatbotId: bot });
      expect(edgy).toMatchObject({ workspaceId: 'a'.repeat(64), channelId: 'x_y.z:w-1' });
      expect(ids(await bindings()).sort()).toEqual(ids([fallback, discord, edgy]).sort());
    });

    it('replaces the chatbot and mode of a channel bound again, keeping its id and creation time', async () => {
      const first = await bind({ ...slackChannel, chatbotId: bot, mode: 'mentions' });
      await sleep(5);
      const second = await bind({ ...slackChannel, chatbotId: otherBot, mode: 'all' });
      expect(second).toEqual({
        ...first,
        chatbotId: otherBot,
        mode: 'all',
        updated_at: expect.stringMatching(ISO_8601),
      });
      expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
      expect(await bindings()).toEqual([second]);
      // Absent mode means the default, not the previous value: a POST describes the whole binding.
      const third = await bind({ ...slackChannel, chatbotId: otherBot });
      expect(third).toMatchObject({ id: first.id, mode: 'mentions' });
    });

    it('keeps separate bindings per platform, workspace and channel', async () => {
      const made = [
        await bind({ ...slackChannel, chatbotId: bot }),
        await bind({ ...slackChannel, channelId: 'C0002', chatbotId: bot }),
        await bind({ ...slackChannel, workspaceId: 'T0002', chatbotId: bot }),
        await bind({ ...slackChannel, platform: 'discord', chatbotId: bot }),
      ];
      expect(new Set(ids(made)).size).toBe(4);
      expect(await bindings()).toHaveLength(4);
    });

    it.each<[string, unknown]>([
      ['no body', undefined],
      ['an empty object', {}],
      ['an array', [{ ...slackChannel, chatbotId: 'x' }]],
      ['a missing platform', { workspaceId: 'T1', channelId: 'C1', chatbotId: 'BOT' }],
      ['an unknown platform', { ...slackChannel, platform: 'teams', chatbotId: 'BOT' }],
      ['a capitalised platform', { ...slackChannel, platform: 'Slack', chatbotId: 'BOT' }],
      ['a missing workspaceId', { platform: 'slack', channelId: 'C1', chatbotId: 'BOT' }],
      ['an empty workspaceId', { ...slackChannel, workspaceId: '', chatbotId: 'BOT' }],
      ['a workspaceId of 65 characters', { ...slackChannel, workspaceId: 'a'.repeat(65), chatbotId: 'BOT' }],
      ['a workspaceId with a space', { ...slackChannel, workspaceId: 'T 1', chatbotId: 'BOT' }],
      ['a workspaceId with a slash', { ...slackChannel, workspaceId: 'T/1', chatbotId: 'BOT' }],
      ['the workspaceId `*`', { ...slackChannel, workspaceId: '*', chatbotId: 'BOT' }],
      ['a numeric workspaceId', { ...slackChannel, workspaceId: 1234, chatbotId: 'BOT' }],
      ['a missing channelId', { platform: 'slack', workspaceId: 'T1', chatbotId: 'BOT' }],
      ['a channelId `**`', { ...slackChannel, channelId: '**', chatbotId: 'BOT' }],
      ['a channelId `C*`', { ...slackChannel, channelId: 'C*', chatbotId: 'BOT' }],
      ['a channelId with a #', { ...slackChannel, channelId: '#general', chatbotId: 'BOT' }],
      ['a null channelId', { ...slackChannel, channelId: null, chatbotId: 'BOT' }],
      ['a missing chatbotId', { ...slackChannel }],
      ['an empty chatbotId', { ...slackChannel, chatbotId: '' }],
      ['a chatbotId of 65 characters', { ...slackChannel, chatbotId: 'b'.repeat(65) }],
      ['an unknown mode', { ...slackChannel, chatbotId: 'BOT', mode: 'everything' }],
      ['a null mode', { ...slackChannel, chatbotId: 'BOT', mode: null }],
      ['an unknown field', { ...slackChannel, chatbotId: 'BOT', team: 'T1' }],
      ['malformed JSON', '{"platform": "slack",'],
    ])('answers 400 for %s', async (_case, body) => {
      const real = (value: unknown) =>
        value && typeof value === 'object' && !Array.isArray(value) && (value as { chatbotId?: unknown }).chatbotId === 'BOT'
          ? { ...value, chatbotId: bot }
          : value;
      expect(await post(bindingsUrl(), real(body))).toEqual({ status: 400, body: INVALID });
      expect(await bindings()).toEqual([]);
    });

    it('answers 404 for a chatbot that does not exist or is another account’s', async () => {
      const other = await stranger();
      expect(await post(bindingsUrl(), { ...slackChannel, chatbotId: 'no-such-bot' })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await post(bindingsUrl(), { ...slackChannel, chatbotId: other.bot })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await bindings()).toEqual([]);
      expect(await bindings({}, other.apiKey)).toEqual([]);
    });

    it('answers 401 without a key or with an unknown one', async () => {
      const body = { ...slackChannel, chatbotId: bot };
      expect(await post(bindingsUrl(), body, null)).toEqual({ status: 401, body: NO_KEY });
      expect(await post(bindingsUrl(), body, 'sk-not-a-key')).toEqual({ status: 401, body: NO_KEY });
      expect(await bindings()).toEqual([]);
    });

    it('lets two accounts bind the same channel independently', async () => {
      const other = await stranger();
      const mine = await bind({ ...slackChannel, chatbotId: bot });
      const theirs = await bind({ ...slackChannel, chatbotId: other.bot }, other.apiKey);
      expect(theirs.id).not.toBe(mine.id);
      expect(await bindings()).toEqual([mine]);
      expect(await bindings({}, other.apiKey)).toEqual([theirs]);
    });
  });

  describe('GET /integrations/bindings', () => {
    let made: Record<'a' | 'b' | 'c' | 'd', BindingBody>;

    beforeEach(async () => {
      // Apart in time, so "oldest first" is creation order rather than a tie broken by random ids.
      made = {
        a: await bind({ ...slackChannel, chatbotId: bot }),
        b: await sleep(2).then(() => bind({ ...slackChannel, channelId: 'C0002', chatbotId: otherBot })),
        c: await sleep(2).then(() => bind({ ...slackChannel, workspaceId: 'T0002', channelId: '*', chatbotId: bot })),
        d: await sleep(2).then(() =>
          bind({ platform: 'discord', workspaceId: 'G1', channelId: 'C0001', chatbotId: otherBot }),
        ),
      };
    });

    it('lists every binding of the account, oldest first', async () => {
      expect(await bindings()).toEqual([made.a, made.b, made.c, made.d]);
    });

    it.each<[string, QueryParams, ('a' | 'b' | 'c' | 'd')[]]>([
      ['platform', { platform: 'slack' }, ['a', 'b', 'c']],
      ['platform discord', { platform: 'discord' }, ['d']],
      ['workspaceId', { workspaceId: 'T0001' }, ['a', 'b']],
      ['channelId', { channelId: 'C0001' }, ['a', 'd']],
      ['channelId `*`', { channelId: '*' }, ['c']],
      ['chatbotId', { chatbotId: 'OTHER' }, ['b', 'd']],
      ['several fields', { platform: 'slack', channelId: 'C0001' }, ['a']],
      ['a prefix (exact matches only)', { workspaceId: 'T000' }, []],
      ['an unknown chatbot', { chatbotId: 'no-such-bot' }, []],
    ])('filters by %s', async (_case, params, expected) => {
      const query = params.chatbotId === 'OTHER' ? { ...params, chatbotId: otherBot } : params;
      expect(await bindings(query)).toEqual(expected.map((key) => made[key]));
    });

    it('pages with page and size', async () => {
      expect(await bindings({ page: '1', size: '3' })).toEqual([made.a, made.b, made.c]);
      expect(await bindings({ page: '2', size: '3' })).toEqual([made.d]);
      expect(await bindings({ page: '3', size: '3' })).toEqual([]);
      expect(await bindings({ size: '1', page: '2', platform: 'slack' })).toEqual([made.b]);
    });

    it('answers with the success wrapper', async () => {
      const { status, body } = await get(bindingsUrl(), { platform: 'discord' });
      expect(status).toBe(200);
      expect(body).toEqual({ message: 'Success', data: [made.d] });
    });

    it.each<[string, QueryParams]>([
      ['an unknown platform', { platform: 'teams' }],
      ['an empty platform', { platform: '' }],
      ['a bad workspaceId', { workspaceId: 'T 1' }],
      ['an empty channelId', { channelId: '' }],
      ['a bad chatbotId', { chatbotId: 'x'.repeat(65) }],
      ['two platforms', { platform: ['slack', 'discord'] }],
      ['page 0', { page: '0' }],
      ['size 101', { size: '101' }],
      ['size abc', { size: 'abc' }],
    ])('answers 400 for %s', async (_case, params) => {
      expect(await get(bindingsUrl(), params)).toEqual({ status: 400, body: INVALID });
    });

    it('never lists another account’s bindings', async () => {
      const other = await stranger();
      expect(await bindings({}, other.apiKey)).toEqual([]);
      expect(await bindings({ chatbotId: bot }, other.apiKey)).toEqual([]);
      const theirs = await bind({ ...slackChannel, chatbotId: other.bot }, other.apiKey);
      expect(await bindings({}, other.apiKey)).toEqual([theirs]);
      expect(await bindings()).toEqual([made.a, made.b, made.c, made.d]);
    });

    it('answers 401 without a key', async () => {
      expect(await get(bindingsUrl(), {}, null)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  describe('GET /integrations/bindings/resolve', () => {
    const resolveUrl = () => `${bindingsUrl()}/resolve`;
    const resolve = (params: QueryParams, apiKey: string | null = app.apiKey) => get(resolveUrl(), params, apiKey);

    it('answers the channel’s own binding, else the workspace default, else 404', async () => {
      expect(await resolve(slackChannel)).toEqual({ status: 404, body: NOT_FOUND });
      const fallback = await bind({ ...slackChannel, channelId: '*', chatbotId: otherBot });
      expect(await resolve(slackChannel)).toEqual({ status: 200, body: { message: 'Success', data: fallback } });
      const own = await bind({ ...slackChannel, chatbotId: bot, mode: 'all' });
      expect(await resolve(slackChannel)).toEqual({ status: 200, body: { message: 'Success', data: own } });
      expect(await resolve({ ...slackChannel, channelId: 'C0009' })).toEqual({
        status: 200,
        body: { message: 'Success', data: fallback },
      });
      expect(await resolve({ ...slackChannel, channelId: '*' })).toEqual({
        status: 200,
        body: { message: 'Success', data: fallback },
      });
      expect(await resolve({ ...slackChannel, workspaceId: 'T0002' })).toEqual({ status: 404, body: NOT_FOUND });
      expect(await resolve({ ...slackChannel, platform: 'discord' })).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('falls back to the default again once the channel is unbound', async () => {
      const fallback = await bind({ ...slackChannel, channelId: '*', chatbotId: otherBot });
      const own = await bind({ ...slackChannel, chatbotId: bot });
      expect((await remove(bindingsUrl(), own.id)).status).toBe(200);
      expect(await resolve(slackChannel)).toEqual({ status: 200, body: { message: 'Success', data: fallback } });
    });

    it('never resolves to another account’s binding', async () => {
      const other = await stranger();
      await bind({ ...slackChannel, channelId: '*', chatbotId: other.bot }, other.apiKey);
      expect(await resolve(slackChannel)).toEqual({ status: 404, body: NOT_FOUND });
      const mine = await bind({ ...slackChannel, chatbotId: bot });
      expect(await resolve(slackChannel)).toEqual({ status: 200, body: { message: 'Success', data: mine } });
      expect((await resolve(slackChannel, other.apiKey)).body).toMatchObject({ data: { chatbotId: other.bot } });
    });

    it.each<[string, QueryParams]>([
      ['no parameters', {}],
      ['a missing platform', { workspaceId: 'T0001', channelId: 'C0001' }],
      ['a missing workspaceId', { platform: 'slack', channelId: 'C0001' }],
      ['a missing channelId', { platform: 'slack', workspaceId: 'T0001' }],
      ['an unknown platform', { ...slackChannel, platform: 'irc' }],
      ['a bad channelId', { ...slackChannel, channelId: 'C 1' }],
      ['the workspaceId `*`', { ...slackChannel, workspaceId: '*' }],
      ['two channelIds', { ...slackChannel, channelId: ['C0001', 'C0002'] }],
    ])('answers 400 for %s', async (_case, params) => {
      expect(await resolve(params)).toEqual({ status: 400, body: INVALID });
    });

    it('answers 401 without a key', async () => {
      expect(await resolve(slackChannel, null)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  describe('DELETE /integrations/bindings/{id}', () => {
    it('deletes a binding and answers it', async () => {
      const gone = await bind({ ...slackChannel, chatbotId: bot });
      const kept = await bind({ ...slackChannel, channelId: 'C0002', chatbotId: bot });
      expect(await remove(bindingsUrl(), gone.id)).toEqual({ status: 200, body: { message: 'Success', data: gone } });
      expect(await bindings()).toEqual([kept]);
      expect(await remove(bindingsUrl(), gone.id)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 404 for an unknown id and for another account’s binding, which stays', async () => {
      const other = await stranger();
      const theirs = await bind({ ...slackChannel, chatbotId: other.bot }, other.apiKey);
      expect(await remove(bindingsUrl(), 'no-such-binding')).toEqual({ status: 404, body: NOT_FOUND });
      expect(await remove(bindingsUrl(), theirs.id)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await bindings({}, other.apiKey)).toEqual([theirs]);
    });

    it('answers 401 without a key, leaving the binding', async () => {
      const kept = await bind({ ...slackChannel, chatbotId: bot });
      expect(await remove(bindingsUrl(), kept.id, null)).toEqual({ status: 401, body: NO_KEY });
      expect(await bindings()).toEqual([kept]);
    });
  });

  describe('POST /integrations/digests', () => {
    const daily = () => ({ chatbotId: bot, ...slackChannel, time: '09:00', timezone: 'Europe/Oslo' });

    it('subscribes a channel and answers the subscription with exactly its fields', async () => {
      const before = Date.now();
      const { status, body } = await post(digestsUrl(), daily());
      expect(status).toBe(200);
      expect(Object.keys(body as object)).toEqual(['message', 'data']);
      const { message, data } = body as { message: string; data: DigestBody };
      expect(message).toBe('Success');
      expect(Object.keys(data)).toEqual(DIGEST_KEYS);
      expect(data).toEqual({
        id: expect.any(String),
        ...daily(),
        postWhenEmpty: false,
        created_at: expect.stringMatching(ISO_8601),
        updated_at: data.created_at,
      });
      expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1);
      expect(await digests()).toEqual([data]);
    });

    it.each([
      ['00:00', 'UTC'],
      ['23:59', 'America/Argentina/Buenos_Aires'],
      ['12:30', 'Etc/GMT+1'],
      ['07:05', 'Asia/Kolkata'],
    ])('accepts %s in %s', async (time, timezone) => {
      const digest = await subscribe({ ...daily(), time, timezone, postWhenEmpty: true });
      expect(digest).toMatchObject({ time, timezone, postWhenEmpty: true });
    });

    it('replaces the schedule of a channel subscribed again, keeping its id and creation time', async () => {
      const first = await subscribe(daily());
      await sleep(5);
      const second = await subscribe({ ...daily(), time: '17:45', timezone: 'America/New_York', postWhenEmpty: true });
      expect(second).toEqual({
        ...first,
        time: '17:45',
        timezone: 'America/New_York',
        postWhenEmpty: true,
        updated_at: expect.stringMatching(ISO_8601),
      });
      expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
      expect(await digests()).toEqual([second]);
      const third = await subscribe(daily());
      expect(third).toMatchObject({ id: first.id, time: '09:00', postWhenEmpty: false });
    });

    it('keeps one subscription per chatbot and channel', async () => {
      const made = [
        await subscribe(daily()),
        await subscribe({ ...daily(), chatbotId: otherBot }),
        await subscribe({ ...daily(), channelId: 'C0002' }),
        await subscribe({ ...daily(), workspaceId: 'T0002' }),
        await subscribe({ ...daily(), platform: 'discord' }),
      ];
      expect(new Set(ids(made)).size).toBe(5);
      expect(await digests()).toHaveLength(5);
    });

    it.each<[string, Record<string, unknown>]>([
      ['time 24:00', { time: '24:00' }],
      ['time 9:00', { time: '9:00' }],
      ['time 12:60', { time: '12:60' }],
      ['time 12:5', { time: '12:5' }],
      ['time 1200', { time: '1200' }],
      ['time 12:00:00', { time: '12:00:00' }],
      ['time with a space', { time: ' 12:00' }],
      ['a numeric time', { time: 900 }],
      ['an empty time', { time: '' }],
      ['a missing time', { time: undefined }],
      ['timezone Mars/Olympus', { timezone: 'Mars/Olympus' }],
      ['an empty timezone', { timezone: '' }],
      ['an offset timezone', { timezone: '+01:00' }],
      ['a timezone with a trailing space', { timezone: 'Europe/Oslo ' }],
      ['a missing timezone', { timezone: undefined }],
      ['postWhenEmpty as a string', { postWhenEmpty: 'true' }],
      ['postWhenEmpty null', { postWhenEmpty: null }],
      ['the channelId `*`', { channelId: '*' }],
      ['an unknown platform', { platform: 'teams' }],
      ['a bad workspaceId', { workspaceId: 'T 1' }],
      ['a missing chatbotId', { chatbotId: undefined }],
      ['an unknown field', { cron: '0 9 * * *' }],
    ])('answers 400 for %s', async (_case, change) => {
      expect(await post(digestsUrl(), { ...daily(), ...change })).toEqual({ status: 400, body: INVALID });
      expect(await digests()).toEqual([]);
    });

    it('answers 400 for no body and for malformed JSON', async () => {
      expect(await post(digestsUrl(), undefined)).toEqual({ status: 400, body: INVALID });
      expect(await post(digestsUrl(), '{"time":')).toEqual({ status: 400, body: INVALID });
    });

    it('answers 404 for a chatbot that does not exist or is another account’s', async () => {
      const other = await stranger();
      expect(await post(digestsUrl(), { ...daily(), chatbotId: 'no-such-bot' })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await post(digestsUrl(), { ...daily(), chatbotId: other.bot })).toEqual({ status: 404, body: NOT_FOUND });
      expect(await app.store.digests.listAll()).toEqual([]);
    });

    it('answers 401 without a key', async () => {
      expect(await post(digestsUrl(), daily(), null)).toEqual({ status: 401, body: NO_KEY });
      expect(await app.store.digests.listAll()).toEqual([]);
    });
  });

  describe('GET /integrations/digests', () => {
    let made: Record<'a' | 'b' | 'c', DigestBody>;

    beforeEach(async () => {
      const base = { ...slackChannel, time: '09:00', timezone: 'UTC' };
      // Apart in time, so "oldest first" is creation order rather than a tie broken by random ids.
      made = {
        a: await subscribe({ ...base, chatbotId: bot }),
        b: await sleep(2).then(() => subscribe({ ...base, chatbotId: otherBot, channelId: 'C0002' })),
        c: await sleep(2).then(() => subscribe({ ...base, chatbotId: bot, platform: 'discord', workspaceId: 'G1' })),
      };
    });

    it.each<[string, QueryParams, ('a' | 'b' | 'c')[]]>([
      ['nothing', {}, ['a', 'b', 'c']],
      ['chatbotId', { chatbotId: 'BOT' }, ['a', 'c']],
      ['platform', { platform: 'discord' }, ['c']],
      ['workspaceId', { workspaceId: 'T0001' }, ['a', 'b']],
      ['channelId', { channelId: 'C0002' }, ['b']],
      ['several fields', { chatbotId: 'BOT', platform: 'slack' }, ['a']],
      ['an unknown chatbot', { chatbotId: 'no-such-bot' }, []],
    ])('filters by %s', async (_case, params, expected) => {
      const query = params.chatbotId === 'BOT' ? { ...params, chatbotId: bot } : params;
      expect(await digests(query)).toEqual(expected.map((key) => made[key]));
    });

    it('lists each subscription with how its latest finished day went', async () => {
      const at = (iso: string) => new Date(iso);
      const day = (digestId: string, localDate: string) => ({
        digestId,
        localDate,
        scheduledAt: at(`${localDate}T09:00:00.000Z`),
        claimedBy: 'clock',
        claimedAt: at(`${localDate}T09:00:00.000Z`),
        leaseUntil: at(`${localDate}T09:10:00.000Z`),
      });
      await app.store.digestRuns.claim(day(made.a.id, '2026-03-10'));
      await app.store.digestRuns.finish(made.a.id, '2026-03-10', { status: 'posted', attempts: 1, finishedAt: at('2026-03-10T09:00:01.000Z') });
      await app.store.digestRuns.claim(day(made.a.id, '2026-03-11'));
      await app.store.digestRuns.finish(made.a.id, '2026-03-11', { status: 'failed', attempts: 1, error: 'not_in_channel', finishedAt: at('2026-03-11T09:00:01.000Z') });
      // A day in progress is not how a day went.
      await app.store.digestRuns.claim(day(made.b.id, '2026-03-11'));
      expect((await digestsWithRuns()).map((digest) => [digest.id, digest.lastRun])).toEqual([
        [made.a.id, { localDate: '2026-03-11', status: 'failed', attempts: 1, error: 'not_in_channel', finished_at: '2026-03-11T09:00:01.000Z' }],
        [made.b.id, null],
        [made.c.id, null],
      ]);
    });

    it('reads the latest runs of all the listed subscriptions at once, however many are listed', async () => {
      // A fresh app whose store counts the reads of runs.
      let reads = 0;
      const counted = (runs: DigestRunRepository): DigestRunRepository => ({
        ...runs,
        latestOf(digestIds) {
          reads += 1;
          return runs.latestOf(digestIds);
        },
      });
      await app.close();
      app = await startApp(target, { wrapStore: (store) => ({ ...store, digestRuns: counted(store.digestRuns) }) });
      bot = await createChatbotViaApi(app);
      const channels = Array.from({ length: 12 }, (_, index) => `C1${String(index).padStart(3, '0')}`);
      const subscribed: DigestBody[] = [];
      for (const channelId of channels) subscribed.push(await subscribe({ ...slackChannel, channelId, chatbotId: bot, time: '09:00', timezone: 'UTC' }));
      const finished = subscribed.filter((_, index) => index % 3 === 0);
      for (const [index, digest] of finished.entries()) {
        const localDate = `2026-03-${String(10 + index).padStart(2, '0')}`;
        const at = new Date(`${localDate}T09:00:00.000Z`);
        await app.store.digestRuns.claim({ digestId: digest.id, localDate, scheduledAt: at, claimedBy: 'clock', claimedAt: at, leaseUntil: at });
        await app.store.digestRuns.finish(digest.id, localDate, { status: 'posted', attempts: index + 1, finishedAt: at });
      }
      reads = 0;
      const listed = await digestsWithRuns();
      expect(reads).toBe(1);
      expect(listed.filter((digest) => digest.lastRun !== null).map((digest) => [digest.id, digest.lastRun])).toEqual(
        finished.map((digest, index) => [digest.id, expect.objectContaining({ status: 'posted', attempts: index + 1 })]),
      );
    });

    it('pages with page and size', async () => {
      expect(await digests({ page: '1', size: '2' })).toEqual([made.a, made.b]);
      expect(await digests({ page: '2', size: '2' })).toEqual([made.c]);
    });

    it.each<[string, QueryParams]>([
      ['an unknown platform', { platform: 'teams' }],
      ['a bad chatbotId', { chatbotId: 'a/b' }],
      ['page 0', { page: '0' }],
      ['size 101', { size: '101' }],
    ])('answers 400 for %s', async (_case, params) => {
      expect(await get(digestsUrl(), params)).toEqual({ status: 400, body: INVALID });
    });

    it('never lists another account’s subscriptions, while listAll sees every account’s', async () => {
      const other = await stranger();
      expect(await digests({}, other.apiKey)).toEqual([]);
      await sleep(2);
      const theirs = await subscribe(
        { chatbotId: other.bot, ...slackChannel, time: '08:00', timezone: 'UTC' },
        other.apiKey,
      );
      expect(await digests({}, other.apiKey)).toEqual([theirs]);
      expect(await digests()).toEqual([made.a, made.b, made.c]);
      const all = await app.store.digests.listAll();
      expect(all.map((digest) => digest.id)).toEqual([...ids([made.a, made.b, made.c]), theirs.id]);
      expect(all.map((digest) => digest.accountId)).toEqual([app.accountId, app.accountId, app.accountId, other.accountId]);
    });

    it('answers 401 without a key', async () => {
      expect(await get(digestsUrl(), {}, null)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  describe('DELETE /integrations/digests/{id}', () => {
    const daily = (chatbotId: string) => ({ chatbotId, ...slackChannel, time: '09:00', timezone: 'UTC' });

    it('deletes a subscription and answers it', async () => {
      const gone = await subscribe(daily(bot));
      const kept = await subscribe(daily(otherBot));
      expect(await remove(digestsUrl(), gone.id)).toEqual({ status: 200, body: { message: 'Success', data: gone } });
      expect(await digests()).toEqual([kept]);
      expect(await remove(digestsUrl(), gone.id)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 404 for an unknown id and for another account’s subscription, which stays', async () => {
      const other = await stranger();
      const theirs = await subscribe(daily(other.bot), other.apiKey);
      expect(await remove(digestsUrl(), 'no-such-digest')).toEqual({ status: 404, body: NOT_FOUND });
      expect(await remove(digestsUrl(), theirs.id)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await digests({}, other.apiKey)).toEqual([theirs]);
    });

    it('answers 401 without a key, leaving the subscription', async () => {
      const kept = await subscribe(daily(bot));
      expect(await remove(digestsUrl(), kept.id, null)).toEqual({ status: 401, body: NO_KEY });
      expect(await digests()).toEqual([kept]);
    });
  });

  it('deleting a chatbot removes its bindings and subscriptions', async () => {
    await bind({ ...slackChannel, chatbotId: bot });
    await bind({ ...slackChannel, channelId: '*', chatbotId: bot });
    const keptBinding = await bind({ ...slackChannel, channelId: 'C0002', chatbotId: otherBot });
    await subscribe({ chatbotId: bot, ...slackChannel, time: '09:00', timezone: 'UTC' });
    const keptDigest = await subscribe({ chatbotId: otherBot, ...slackChannel, time: '09:00', timezone: 'UTC' });
    const deleted = await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, { chatbotId: bot });
    expect(deleted.status).toBe(200);
    expect(await bindings()).toEqual([keptBinding]);
    expect(await digests()).toEqual([keptDigest]);
    expect(await get(`${bindingsUrl()}/resolve`, slackChannel)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('does not count integration calls against the contacts rate limit', async () => {
    await app.close();
    app = await startApp(target, { contactsRateLimitPerMinute: 1 });
    bot = await createChatbotViaApi(app);
    await bind({ ...slackChannel, chatbotId: bot });
    for (let i = 0; i < 3; i += 1) {
      expect((await get(`${bindingsUrl()}/resolve`, slackChannel)).status).toBe(200);
      expect((await get(digestsUrl())).status).toBe(200);
    }
  });
});
