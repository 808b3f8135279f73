import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_SAVED, COMMAND_FAILED, everyoneSeesDigest, leadsCsv, parseCommandText, parseSetting } from '../../adapters/commands.js';
import { PUBLIC_BOT_WARNING, startDiscordBot, type DiscordBot } from '../../adapters/discord/bot.js';
import { NOT_SERVED } from '../../adapters/discord/servers.js';
import { lacksPermissionsText } from '../../adapters/discord/channel-check.js';
import { DISCORD_WORDS } from '../../adapters/discord/interactions.js';
import { suggestionRows } from '../../adapters/discord/suggestions.js';
import { splitMessage } from '../../adapters/discord/text.js';
import { createHubClient, type HubClient } from '../../adapters/hub-client.js';
import { FEEDBACK_GONE, feedbackRecorded } from '../../adapters/feedback.js';
import { HUB_UNAVAILABLE, NOT_BOUND } from '../../adapters/relay.js';
import { createSourceWorker } from '../../jobs/sources/worker.js';
import { loadConfig, type DiscordConfig } from '../../src/config.js';
import type { Store } from '../../src/store/port.js';
import { trainFromSources } from '../../src/domain/sources.js';
import { recordUnanswered } from '../../src/domain/unanswered.js';
import type { Responder, ResponderInput } from '../../src/engine/responder.js';
import { createChatEngine } from '../../src/engine/index.js';
import { platformApiErrors, platformEvents } from '../../src/metrics.js';
import {
  INTENTS,
  PERMISSIONS,
  snowflake,
  startFakeDiscord,
  user,
  type ApiMessage,
  type FakeChannel,
  type FakeDiscord,
  type RecordedRequest,
} from '../fakes/discord.js';
import { startHubProxy } from '../support/hub-proxy.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { html, page, serveSite } from '../support/website.js';

// discord.js, unmodified, against a fake Discord (REST + gateway) and the real hub (Koa app on a
// fresh SQLite store). Only the model is scripted, so tests can shape replies and their pacing.

const TOKEN = 'fake-discord-token.for-tests.only';
const sqlite = storeTargets[0];
if (!sqlite) throw new Error('no sqlite store target');

const sourceWorker = (store: Store) =>
  createSourceWorker({ store, logger: pino({ level: 'silent' }), allowPrivate: true, maxCharsPerChatbot: 1_000_000, crawl: { pageTimeoutMs: 2_000 } });

/** A responder whose replies the test shapes; it records what the hub asked. */
function scriptedResponder() {
  const state = {
    inputs: [] as ResponderInput[],
    /** The next replies, in order; without one, the reply echoes the question. */
    queue: [] as { pieces: string[]; delayMs: number }[],
  };
  const responder: Responder = {
    async complete(input) {
      state.inputs.push(input);
      return `echo: ${input.messages.at(-1)?.content}`;
    },
    async *stream(input) {
      state.inputs.push(input);
      const next = state.queue.shift() ?? { pieces: [`echo: ${input.messages.at(-1)?.content}`], delayMs: 0 };
      for (const piece of next.pieces) {
        if (next.delayMs) await sleep(next.delayMs);
        yield piece;
      }
    },
  };
  return { state, responder };
}

describe('Discord adapter', () => {
  const { state: model, responder } = scriptedResponder();
  const alice = user('alice');
  const bob = user('bob');
  const manager = user('manager');
  const listedAdmin = user('listed');
  const otherBot = user('otherbot', { bot: true });

  let app: TestApp;
  let hub: HubClient;
  let proxy: Awaited<ReturnType<typeof startHubProxy>>;
  let discord: FakeDiscord;
  let bot: DiscordBot;
  let supportBot: string;
  let salesBot: string;

  const config = (fake: FakeDiscord, extra: Partial<DiscordConfig> = {}): DiscordConfig => ({
    token: TOKEN,
    applicationId: fake.applicationId,
    guildIds: undefined,
    apiUrl: fake.apiUrl,
    adminUserIds: [listedAdmin.id],
    ...extra,
  });

  beforeAll(async () => {
    app = await startApp(sqlite, { engine: (store) => createChatEngine(store, { providerFor: () => responder }), sourcesAllowPrivate: true });
    hub = createHubClient(app.baseUrl, app.apiKey);
    supportBot = await createChatbotViaApi(app, 'Support bot');
    salesBot = await createChatbotViaApi(app, 'Sales bot');
    proxy = await startHubProxy(app.origin);
    discord = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 300 });
    bot = await startDiscordBot({
      config: config(discord),
      hub: createHubClient(`${proxy.url}/api/v1`, app.apiKey),
      logger: pino({ level: 'silent' }),
      learnWatch: { intervalMs: 20 },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await discord?.close();
    await proxy?.close();
    await app?.close();
  });

  afterEach(() => {
    expect(discord.violations.splice(0)).toEqual([]);
  });

  // ---- helpers ----------------------------------------------------------------------------------

  const botMessages = (channel: FakeChannel) => discord.history(channel.id).filter((item) => item.author.id === discord.bot.id);
  const replyTo = (message: ApiMessage) => () =>
    discord.history(message.channel_id).find((item) => item.message_reference?.message_id === message.id);
  /** The bot's reply to `message` once its content is `expected` (or anything, if not given). */
  const reply = (message: ApiMessage, expected?: string) =>
    discord.until(`a reply to “${message.content}”`, () => {
      const found = replyTo(message)();
      return found && (expected === undefined || found.content === expected) ? found : undefined;
    });
  /** The bot's reply to `message` once it carries buttons. */
  const replyWithButtons = (message: ApiMessage) =>
    discord.until(`buttons under the reply to “${message.content}”`, () => {
      const found = replyTo(message)();
      return found?.components?.length ? found : undefined;
    });
  /** Runs `check` while a second instance of the bot shares the fake Discord and the hub. */
  async function withSecondInstance(check: () => Promise<void>): Promise<void> {
    const second = await startDiscordBot({
      config: config(discord),
      hub: createHubClient(app.baseUrl, app.apiKey),
      logger: pino({ level: 'silent' }),
    });
    try {
      await check();
    } finally {
      await second.stop();
    }
  }
  const requestsTo = (method: string, path: RegExp) => discord.requests.filter((item) => item.method === method && path.test(item.path));
  const mention = (text: string) => `<@${discord.bot.id}> ${text}`;
  const newChannel = (name: string) => discord.createChannel('text', name);
  const bind = (channel: FakeChannel | '*', chatbotId: string, mode: 'mentions' | 'all' = 'mentions', workspaceId = discord.guildId) =>
    hub.bind({ platform: 'discord', workspaceId, channelId: channel === '*' ? '*' : channel.id, chatbotId, mode });

  /** Runs `/chatbot …` and answers the text the invoker saw (the type-4 reply or the edited deferral). */
  type CommandAnswer = { text: string; callback: RecordedRequest; edits: RecordedRequest[]; followUps: () => RecordedRequest[] };

  async function command(
    channel: FakeChannel,
    invoker: typeof alice,
    subcommand: string,
    options: Record<string, string> = {},
    permissions?: bigint,
  ): Promise<CommandAnswer> {
    const list = Object.entries(options).map(([name, value]) => ({ name, value }));
    return answerTo(discord.command(channel, invoker, subcommand, list, permissions), subcommand);
  }

  /** The answer the bot gives to the command whose interaction token is `token`. */
  async function answerTo(token: string, subcommand: string): Promise<CommandAnswer> {
    const done = await discord.until(`an answer to /chatbot ${subcommand}`, () => {
      const response = discord.interactionResponse(token);
      const type = (response.callback?.body as { type?: number } | undefined)?.type;
      if (type === 4 || (type === 5 && response.edits.length > 0)) return response;
      return undefined;
    });
    const callback = done.callback as RecordedRequest;
    const body = callback.body as { type: number; data: { content?: string; flags?: number } };
    // Every answer is private to the person who asked (flags 64: ephemeral).
    expect(body.data.flags).toBe(64);
    const text = body.type === 4 ? (body.data.content ?? '') : ((done.edits.at(-1)?.body as { content: string }).content ?? '');
    return { text, callback, edits: done.edits, followUps: () => discord.interactionResponse(token).followUps };
  }

  // ---- connection --------------------------------------------------------------------------------

  it('logs in through REST, identifies with only the intents it needs, heartbeats and registers /chatbot', async () => {
    const gatewayInfo = requestsTo('GET', /^\/gateway\/bot$/);
    expect(gatewayInfo[0]?.authorization).toBe(`Bot ${TOKEN}`);
    expect(discord.gateway.connections[0]?.path).toBe('/');
    expect(discord.gateway.identifies).toHaveLength(1);
    const identify = discord.gateway.identifies[0] as { token: string; intents: number; properties: Record<string, string> };
    expect(identify.token).toBe(TOKEN);
    expect(identify.intents).toBe(INTENTS.Guilds | INTENTS.GuildMessages | INTENTS.MessageContent | INTENTS.DirectMessages);
    expect(identify.properties.os).toBe(process.platform);

    await discord.until('two acknowledged heartbeats', () => discord.gateway.acks >= 2, 3_000);

    expect(discord.registeredCommands).toHaveLength(1);
    const [registration] = discord.registeredCommands;
    expect(registration?.scope).toBe('global');
    const [chatbot] = registration?.commands as { name: string; options: { name: string; type: number }[] }[];
    expect(chatbot?.name).toBe('chatbot');
    expect(chatbot?.options.map((option) => [option.name, option.type])).toEqual(
      ['help', 'list', 'use', 'settings', 'set', 'leads', 'digest', 'unanswered', 'learn', 'sources', 'resolve'].map((name) => [name, 1]),
    );
  });

  it('registers /chatbot in each server DISCORD_GUILD_IDS lists instead of globally, and removes a global registration left from before', async () => {
    // Found as a reviewer: with a list, /chatbot stayed global, so it showed in servers the bot does not serve.
    const other = await startFakeDiscord({ token: TOKEN });
    const second = other.addGuild();
    const invitedLater = snowflake();
    const lines: string[] = [];
    const guildBot = await startDiscordBot({
      config: config(other, { guildIds: [other.guildId, second.guildId, invitedLater] }),
      hub,
      logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }),
    });
    const registrations = () => other.registeredCommands.map(({ scope, commands }) => [scope, commands.map((item) => (item as { name: string }).name)]);
    try {
      // The global one goes, then each listed server the bot is in gets its own.
      const [first, next, last] = registrations();
      expect(first).toEqual(['global', []]);
      expect([next, last].sort()).toEqual([[`guild:${other.guildId}`, ['chatbot']], [`guild:${second.guildId}`, ['chatbot']]].sort());
      // A listed server the bot is not in yet is named, and gets the command as it adds the bot;
      // a listed server sent again (back from an outage) is not registered again.
      const logged = lines.map((line) => JSON.parse(line) as { guildIds?: string[] });
      expect(logged.find((line) => line.guildIds)?.guildIds).toEqual([invitedLater]);
      other.outage(second.guildId);
      other.recover(second.guildId);
      other.addGuild(invitedLater);
      await other.until('/chatbot in the server that added the bot', () => other.registeredCommands[3]);
      expect(registrations().slice(3)).toEqual([[`guild:${invitedLater}`, ['chatbot']]]);
      expect(requestsTo('PUT', /commands$/).length).toBe(1); // the main fake saw only its own startup
    } finally {
      await guildBot.stop();
      await other.close();
    }
    expect(other.violations).toEqual([]);
  });

  it('removes /chatbot from servers an earlier list named once the list drops them, and from every server once it is removed', async () => {
    // Found as a reviewer: shortening DISCORD_GUILD_IDS left /chatbot in the servers dropped from it.
    const other = await startFakeDiscord({ token: TOKEN });
    const dropped = other.addGuild();
    const alsoDropped = other.addGuild();
    const anotherApp = snowflake();
    // Registered by a run with the earlier list [own, dropped, alsoDropped]; besides, another
    // command of this application, and another app's /chatbot.
    for (const guildId of [other.guildId, dropped.guildId, alsoDropped.guildId]) other.seedCommands(`guild:${guildId}`, ['chatbot']);
    other.seedCommands(`guild:${dropped.guildId}`, ['their-own']);
    other.seedCommands(`guild:${dropped.guildId}`, ['chatbot'], anotherApp);
    const run = async (guildIds: string[] | undefined) => {
      const started = await startDiscordBot({ config: config(other, { guildIds }), hub, logger: pino({ level: 'silent' }) });
      await started.stop();
    };
    const where = () =>
      Object.fromEntries(['global', ...[other.guildId, dropped.guildId, alsoDropped.guildId].map((id) => `guild:${id}`)].map((scope) => [scope, other.commandNames(scope)]));
    try {
      await run([other.guildId]);
      expect(where()).toEqual({
        global: [],
        [`guild:${other.guildId}`]: ['chatbot'],
        [`guild:${dropped.guildId}`]: ['their-own'],
        [`guild:${alsoDropped.guildId}`]: [],
      });
      await run(undefined);
      const globalOnly = {
        global: ['chatbot'],
        [`guild:${other.guildId}`]: [],
        [`guild:${dropped.guildId}`]: ['their-own'],
        [`guild:${alsoDropped.guildId}`]: [],
      };
      expect(where()).toEqual(globalOnly);
      expect(other.commandNames(`guild:${dropped.guildId}`, anotherApp)).toEqual(['chatbot']);
      // Nothing can be left over since the last start without a list: a start neither reads nor
      // deletes any server's commands, however many servers the bot is in.
      const inServers = () => other.requests.filter((request) => /\/guilds\/\d+\/commands/.test(request.path)).length;
      const before = inServers();
      await run(undefined);
      expect(inServers()).toBe(before);
      expect(where()).toEqual(globalOnly);
    } finally {
      await other.close();
    }
    expect(other.violations).toEqual([]);
  });

  it('with a list, looks for a /chatbot left over only in the servers the hub recorded as having one, however many the bot is in', async () => {
    // Found as a reviewer: each start with DISCORD_GUILD_IDS read the commands of every server the
    // bot is in but the list does not name, a request each, though none could have /chatbot.
    const other = await startFakeDiscord({ token: TOKEN });
    const ignored = Array.from({ length: 5 }, () => other.addGuild().guildId);
    const added = other.addGuild().guildId;
    const serverCommands = () => other.requests.filter((request) => /\/guilds\/\d+\/commands/.test(request.path)).map((request) => `${request.method} ${request.path}`);
    const run = async (guildIds: string[] | undefined) => {
      const before = serverCommands().length;
      const started = await startDiscordBot({ config: config(other, { guildIds }), hub, logger: pino({ level: 'silent' }) });
      await started.stop();
      return serverCommands().slice(before);
    };
    const path = (guildId: string) => `/applications/${other.applicationId}/guilds/${guildId}/commands`;
    const put = (guildId: string) => `PUT ${path(guildId)}`;
    try {
      // Nothing recorded yet (a first start, or the first after a version that kept nothing): every server is looked at, once.
      expect((await run([other.guildId])).sort()).toEqual([put(other.guildId), ...[...ignored, added].map((guildId) => `GET ${path(guildId)}`)].sort());
      // The same list: no server but the listed one is read, however many the bot is in.
      expect(await run([other.guildId])).toEqual([put(other.guildId)]);
      expect((await run([other.guildId, added])).sort()).toEqual([put(other.guildId), put(added)].sort());
      expect(other.commandNames(`guild:${added}`)).toEqual(['chatbot']);
      // The list drops a server: that one alone is looked at, and its /chatbot goes.
      const dropping = await run([other.guildId]);
      expect(dropping.filter((request) => !request.startsWith('DELETE'))).toEqual([`GET ${path(added)}`, put(other.guildId)]);
      expect(dropping.filter((request) => request.startsWith('DELETE'))).toHaveLength(1);
      expect(other.commandNames(`guild:${added}`)).toEqual([]);
      // Without a list, the listed server's /chatbot goes and the others stay unread.
      expect(await run(undefined)).toEqual([`GET ${path(other.guildId)}`, expect.stringMatching(new RegExp(`^DELETE ${path(other.guildId)}/\\d+$`))]);
      expect(await run(undefined)).toEqual([]);
      expect(other.commandNames('global')).toEqual(['chatbot']);
      expect(ignored.map((guildId) => other.commandNames(`guild:${guildId}`))).toEqual(ignored.map(() => []));
    } finally {
      await other.close();
    }
    expect(other.violations).toEqual([]);
  });

  it('records the servers in the hub in the background once it takes the record, if it refused at start, so a server dropped later loses /chatbot', async () => {
    // The record left stale by a refusal at start hid a server listed then and dropped later.
    const other = await startFakeDiscord({ token: TOKEN });
    const added = other.addGuild().guildId;
    const attempts: string[][] = [];
    const saved: string[][] = [];
    /** The hub, refusing the first `refusals` records of the command's servers. */
    const refusing = (refusals: number): HubClient => ({
      ...hub,
      async recordCommandServers(applicationId, serverIds) {
        attempts.push([...serverIds]);
        if (attempts.length <= refusals) throw new Error('the hub is restarting');
        const record = await hub.recordCommandServers(applicationId, serverIds);
        saved.push([...serverIds]);
        return record;
      },
    });
    const start = (guildIds: string[], hubClient: HubClient) =>
      startDiscordBot({ config: config(other, { guildIds }), hub: hubClient, logger: pino({ level: 'silent' }), recordRetry: { firstMs: 10, maxMs: 40 } });
    try {
      await (await start([other.guildId], hub)).stop();
      expect(await hub.commandServers(other.applicationId)).toEqual([other.guildId]);

      const listing = await start([other.guildId, added], refusing(2));
      // Serving already: /chatbot is registered in both servers while the record waits.
      expect(other.commandNames(`guild:${added}`)).toEqual(['chatbot']);
      await other.until('the record the hub refused twice, saved', () => saved[0]);
      await listing.stop();
      expect(attempts).toHaveLength(3);
      expect((await hub.commandServers(other.applicationId))?.sort()).toEqual([other.guildId, added].sort());

      await (await start([other.guildId], hub)).stop();
      expect(other.commandNames(`guild:${added}`)).toEqual([]);

      // Stopping ends the tries of a hub that keeps refusing.
      attempts.length = 0;
      const stopped = await start([other.guildId, added], refusing(Infinity));
      await other.until('a try again', () => attempts.length >= 2);
      await stopped.stop();
      const tried = attempts.length;
      await sleep(100);
      expect(attempts).toHaveLength(tried);
    } finally {
      await other.close();
    }
    expect(other.violations).toEqual([]);
  });

  it('records nothing from a first start of one shard of several, which sees only its shard\'s servers', async () => {
    // A record made from one shard's servers would hide a /chatbot an earlier list left in another's.
    const other = await startFakeDiscord({ token: TOKEN });
    const dropped = other.addGuild().guildId;
    other.seedCommands(`guild:${dropped}`, ['chatbot']);
    // As discord.js's ShardingManager tells the process it spawns: shard 0 of 2.
    Object.assign(process.env, { SHARDS: '[0]', SHARD_COUNT: '2' });
    try {
      const started = await startDiscordBot({ config: config(other, { guildIds: [other.guildId] }), hub, logger: pino({ level: 'silent' }) });
      await started.stop();
      expect(other.commandNames(`guild:${dropped}`)).toEqual([]);
      expect(await hub.commandServers(other.applicationId)).toBeNull();
    } finally {
      delete process.env.SHARDS;
      delete process.env.SHARD_COUNT;
      await other.close();
    }
    expect(other.violations).toEqual([]);
  });

  it('warns at start when the bot is public, as anyone could add it to a server they manage and administer the account there', async () => {
    // Found setting up a community server: Discord makes a new bot public, and whoever adds it to
    // their own server has Manage Server there, so `/chatbot leads` gave them every lead.
    const warnings = async (botPublic: boolean) => {
      const other = await startFakeDiscord({ token: TOKEN, botPublic });
      const lines: string[] = [];
      const started = await startDiscordBot({ config: config(other), hub, logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }) });
      await started.stop();
      await other.close();
      expect(other.violations).toEqual([]);
      return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    };
    expect(await warnings(true)).toEqual([PUBLIC_BOT_WARNING]);
    expect(await warnings(false)).toEqual([]);
  });

  it('serves only the servers DISCORD_GUILD_IDS lists: leaves one that adds it, ignores one it was in, and says so to a command there', async () => {
    // Found as a reviewer: with Public Bot on, whoever added the bot to a server of theirs had
    // Manage Server there, so `/chatbot leads` gave them the account's leads.
    const other = await startFakeDiscord({ token: TOKEN, botPublic: true });
    const before = other.addGuild();
    const lines: string[] = [];
    const served = await startDiscordBot({
      config: config(other, { guildIds: [other.guildId] }),
      hub,
      logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }),
    });
    try {
      // Listed servers make a public bot safe: no warning, but one for the server it is in unlisted.
      const logged = () => lines.map((line) => JSON.parse(line) as { msg: string; guildIds?: string[] });
      expect(logged().map((line) => line.msg)).not.toContain(PUBLIC_BOT_WARNING);
      expect(logged().find((line) => line.guildIds)?.guildIds).toEqual([before.guildId]);

      // There, even a bound channel gets no answer, and a command by a manager only the sentence.
      await bind(before.channel, supportBot, 'all', before.guildId);
      const ignored = other.say(before.channel, alice, `<@${other.bot.id}> what are the leads?`);
      const token = other.command(before.channel, manager, 'leads', [], PERMISSIONS.ManageGuild | PERMISSIONS.ViewChannel);
      const callback = await other.until('the answer to the command', () => other.interactionResponse(token).callback);
      expect(callback.body).toMatchObject({ type: 4, data: { content: NOT_SERVED, flags: 64 } });
      expect(other.interactionResponse(token).edits).toEqual([]);
      // A button of a message it posted there before the list is answered alike, not left to fail.
      const earlier = other.seed(before.channel, other.bot, 'An answer from before the list.');
      earlier.components = [{ type: 1, components: [{ type: 2, style: 2, label: '👍', custom_id: 'feedback:up:x' }] }];
      const click = other.click(earlier, alice, 'feedback:up:x');
      const clicked = await other.until('the answer to the click', () => other.interactionResponse(click).callback);
      expect(clicked.body).toMatchObject({ type: 4, data: { content: NOT_SERVED, flags: 64 } });

      // A server that adds it is left at once; its own server is served as before.
      const added = other.addGuild();
      await other.until('the bot to leave the server that added it', () => other.leftGuilds.includes(added.guildId) || undefined);
      const own = other.say(other.general, alice, `<@${other.bot.id}> hello`);
      await other.until('the answer in its own server', () => other.history(other.general.id).find((item) => item.message_reference?.message_id === own.id));
      expect(other.leftGuilds).toEqual([added.guildId]);
      expect(other.history(before.channel.id).filter((item) => item.id !== ignored.id && item.id !== earlier.id)).toEqual([]);
    } finally {
      await served.stop();
      await other.close();
    }
    expect(other.violations).toEqual([]);
  });

  it('serves the servers DISCORD_GUILD_IDS lists, else DISCORD_GUILD_ID’s alone, else every server', () => {
    const guildIds = (env: Record<string, string>) => loadConfig({ DISCORD_TOKEN: 't', ...env }).discord?.guildIds;
    expect(guildIds({})).toBeUndefined();
    // A single-server setup keeps working, and serves only its server.
    expect(guildIds({ DISCORD_GUILD_ID: '111' })).toEqual(['111']);
    expect(guildIds({ DISCORD_GUILD_IDS: '111, 222 333' })).toEqual(['111', '222', '333']);
    expect(guildIds({ DISCORD_GUILD_IDS: '111,222', DISCORD_GUILD_ID: '222' })).toEqual(['111', '222']);
    expect(() => guildIds({ DISCORD_GUILD_IDS: '111', DISCORD_GUILD_ID: '222' })).toThrow(/DISCORD_GUILD_IDS: must include DISCORD_GUILD_ID/);
    expect(() => guildIds({ DISCORD_GUILD_IDS: 'my-server' })).toThrow(/DISCORD_GUILD_IDS/);
  });

  it('refuses a token the application does not own', async () => {
    const other = await startFakeDiscord({ token: TOKEN });
    try {
      await expect(
        startDiscordBot({ config: config(other, { applicationId: '12345' }), hub, logger: pino({ level: 'silent' }) }),
      ).rejects.toThrow(/DISCORD_APPLICATION_ID/);
    } finally {
      await other.close();
    }
  });

  // ---- routing ------------------------------------------------------------------------------------

  it('says no chatbot is bound when mentioned in an unbound channel', async () => {
    const channel = newChannel('unbound');
    const question = discord.say(channel, alice, mention('hello?'));
    const answer = await reply(question);
    expect(answer.content).toBe(NOT_BOUND);
    expect(answer.type).toBe(19);
  });

  it('answers mentions in a mentions-mode channel with the asker’s part of its history, as a reply, creating the contact', async () => {
    const channel = newChannel('support');
    await bind(channel, supportBot, 'mentions');
    const earlier = discord.seed(channel, alice, mention('when do you open?'));
    discord.seed(channel, bob, mention('and are you open on Sundays?'));
    discord.seed(channel, discord.bot, 'We open at nine.', { replyTo: earlier });
    const chatter = discord.say(channel, bob, 'just chatting, no mention');
    const question = discord.say(channel, alice, mention('and when do you close, <@' + bob.id + '>?'));

    const answer = await reply(question, `echo: and when do you close, @${bob.global_name}?`);
    // Nothing for the chatter: only the mention was answered.
    expect(replyTo(chatter)()).toBeUndefined();
    expect(botMessages(channel)).toHaveLength(2);

    const post = requestsTo('POST', new RegExp(`^/channels/${channel.id}/messages$`)).at(-1);
    const body = post?.body as { message_reference: { message_id: string }; allowed_mentions: { parse: string[] } };
    expect(body.message_reference.message_id).toBe(question.id);
    expect(body.allowed_mentions.parse).toEqual([]);
    // Typing was shown before the answer.
    const typing = requestsTo('POST', new RegExp(`^/channels/${channel.id}/typing$`));
    expect(typing.length).toBeGreaterThan(0);
    expect((typing[0] as RecordedRequest).at).toBeLessThanOrEqual((post as RecordedRequest).at);

    const asked = model.inputs.at(-1) as ResponderInput;
    expect(asked.chatbotName).toBe('Support bot');
    // Alice's conversation in the channel: Bob's words and what answered them are not hers.
    expect(asked.messages).toEqual([
      { role: 'user', content: 'when do you open?' },
      { role: 'assistant', content: 'We open at nine.' },
      { role: 'user', content: `and when do you close, @${bob.global_name}?` },
    ]);

    const conversationId = `discord:${discord.guildId}:${channel.id}:${alice.id}`;
    const saved = await app.store.conversations.find(supportBot, conversationId);
    expect(saved?.source).toBe('Discord');
    expect(saved?.messages.at(-1)?.content).toBe(answer.content);
    const contact = await call('GET', `${app.baseUrl}/chatbots/${supportBot}/contacts/discord:${alice.id}`, app.apiKey);
    expect(contact.status).toBe(200);
    expect((contact.body as { data: { name: string } }).data.name).toBe('Alice');
  });

  it('answers every message in an all-mode channel, ignoring bots', async () => {
    const channel = newChannel('all-mode');
    await bind(channel, supportBot, 'all');
    const fromBot = discord.say(channel, otherBot, 'I am another bot');
    const picture = discord.say(channel, bob, '');
    const first = discord.say(channel, alice, 'first question');
    const second = discord.say(channel, bob, 'second question');
    expect((await reply(first, 'echo: first question')).type).toBe(19);
    await reply(second, 'echo: second question');
    expect(replyTo(fromBot)()).toBeUndefined();
    expect(replyTo(picture)()).toBeUndefined();
    expect(botMessages(channel)).toHaveLength(2);
    // Its own replies are not questions: a reply does not make the bot answer itself.
    await sleep(200);
    expect(botMessages(channel)).toHaveLength(2);
  });

  it('falls back to the server default binding', async () => {
    const channel = newChannel('defaulted');
    await bind('*', salesBot, 'mentions');
    try {
      const question = discord.say(channel, alice, mention('pricing?'));
      await reply(question, 'echo: pricing?');
      expect((model.inputs.at(-1) as ResponderInput).chatbotName).toBe('Sales bot');
      expect(await app.store.conversations.find(salesBot, `discord:${discord.guildId}:${channel.id}:${alice.id}`)).toBeDefined();
    } finally {
      const [fallback] = await hub.listBindings({ platform: 'discord', workspaceId: discord.guildId, channelId: '*' });
      if (fallback) await hub.unbind(fallback.id);
    }
  });

  it('answers in threads it started or was mentioned in, with the parent channel’s chatbot', async () => {
    const parent = newChannel('threads-parent');
    await bind(parent, salesBot, 'mentions');
    const own = discord.createChannel('thread', 'bot thread', { parentId: parent.id, ownerId: discord.bot.id });
    const joined = discord.createChannel('thread', 'joined thread', { parentId: parent.id, ownerId: alice.id });
    const remembered = discord.createChannel('thread', 'from history', { parentId: parent.id, ownerId: alice.id });
    const foreign = discord.createChannel('thread', 'other thread', { parentId: parent.id, ownerId: bob.id });

    const inOwn = discord.say(own, alice, 'no mention needed here');
    await reply(inOwn, 'echo: no mention needed here');
    expect(await app.store.conversations.find(salesBot, `discord:${discord.guildId}:${own.id}`)).toBeDefined();

    await reply(discord.say(joined, alice, mention('joining')), 'echo: joining');
    await reply(discord.say(joined, bob, 'a follow-up without mention'), 'echo: a follow-up without mention');

    // A thread the bot was mentioned in before this process started: found from its history.
    discord.seed(remembered, alice, mention('long ago'));
    await reply(discord.say(remembered, alice, 'still there?'), 'echo: still there?');

    const ignored = discord.say(foreign, bob, 'not for the bot');
    const alsoIgnored = discord.say(foreign, alice, 'nor this');
    await reply(discord.say(foreign, bob, mention('now for the bot')), 'echo: now for the bot');
    expect(replyTo(ignored)()).toBeUndefined();
    expect(replyTo(alsoIgnored)()).toBeUndefined();
    // Its history was searched for the bot once, then read once for the answer.
    expect(requestsTo('GET', new RegExp(`^/channels/${foreign.id}/messages$`))).toHaveLength(2);
  });

  it('answers each message once when several instances share the hub, and follows threads any of them joined', async () => {
    await withSecondInstance(async () => {
      const channel = newChannel('two-instances');
      await bind(channel, supportBot, 'all');
      const questions = ['one', 'two', 'three', 'four'].map((text) => discord.say(channel, alice, text));
      for (const question of questions) await reply(question, `echo: ${question.content}`);
      const thread = discord.createChannel('thread', 'shared thread', { parentId: channel.id, ownerId: alice.id });
      await reply(discord.say(thread, alice, mention('in a thread')), 'echo: in a thread');
      await reply(discord.say(thread, bob, 'a follow-up'), 'echo: a follow-up');
      await sleep(300);
      // Both instances received every message; exactly one answered each.
      expect(botMessages(channel)).toHaveLength(questions.length);
      expect(botMessages(thread)).toHaveLength(2);
      expect(await hub.isHeld(`discord:thread:${thread.id}`)).toBe(true);
    });
  });

  it('offers the suggested questions as buttons under its first reply to each person in a channel; a click asks that question', async () => {
    const guide = await createChatbotViaApi(app, 'Guide bot');
    const suggestions = ['What are your opening hours?', 'Do you ship abroad?'];
    await hub.updateSettings(guide, { suggestedMessages: suggestions });
    const channel = newChannel('suggestions');
    await bind(channel, guide, 'all');
    const carol = user('carol');
    /** The rows of buttons under a message of the bot's: suggestions by label, 👍/👎 by emoji. */
    const rows = (message: ApiMessage) =>
      (discord.history(channel.id).find((item) => item.id === message.id)?.components ?? []).map((row) =>
        row.components.map((button) => button.label ?? button.emoji?.name),
      );
    const offeredUnder = (message: ApiMessage) =>
      discord.until(`suggestions under “${message.content}”`, () => (rows(message).length > 1 ? discord.history(channel.id).find((item) => item.id === message.id) : undefined));

    const first = await reply(discord.say(channel, alice, 'hi'), 'echo: hi');
    const offered = await offeredUnder(first);
    // The suggestions, then the row of 👍/👎.
    const [buttons = [], feedback = []] = (offered.components ?? []).map((row) => row.components);
    expect(buttons.map((button) => [button.type, button.label])).toEqual(suggestions.map((label) => [2, label]));
    expect(feedback.map((button) => button.emoji?.name)).toEqual(['👍', '👎']);
    const second = await reply(discord.say(channel, alice, 'thanks'), 'echo: thanks');
    expect(second.components?.map((row) => row.components.map((button) => button.emoji?.name))).toEqual([['👍', '👎']]);
    // Found reviewing per-person conversations: a second person in the channel never saw them.
    const bobsFirst = await reply(discord.say(channel, bob, 'hello'), 'echo: hello');
    expect(rows(await offeredUnder(bobsFirst))).toEqual([suggestions, ['👍', '👎']]);

    const token = discord.click(offered, carol, buttons[1]?.custom_id ?? '');
    const asked = await discord.until('the clicked question in the channel', () =>
      discord.history(channel.id).find((item) => item.author.id === discord.bot.id && item.content === `<@${carol.id}> asked: ${suggestions[1]}`),
    );
    // Named by id (Discord shows the name), pinging nobody.
    const post = requestsTo('POST', new RegExp(`^/channels/${channel.id}/messages$`)).find((item) => (item.body as { content?: string }).content === asked.content);
    expect((post?.body as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
    const answered = await reply(asked, 'echo: Do you ship abroad?');
    expect((discord.interactionResponse(token).callback?.body as { type: number }).type).toBe(6);
    // The clicked question is Carol's: her conversation, not Alice's.
    expect(model.inputs.at(-1)?.messages).toEqual([{ role: 'user', content: 'Do you ship abroad?' }]);
    const followUp = await replyWithButtons(discord.say(channel, carol, 'and to Norway?'));
    expect(model.inputs.at(-1)?.messages).toEqual([
      { role: 'user', content: 'Do you ship abroad?' },
      { role: 'assistant', content: 'echo: Do you ship abroad?' },
      { role: 'user', content: 'and to Norway?' },
    ]);
    // She clicked one, so has seen them: neither her answer nor her next offers them again (they
    // would come in an edit, which waits a second after the message's last write).
    await sleep(1_200);
    expect([rows(answered), rows(followUp)]).toEqual([[['👍', '👎']], [['👍', '👎']]]);
  });

  it('offers 👍/👎 under an answer; a click is recorded on that message, a later one replaces it, and only the clicker is told', async () => {
    const channel = newChannel('feedback');
    await bind(channel, supportBot, 'all');
    const answer = await replyWithButtons(discord.say(channel, alice, 'is this useful?'));
    expect(answer.content).toBe('echo: is this useful?');
    const [up, down] = answer.components?.[0]?.components ?? [];
    expect([up?.emoji?.name, down?.emoji?.name]).toEqual(['👍', '👎']);
    const saved = async () => (await app.store.conversations.find(supportBot, `discord:${discord.guildId}:${channel.id}:${alice.id}`))?.messages ?? [];

    /** Clicks; the rating is recorded before the acknowledgement, which only the clicker sees (type 4, flags 64). */
    const click = async (clicker: typeof alice, customId: string | undefined, feedback: 'up' | 'down') => {
      const token = discord.click(answer, clicker, customId ?? '');
      const callback = await discord.until('the feedback acknowledgement', () => discord.interactionResponse(token).callback);
      expect(callback.body).toMatchObject({ type: 4, data: { content: feedbackRecorded(feedback), flags: 64 } });
    };
    await click(alice, up?.custom_id, 'up');
    expect((await saved())[1]).toMatchObject({ role: 'assistant', content: 'echo: is this useful?', feedback: 'up' });
    await click(bob, down?.custom_id, 'down');
    expect((await saved()).map((message) => message.feedback)).toEqual([undefined, 'down']);
    // Nothing was posted in the channel for the clicks.
    expect(botMessages(channel)).toHaveLength(1);
  });

  it('offers no 👍/👎 under the waiting message of a handoff, which is no answer; an answer still gets them', async () => {
    const deskBot = await createChatbotViaApi(app, 'Desk bot');
    const handoffs = newChannel('desk-handoffs');
    const waitingMessage = 'Someone from the team will join you here.';
    const handoff = { enabled: true, platform: 'discord', workspaceId: discord.guildId, channelId: handoffs.id, waitingMessage };
    expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: deskBot, handoff })).status).toBe(202);
    const channel = newChannel('desk');
    await bind(channel, deskBot, 'all');

    const answer = await replyWithButtons(discord.say(channel, alice, 'when do you open?'));
    expect(answer.components?.[0]?.components.map((button) => button.emoji?.name)).toEqual(['👍', '👎']);
    const request = discord.say(channel, bob, 'can I talk to a person?');
    await reply(request, waitingMessage);
    // The request reaches the team after the reply is finished: the reply is as it stays.
    await discord.until('the handoff request', () => botMessages(handoffs)[0]);
    expect(replyTo(request)()?.components ?? []).toEqual([]);
    const saved = await app.store.conversations.find(deskBot, `discord:${discord.guildId}:${channel.id}:${bob.id}`);
    expect(saved?.messages.at(-1)).toMatchObject({ role: 'assistant', content: waitingMessage, kind: 'handoff' });
  });

  it('tells a clicker privately that the hub is out of reach, rather than leave the click failed', async () => {
    // Found with the hub down: the click's claim failed, nothing answered the interaction, and
    // Discord showed "This interaction failed".
    const channel = newChannel('feedback-outage');
    await bind(channel, supportBot, 'all');
    const answer = await replyWithButtons(discord.say(channel, alice, 'rate me later'));
    proxy.setDown(true);
    try {
      const token = discord.click(answer, bob, answer.components?.[0]?.components[0]?.custom_id ?? '');
      const callback = await discord.until('the apology', () => discord.interactionResponse(token).callback);
      expect(callback.body).toMatchObject({ type: 4, data: { content: HUB_UNAVAILABLE, flags: 64 } });
    } finally {
      proxy.setDown(false);
    }
  });

  it('records a click once when several instances receive it', async () => {
    await withSecondInstance(async () => {
      const channel = newChannel('two-instances-feedback');
      await bind(channel, supportBot, 'all');
      const answer = await replyWithButtons(discord.say(channel, alice, 'rate this once'));
      const token = discord.click(answer, bob, answer.components?.[0]?.components[1]?.custom_id ?? '');
      await discord.until('the acknowledgement', () => discord.interactionResponse(token).callback);
      await sleep(300);
      // Both instances received the click; one claimed it, recorded it and answered it.
      expect(requestsTo('POST', new RegExp(`/${token}/callback$`))).toHaveLength(1);
      const saved = await app.store.conversations.find(supportBot, `discord:${discord.guildId}:${channel.id}:${alice.id}`);
      expect(saved?.messages.map((message) => message.feedback)).toEqual([undefined, 'down']);
    });
  });

  it('offers no 👍/👎 under an apology, and tells a clicker when the answer is gone', async () => {
    const channel = newChannel('feedback-gone');
    const doomed = await createChatbotViaApi(app, 'Doomed bot');
    await bind(channel, doomed, 'all');
    const answer = await replyWithButtons(discord.say(channel, alice, 'rate me'));
    await call('DELETE', `${app.baseUrl}/delete-chatbot?chatbotId=${doomed}`, app.apiKey);
    const token = discord.click(answer, bob, answer.components?.[0]?.components[0]?.custom_id ?? '');
    const callback = await discord.until('the acknowledgement', () => discord.interactionResponse(token).callback);
    expect(callback.body).toMatchObject({ type: 4, data: { content: FEEDBACK_GONE, flags: 64 } });

    proxy.setDown(true);
    try {
      await bind(channel, supportBot, 'all');
      const unanswered = discord.say(channel, alice, mention('anyone?'));
      const apology = await reply(unanswered, HUB_UNAVAILABLE);
      expect(apology.components ?? []).toEqual([]);
    } finally {
      proxy.setDown(false);
    }
  });

  it('answers direct messages with the DM binding', async () => {
    const dm = discord.createChannel('dm', 'dm');
    const unbound = discord.say(dm, alice, 'hi bot');
    expect((await reply(unbound)).content).toBe(NOT_BOUND);

    await bind('*', supportBot, 'mentions', 'dm');
    const question = discord.say(dm, alice, 'do you ship abroad?');
    await reply(question, 'echo: do you ship abroad?');
    const saved = await app.store.conversations.find(supportBot, `discord:dm:${dm.id}`);
    expect(saved?.source).toBe('Discord');
    expect(requestsTo('POST', new RegExp(`^/channels/${dm.id}/typing$`)).length).toBeGreaterThan(0);
  });

  // ---- replies ----------------------------------------------------------------------------------

  it('edits one message progressively while the reply streams, at most about once a second', async () => {
    const channel = newChannel('streaming');
    await bind(channel, supportBot, 'all');
    const pieces = ['Opening ', 'hours ', 'are ', 'nine ', 'to ', 'five, ', 'every ', 'day ', 'but ', 'Sunday.'];
    model.queue.push({ pieces, delayMs: 350 });
    const question = discord.say(channel, alice, 'hours?');
    const answer = await reply(question, pieces.join(''));

    const path = new RegExp(`^/channels/${channel.id}/messages(/${answer.id})?$`);
    const writes = discord.requests.filter((item) => (item.method === 'POST' || item.method === 'PATCH') && path.test(item.path));
    expect(writes[0]?.method).toBe('POST');
    const edits = writes.slice(1);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.every((item) => item.method === 'PATCH')).toBe(true);
    // Each shown text extends the one before, and the last is the whole reply.
    const shown = writes.map((item) => (item.body as { content: string }).content);
    for (let i = 1; i < shown.length; i += 1) expect(shown[i]?.startsWith(shown[i - 1] as string)).toBe(true);
    for (let i = 0; i < writes.length - 1; i += 1) {
      expect((writes[i + 1] as RecordedRequest).at - (writes[i] as RecordedRequest).at).toBeGreaterThanOrEqual(950);
    }
    expect(botMessages(channel)).toHaveLength(1);
  });

  it('splits a reply over 2000 characters into several messages', async () => {
    const channel = newChannel('long');
    await bind(channel, supportBot, 'all');
    const paragraph = (n: number) => `Paragraph ${n}. ${'All about returns and refunds. '.repeat(28)}`.trim();
    const text = [1, 2, 3, 4, 5].map(paragraph).join('\n\n');
    expect(text.length).toBeGreaterThan(4000);
    model.queue.push({ pieces: [text.slice(0, 1500), text.slice(1500, 3500), text.slice(3500)], delayMs: 0 });
    const question = discord.say(channel, alice, 'tell me everything');
    await reply(question);
    const sent = await discord.until('three messages', () => (botMessages(channel).length === 3 ? botMessages(channel) : undefined));
    expect(sent.every((item) => item.content.length <= 2000)).toBe(true);
    // Every piece answers the question (it is the asker's conversation); only the first pings them.
    expect(sent.map((item) => item.message_reference?.message_id)).toEqual([question.id, question.id, question.id]);
    const posts = requestsTo('POST', new RegExp(`^/channels/${channel.id}/messages$`)).slice(-3);
    expect(posts.map((item) => (item.body as { allowed_mentions?: { replied_user?: boolean } }).allowed_mentions?.replied_user)).toEqual([true, false, false]);
    expect(sent.map((item) => item.content).join('\n\n')).toBe(text);
  });

  it('ends an answer with a Sources line, each web page a masked link without an embed', async () => {
    const channel = newChannel('cited');
    const helpBot = await createChatbotViaApi(app, 'Help bot');
    const at = new Date();
    await app.store.sources.insert([
      { id: 'help-site', chatbotId: helpBot, type: 'website', title: 'help.example.com', status: 'ready', error: null, chars: 31, createdAt: at, updatedAt: at, url: 'https://help.example.com/' },
    ]);
    await app.store.sources.recordPage('help-site', {
      url: 'https://help.example.com/parcels',
      title: 'Parcels',
      status: 'read',
      chars: 31,
      text: 'Parcels go to the loading bay.',
    });
    await trainFromSources(app.store, helpBot);
    await bind(channel, helpBot, 'all');
    model.queue.push({ pieces: ['Parcels go to the loading bay.'], delayMs: 0 });
    await reply(discord.say(channel, alice, 'Where do parcels go?'), 'Parcels go to the loading bay.\n\nSources: [Parcels](<https://help.example.com/parcels>)');
    // An answer that quotes nothing cites nothing.
    model.queue.push({ pieces: ['I am not sure.'], delayMs: 0 });
    await reply(discord.say(channel, alice, 'Where do parcels go now?'), 'I am not sure.');
  });

  it('labels a long suggested question cut between characters, never inside an emoji', () => {
    // A label holds 80 characters; a suggestion with an emoji at 79–80 kept half of it.
    const [row] = suggestionRows([`${'a'.repeat(78)}🎁 and more`]);
    expect((row?.components[0]?.toJSON() as { label?: string }).label).toBe(`${'a'.repeat(78)}…`);
  });

  it('closes a code block a long reply is cut in and reopens it in the next message, its indentation kept', () => {
    // A script of 3,400 characters was cut at a line: the first message's block never closed and
    // the next began outside one, its lines shown as Markdown and their indentation dropped.
    const code = Array.from({ length: 120 }, (_, index) => `    line_${index} = compute(${index})`).join('\n');
    const pieces = splitMessage(`Here is the script:\n\n\`\`\`python\n${code}\n\`\`\`\nRun it.`);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(2_000);
      expect(piece.split('```').length % 2).toBe(1);
    }
    expect(pieces.slice(1).every((piece) => piece.startsWith('```\n    line_'))).toBe(true);
  });

  it('cuts text at paragraph, line or word breaks, never beyond the limit', () => {
    expect(splitMessage('short')).toEqual(['short']);
    expect(splitMessage('')).toEqual(['']);
    expect(splitMessage('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(splitMessage('aaaa\nbb cc\n\ndd', 12)).toEqual(['aaaa\nbb cc', 'dd']);
    expect(splitMessage('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    // A surrogate pair is never cut in two.
    const emoji = `${'x'.repeat(9)}😀tail`;
    expect(splitMessage(emoji, 10)).toEqual(['x'.repeat(9), '😀tail']);
  });

  // ---- faults -------------------------------------------------------------------------------------

  it('waits out a 429 as Discord says, then delivers the reply, counting both in the metrics', async () => {
    const counted = async () => ({
      limited: (await platformApiErrors.get()).values.find((v) => v.labels.platform === 'discord' && v.labels.kind === 'rate_limited')?.value ?? 0,
      messages: (await platformEvents.get()).values.find((v) => v.labels.platform === 'discord' && v.labels.event === 'message')?.value ?? 0,
    });
    const before = await counted();
    const channel = newChannel('rate-limited');
    await bind(channel, supportBot, 'all');
    const path = new RegExp(`^/channels/${channel.id}/messages$`);
    discord.rateLimitNext('POST', path, 1);
    const question = discord.say(channel, alice, 'slow down?');
    await reply(question, 'echo: slow down?');
    const posts = requestsTo('POST', path);
    expect(posts.map((item) => item.status)).toEqual([429, 200]);
    expect((posts[1] as RecordedRequest).at - (posts[0] as RecordedRequest).at).toBeGreaterThanOrEqual(1_000);
    const after = await counted();
    expect(after.limited).toBe(before.limited + 1);
    expect(after.messages).toBeGreaterThan(before.messages);
  });

  it('answers from the question alone when the channel history cannot be read', async () => {
    const channel = newChannel('no-history');
    await bind(channel, supportBot, 'all');
    discord.seed(channel, bob, 'an older message');
    discord.failNext('GET', new RegExp(`^/channels/${channel.id}/messages$`), 403, { message: 'Missing Access', code: 50001 });
    await reply(discord.say(channel, alice, 'still answered?'), 'echo: still answered?');
    expect((model.inputs.at(-1) as ResponderInput).messages).toEqual([{ role: 'user', content: 'still answered?' }]);
  });

  it('counts a REST failure the message handler catches in the platform API errors', async () => {
    const errors = async () =>
      (await platformApiErrors.get()).values.find((v) => v.labels.platform === 'discord' && v.labels.kind === 'error')?.value ?? 0;
    const channel = newChannel('history-refused');
    await bind(channel, supportBot, 'all');
    const before = await errors();
    discord.failNext('GET', new RegExp(`^/channels/${channel.id}/messages$`), 403, { message: 'Missing Access', code: 50001 });
    await reply(discord.say(channel, alice, 'counted?'), 'echo: counted?');
    expect(await errors()).toBe(before + 1);
  });

  it('apologises briefly while the hub is down, and answers again once it is back', async () => {
    const channel = newChannel('outage');
    await bind(channel, supportBot, 'mentions');
    proxy.setDown(true);
    try {
      const during = discord.say(channel, alice, mention('anyone there?'));
      expect((await reply(during)).content).toBe(HUB_UNAVAILABLE);
      const ignored = discord.say(channel, bob, 'not addressed: no apology');
      const { text } = await command(channel, manager, 'list', {}, PERMISSIONS.ManageGuild);
      expect(text).toBe(COMMAND_FAILED);
      expect(replyTo(ignored)()).toBeUndefined();
    } finally {
      proxy.setDown(false);
    }
    const after = discord.say(channel, alice, mention('back?'));
    await reply(after, 'echo: back?');
  });

  it('resumes its gateway session after a dropped connection, receiving what was sent meanwhile', async () => {
    const channel = newChannel('resume');
    await bind(channel, supportBot, 'all');
    const identifies = discord.gateway.identifies.length;

    discord.dropConnection(4000);
    await discord.until('the drop', () => !discord.connected());
    const meanwhile = discord.say(channel, alice, 'sent while disconnected');
    await reply(meanwhile, 'echo: sent while disconnected');

    expect(discord.gateway.identifies).toHaveLength(identifies);
    const resume = discord.gateway.resumes.at(-1) as { token: string; session_id: string; seq: number };
    expect(resume.token).toBe(TOKEN);
    expect(discord.gateway.connections.at(-1)?.path).toBe('/resume');

    // Asked to reconnect (op 7): resumes again.
    discord.requestReconnect();
    await discord.until('a second resume', () => discord.gateway.resumes.length >= 2);
    await discord.until('the connection', () => discord.connected());
    await reply(discord.say(channel, bob, 'after reconnect'), 'echo: after reconnect');
    expect(discord.gateway.identifies).toHaveLength(identifies);
  });

  // ---- /chatbot -----------------------------------------------------------------------------------

  describe('/chatbot', () => {
    let channel: FakeChannel;
    const admin = PERMISSIONS.ManageGuild;

    beforeAll(async () => {
      channel = newChannel('commands');
    });

    it('help answers at once, privately, listing every subcommand', async () => {
      const { text, callback, edits } = await command(channel, alice, 'help');
      expect((callback.body as { type: number }).type).toBe(4);
      expect(callback.authorization).toBeUndefined();
      expect(edits).toEqual([]);
      for (const name of ['help', 'list', 'use', 'settings', 'set', 'leads', 'digest']) expect(text).toContain(`/chatbot ${name}`);
    });

    it('list defers, then shows the chatbots and which one answers here', async () => {
      await bind(channel, salesBot, 'mentions');
      expect((await command(channel, alice, 'list')).text).toBe('Sorry, only members with the Manage Server permission can use `/chatbot list`.');
      const { text, callback } = await command(channel, manager, 'list', {}, admin);
      expect((callback.body as { type: number }).type).toBe(5);
      expect(text).toContain(`Support bot \`${supportBot}\``);
      expect(text).toMatch(new RegExp(`Sales bot \`${salesBot}\`.*← in this channel`));
    });

    it('list stops within one message, the chatbot answering here first, saying how many more there are', async () => {
      // Found with thirty chatbots of long names: the list was cut mid-line at 2,000 characters,
      // and the one answering in the channel was past the cut.
      const many: string[] = [];
      for (let n = 1; n <= 30; n += 1) many.push(await createChatbotViaApi(app, `Seasonal campaign assistant ${n} ${'·'.repeat(150)}`));
      const here = newChannel('list-many');
      await bind(here, many.at(-1) as string, 'mentions');
      try {
        const { text } = await command(here, manager, 'list', {}, admin);
        expect(text.length).toBeLessThanOrEqual(2_000);
        const lines = text.split('\n');
        expect(lines[0]).toMatch(/^Chatbots \(\d+\):$/);
        expect(lines[1]).toMatch(new RegExp(`^• Seasonal campaign assistant 30 ·+… \`${many.at(-1)}\` .*← in this channel$`));
        const shown = lines.length - 2;
        expect(lines.at(-1)).toBe(`…and ${Number(/\d+/.exec(lines[0] ?? '')?.[0]) - shown} more, which the console's Chatbots page lists.`);
      } finally {
        for (const chatbotId of many) await call('DELETE', `${app.baseUrl}/delete-chatbot?chatbotId=${chatbotId}`, app.apiKey);
      }
    });

    it('use binds the channel, in mentions or all mode, or as the server default', async () => {
      const here = newChannel('use-here');
      const { text } = await command(here, manager, 'use', { chatbot: supportBot, mode: 'all' }, admin);
      expect(text).toBe('Support bot now answers every message in this channel.');
      const [binding] = await hub.listBindings({ platform: 'discord', workspaceId: discord.guildId, channelId: here.id });
      expect(binding).toMatchObject({ chatbotId: supportBot, mode: 'all' });
      // The binding takes effect at once.
      await reply(discord.say(here, alice, 'bound now?'), 'echo: bound now?');

      const unknown = await command(here, manager, 'use', { chatbot: 'no-such-bot' }, admin);
      expect(unknown.text).toBe('No chatbot has the id `no-such-bot`. Try `/chatbot list`.');

      const server = await command(here, manager, 'use', { chatbot: salesBot, scope: 'default' }, admin);
      expect(server.text).toBe('Sales bot now answers mentions and direct messages across this server (its default).');
      const [fallback] = await hub.listBindings({ platform: 'discord', workspaceId: discord.guildId, channelId: '*' });
      expect(fallback).toMatchObject({ chatbotId: salesBot, mode: 'mentions' });
      await hub.unbind(fallback?.id as string);
    });

    it('use refuses, binding nothing, in a channel the bot cannot see, naming what it lacks', async () => {
      // Found binding a team-only channel the bot had not been added to: "now answers every
      // message" was said, and no message there ever reached it.
      const hidden = discord.createChannel('text', 'staff-only', { teamOnly: true, hiddenFromBot: true });
      const { text } = await command(hidden, manager, 'use', { chatbot: supportBot, mode: 'all' }, admin);
      expect(text).toBe(lacksPermissionsText('answer', ['View Channel']));
      expect(text).toContain('then run `/chatbot use` again');
      expect(await hub.listBindings({ platform: 'discord', workspaceId: discord.guildId, channelId: hidden.id })).toEqual([]);
    });

    it('settings shows the bound chatbot; set changes it and refuses bad values', async () => {
      const here = newChannel('settings');
      const none = await command(here, manager, 'settings', {}, admin);
      expect(none.text).toBe(NOT_BOUND);

      await bind(here, supportBot, 'mentions');
      expect((await command(here, alice, 'settings')).text).toBe('Sorry, only members with the Manage Server permission can use `/chatbot settings`.');
      const shown = await command(here, manager, 'settings', {}, admin);
      expect(shown.text).toContain(`Support bot \`${supportBot}\` answers mentions in this channel.`);
      expect(shown.text).toContain('model: auto');

      const renamed = await command(here, manager, 'set', { field: 'name', value: 'Help desk' }, admin);
      expect(renamed.text).toBe('Saved: the name of Support bot is now “Help desk”.');
      const temp = await command(here, manager, 'set', { field: 'temp', value: '0.4' }, admin);
      expect(temp.text).toBe('Saved: the temp of Help desk is now “0.4”.');
      const suggested = await command(here, manager, 'set', { field: 'suggestedMessages', value: 'Opening hours | Returns' }, admin);
      expect(suggested.text).toBe('Saved: the suggestedMessages of Help desk are now “Opening hours”, “Returns”.');
      expect((await hub.listChatbots()).find((item) => item.id === supportBot)?.name).toBe('Help desk');

      const bad = await command(here, manager, 'set', { field: 'temp', value: '3' }, admin);
      expect(bad.text).toBe('temp takes a number from 0 to 1.');
      const refused = await command(here, manager, 'set', { field: 'model', value: 'not-a-model' }, admin);
      expect(refused.text).toBe('The hub refused that: Invalid request data.');
      await hub.updateSettings(supportBot, { name: 'Support bot', temp: 0, suggestedMessages: [] });
    });

    it('leads lists a few inline and attaches many as CSV, within dates', async () => {
      const here = newChannel('leads');
      await bind(here, salesBot, 'mentions');
      const none = await command(here, manager, 'leads', {}, admin);
      expect(none.text).toBe('Sales bot has no leads.');

      const addLead = (n: number) =>
        call('POST', `${app.baseUrl}/chatbots/${salesBot}/leads`, app.apiKey, {
          name: n === 1 ? '=HYPERLINK("x")' : `Lead ${n}`,
          email: `lead${n}@example.com`,
          phone: '+47 555 0000',
        });
      for (let n = 1; n <= 3; n += 1) expect((await addLead(n)).status).toBe(200);
      const few = await command(here, manager, 'leads', {}, admin);
      expect(few.text.split('\n')).toHaveLength(4);
      expect(few.text).toContain('Sales bot has 3 leads:');
      expect(few.text).toContain('• Lead 2 · lead2@example.com · +47 555 0000 — ');
      expect(few.edits.at(-1)?.files).toEqual([]);

      for (let n = 4; n <= 12; n += 1) expect((await addLead(n)).status).toBe(200);
      const today = new Date().toISOString().slice(0, 10);
      const many = await command(here, manager, 'leads', { start_date: today, end_date: today }, admin);
      expect(many.text).toBe(`Sales bot has 12 leads from ${today} to ${today}; the list is attached as CSV.`);
      const [file] = many.edits.at(-1)?.files ?? [];
      expect(file?.field).toBe('files[0]');
      expect(file?.filename).toBe(`leads-${salesBot}-from-${today}-to-${today}.csv`);
      const rows = file?.text.trim().split('\r\n') ?? [];
      expect(rows[0]).toBe('id,name,email,phone,created_at');
      expect(rows).toHaveLength(13);
      expect(rows.some((row) => row.includes(`"'=HYPERLINK(""x"")"`))).toBe(true);

      const past = await command(here, manager, 'leads', { end_date: '2001-01-01' }, admin);
      expect(past.text).toBe('Sales bot has no leads until 2001-01-01.');
      const badDate = await command(here, manager, 'leads', { start_date: '2024-02-30' }, admin);
      expect(badDate.text).toBe('`2024-02-30` is not a date; write it as YYYY-MM-DD.');
    });

    it('shows lead details and questions as their strangers typed them: no masked link, heading or mention', async () => {
      // Found reading leads as a moderator: a visitor who typed "[Claim your prize](https://…)" as
      // their name showed up as a link, and a question starting "# " as a heading.
      const here = newChannel('typed');
      const typedBot = await createChatbotViaApi(app, 'Typed bot');
      await bind(here, typedBot, 'mentions');
      const lead = { name: '[Claim your prize](https://evil.example/p)', email: 'x@example.com', phone: '' };
      expect((await call('POST', `${app.baseUrl}/chatbots/${typedBot}/leads`, app.apiKey, lead)).status).toBe(200);
      const leads = await command(here, manager, 'leads', {}, admin);
      expect(leads.text.split('\n')[1]).toMatch(/^• \\\[Claim your prize\\\]\(https:\/\/evil\.example\/p\) · x@example\.com — \d{4}-\d{2}-\d{2}$/);

      await recordUnanswered(app.store, { id: typedBot, accountId: app.accountId }, '# Free **money** for @everyone?', {
        conversationId: null,
        messageId: null,
        source: 'Discord',
        askedAt: new Date(),
      });
      const listed = await command(here, manager, 'unanswered', {}, admin);
      expect(listed.text.split('\n')[1]).toBe('1. \\# Free \\*\\*money\\*\\* for @\u200beveryone? (asked once)');
    });

    it('cuts long settings and questions between characters, never inside an emoji', async () => {
      // Found with instructions ending in emoji: the 500-character cut left half an emoji (a lone surrogate).
      const here = newChannel('emoji-cut');
      const emojiBot = await createChatbotViaApi(app, 'Emoji bot');
      await bind(here, emojiBot, 'mentions');
      await hub.updateSettings(emojiBot, { instructions: `${'a'.repeat(498)}😀 and more` });
      await recordUnanswered(app.store, { id: emojiBot, accountId: app.accountId }, `${'b'.repeat(198)}🎁 gift cards?`, {
        conversationId: null,
        messageId: null,
        source: 'Discord',
        askedAt: new Date(),
      });
      const settings = (await command(here, manager, 'settings', {}, admin)).text;
      expect(settings).toContain(`instructions: ${'a'.repeat(498)}…`);
      const listed = (await command(here, manager, 'unanswered', {}, admin)).text;
      expect(listed).toContain(`1. ${'b'.repeat(198)}… (asked once)`);
      // No lone surrogate: UTF-8 would carry it as U+FFFD.
      expect([settings, listed].every((text) => Buffer.from(text).toString() === text)).toBe(true);
    });

    it('shows a long question in its answer modal cut between characters, never inside an emoji', async () => {
      // The placeholder holds 100 characters; cut inside the emoji at 99–100, it carried half of it.
      const here = newChannel('emoji-modal');
      const emojiBot = await createChatbotViaApi(app, 'Emoji modal bot');
      await bind(here, emojiBot, 'mentions');
      await recordUnanswered(app.store, { id: emojiBot, accountId: app.accountId }, `${'b'.repeat(99)}🎁 gift cards?`, {
        conversationId: null,
        messageId: null,
        source: 'Discord',
        askedAt: new Date(),
      });
      const listed = await command(here, manager, 'unanswered', {}, admin);
      const components = (listed.edits.at(-1)?.body as { components: ApiMessage['components'] }).components ?? [];
      const message = { id: '1', channel_id: here.id, content: listed.text, components } as ApiMessage;
      const clicked = discord.click(message, listedAdmin, components[0]?.components[0]?.custom_id ?? '');
      const modal = await discord.until('the modal', () => discord.interactionResponse(clicked).callback);
      const placeholder = (modal.body as { data: { components: { components: { placeholder: string }[] }[] } }).data.components[0]?.components[0]?.placeholder ?? '';
      expect(placeholder).toBe(`${'b'.repeat(99)}…`);
    });

    it('leads sends a few long ones as CSV rather than cut them off the message', async () => {
      // Found with four visitors who typed long names: the reply stopped half-way through the third.
      const here = newChannel('long-leads');
      const longBot = await createChatbotViaApi(app, 'Long leads bot');
      await bind(here, longBot, 'mentions');
      for (let n = 1; n <= 4; n += 1) {
        const lead = { name: `Visitor ${n} ${'_'.repeat(190)}`, email: `visitor${n}.${'x'.repeat(200)}@example.com` };
        expect((await call('POST', `${app.baseUrl}/chatbots/${longBot}/leads`, app.apiKey, lead)).status).toBe(200);
      }
      const reply = await command(here, manager, 'leads', {}, admin);
      expect(reply.text).toBe('Long leads bot has 4 leads; the list is attached as CSV.');
      const [file] = reply.edits.at(-1)?.files ?? [];
      expect(file?.text.trim().split('\r\n')).toHaveLength(5);
    });

    it('digest on subscribes this channel at a time and zone; off removes it', async () => {
      const here = discord.createChannel('text', 'digest', { teamOnly: true });
      await bind(here, salesBot, 'mentions');
      const on = await command(here, manager, 'digest', { state: 'on', time: '8:30', timezone: 'Europe/Oslo' }, admin);
      expect(on.text).toBe("Every day at 08:30 (Europe/Oslo) I'll post the new leads of Sales bot here.");
      const where = { platform: 'discord' as const, workspaceId: discord.guildId, channelId: here.id };
      expect(await hub.listDigests(where)).toMatchObject([{ chatbotId: salesBot, time: '08:30', timezone: 'Europe/Oslo' }]);

      // An owner's postWhenEmpty (the API's, the console's) stays as the time changes.
      await hub.subscribeDigest({ chatbotId: salesBot, ...where, time: '08:30', timezone: 'Europe/Oslo', postWhenEmpty: true });
      const defaults = await command(here, manager, 'digest', { state: 'on' }, admin);
      expect(defaults.text).toBe("Every day at 09:00 (UTC) I'll post the new leads of Sales bot here.");
      expect(await hub.listDigests(where)).toMatchObject([{ time: '09:00', timezone: 'UTC', postWhenEmpty: true }]);

      const badZone = await command(here, manager, 'digest', { state: 'on', timezone: 'Mars/Olympus' }, admin);
      expect(badZone.text).toBe('`Mars/Olympus` is not a time zone; use an IANA name such as Europe/Oslo.');
      const badTime = await command(here, manager, 'digest', { state: 'on', time: '25:00' }, admin);
      expect(badTime.text).toBe('`25:00` is not a time; write it as HH:MM (24-hour), e.g. 09:00.');

      const off = await command(here, manager, 'digest', { state: 'off' }, admin);
      expect(off.text).toBe('The daily lead digest of Sales bot is off for this channel.');
      expect(await hub.listDigests(where)).toEqual([]);
      const again = await command(here, manager, 'digest', { state: 'off' }, admin);
      expect(again.text).toBe('No lead digest was on for this channel.');
    });

    it('digest on refuses, changing nothing, in a channel the bot cannot post in, naming what it lacks', async () => {
      // Found subscribing a team-only channel, as the README advises: Discord runs a slash command
      // wherever the member may, the bot a viewer there or not, so the digest was taken and then
      // failed every day with Missing Access.
      const hidden = discord.createChannel('text', 'staff', { teamOnly: true, hiddenFromBot: true });
      await bind(hidden, salesBot, 'mentions');
      const on = await command(hidden, manager, 'digest', { state: 'on' }, admin);
      expect(on.text).toBe(lacksPermissionsText('digest', ['View Channel']));
      expect(await hub.listDigests({ platform: 'discord', workspaceId: discord.guildId, channelId: hidden.id })).toEqual([]);
    });

    it('digest on in a channel everyone in the server can read says the leads will show there', async () => {
      // Found setting the digest up in #general, where the customers are: nothing said that every
      // lead's email and phone would be posted for all of them to read.
      const open = newChannel('digest-open');
      await bind(open, salesBot, 'mentions');
      const on = await command(open, manager, 'digest', { state: 'on' }, admin);
      expect(on.text).toBe(`Every day at 09:00 (UTC) I'll post the new leads of Sales bot here. ${everyoneSeesDigest(DISCORD_WORDS)}`);
      await command(open, manager, 'digest', { state: 'off' }, admin);
    });

    it('unanswered lists the open questions with Answer buttons; a button opens a modal whose text resolves the question', async () => {
      const here = newChannel('unanswered');
      const questionsBot = await createChatbotViaApi(app, 'Questions bot');
      await bind(here, questionsBot, 'mentions');
      const ask = (question: string) =>
        recordUnanswered(app.store, { id: questionsBot, accountId: app.accountId }, question, {
          conversationId: null,
          messageId: null,
          source: 'Discord',
          askedAt: new Date(),
        });
      for (const question of ['Do you sell gift cards?', 'Is there parking nearby?', 'Can I buy a gift card?']) await ask(question);
      const listed = await command(here, manager, 'unanswered', {}, admin);
      expect(listed.text).toBe(
        'Questions Questions bot could not answer, most asked first:\n1. Do you sell gift cards? (asked 2 times)\n2. Is there parking nearby? (asked once)',
      );
      const components = (listed.edits.at(-1)?.body as { components: ApiMessage['components'] }).components ?? [];
      const buttons = components.flatMap((row) => row.components);
      expect(buttons.map((button) => (button as { label?: string }).label)).toEqual(['Answer 1', 'Answer 2']);
      const message = { id: '1', channel_id: here.id, content: listed.text, components } as ApiMessage;
      const groups = () => app.store.unanswered.list(questionsBot, {}, { page: 1, size: 10 });

      // Someone without the right is told so, and no modal opens.
      const refused = discord.click(message, bob, buttons[0]?.custom_id ?? '');
      const refusal = await discord.until('the refusal', () => discord.interactionResponse(refused).callback);
      expect(refusal.body).toMatchObject({ type: 4, data: { content: expect.stringContaining('only members with the Manage Server permission'), flags: 64 } });

      const clicked = discord.click(message, listedAdmin, buttons[0]?.custom_id ?? '');
      const modal = await discord.until('the modal', () => discord.interactionResponse(clicked).callback);
      expect(modal.body).toMatchObject({
        type: 9,
        data: { title: 'Answer a question', components: [{ type: 1, components: [{ type: 4, custom_id: 'answer', style: 2, placeholder: 'Do you sell gift cards?' }] }] },
      });
      const submitted = discord.submitModal(clicked, listedAdmin, { answer: 'Yes, at the counter.' });
      const done = await discord.until('the confirmation', () => discord.interactionResponse(submitted).edits.at(-1));
      expect((done.body as { content: string }).content).toBe(ANSWER_SAVED);
      expect((await groups()).map((group) => [group.question, group.status])).toEqual([
        ['Do you sell gift cards?', 'resolved'],
        ['Is there parking nearby?', 'open'],
      ]);

      // The modal checks the submitter too.
      const again = discord.click(message, listedAdmin, buttons[1]?.custom_id ?? '');
      await discord.until('the second modal', () => discord.interactionResponse(again).callback);
      const sneaky = discord.submitModal(again, bob, { answer: 'No.' });
      const answered = await discord.until('the answer', () => discord.interactionResponse(sneaky).edits.at(-1));
      expect((answered.body as { content: string }).content).toContain('only members with the Manage Server permission');
      expect((await groups())[1]?.status).toBe('open');
    });

    it('learn starts reading a website, privately, and tells the admin privately when it is ready or could not be read', async () => {
      const here = newChannel('learn');
      const docsBot = await createChatbotViaApi(app, 'Docs bot');
      await bind(here, docsBot);
      const site = await serveSite(() => ({
        '/': html(page('Help', '<p>Parcels go to the loading bay.</p>', { links: ['/parcels'] })),
        '/parcels': html(page('Parcels', '<p>Parcels wait at the front desk.</p>')),
      }));
      try {
        const learned = await command(here, manager, 'learn', { url: `${site.origin}/` }, admin);
        expect(learned.text).toBe(`Docs bot is reading ${site.origin}/. I'll say here when it is ready.`);
        const gone = await command(here, manager, 'learn', { url: `${site.origin}/gone` }, admin);
        const followUps = () => [...learned.followUps(), ...gone.followUps()].map((request) => request.body as { content: string; flags?: number });
        expect(followUps()).toEqual([]);

        expect(await sourceWorker(app.store).tick()).toBe(2);
        const said = await discord.until('both outcomes told privately', () => {
          const texts = followUps().map((body) => body.content);
          return texts.length === 2 && texts;
        });
        // Follow-ups of each command, private to the admin (flags 64); nothing in the channel.
        expect(followUps().map((body) => body.flags)).toEqual([64, 64]);
        expect(botMessages(here)).toEqual([]);
        const failed = (await hub.listSources(docsBot)).find((source) => source.status === 'failed');
        expect(said.sort()).toEqual(
          [`Docs bot has read ${site.origin}/ (2 pages read) and answers from it now.`, `Docs bot could not read ${site.origin}/gone: ${failed?.error}`].sort(),
        );
        expect(failed?.error).toMatch(/\.$/);
      } finally {
        await site.close();
      }
    });

    it('sources lists what the bound chatbot knows with each status, privately', async () => {
      const here = newChannel('sources');
      const docsBot = await createChatbotViaApi(app, 'Manual bot', 'The manual.');
      await bind(here, docsBot);
      await hub.addWebsiteSource(docsBot, 'https://help.example.com/');
      const { text } = await command(here, manager, 'sources', {}, admin);
      expect(text).toBe(['What Manual bot knows (2):', '• API text (text, ready)', '• https://help.example.com/ (website, queued, 0 of 0 pages)'].join('\n'));
      const unbound = newChannel('sources-unbound');
      expect((await command(unbound, manager, 'sources', {}, admin)).text).toBe(NOT_BOUND);
    });

    it('sources lists the files, websites and texts first and stops within one message, however many questions were answered', async () => {
      // Found after answering many of the Tallyho bot's open questions: each became a Q&A source,
      // and the list, oldest first and cut at 2,000 characters, lost the website taught last.
      const here = newChannel('sources-many');
      const answeredBot = await createChatbotViaApi(app, 'Answered bot', 'The manual.');
      await bind(here, answeredBot);
      for (let index = 1; index <= 30; index += 1) {
        const question = `Question ${index}: ${'how does this part of the invoicing work when a client pays late '.repeat(3)}?`;
        await call('POST', `${app.baseUrl}/chatbots/${answeredBot}/sources`, app.apiKey, { type: 'qa', question, answer: 'Like this.' });
      }
      await hub.addWebsiteSource(answeredBot, 'https://help.example.com/');
      const { text } = await command(here, manager, 'sources', {}, admin);
      const lines = text.split('\n');
      expect(text.length).toBeLessThanOrEqual(2_000);
      expect(lines.slice(0, 3)).toEqual(['What Answered bot knows (32):', '• API text (text, ready)', '• https://help.example.com/ (website, queued, 0 of 0 pages)']);
      expect(lines[3]).toMatch(/^• Question 1: how does this part .*… \(qa, ready\)$/);
      expect(lines.at(-1)).toBe("…and 17 more, which the console's Sources page lists.");
    });

    it('sources keeps every listed line and the last within one message when many sites failed with long error sentences', async () => {
      // Found in the walk-through: fifteen failed websites, each line with its error, passed
      // Discord's 2,000 characters, and the message was cut through a line, the count of the rest lost.
      const here = newChannel('sources-failed');
      const failingBot = await createChatbotViaApi(app, `Failing bot ${'with a very long name '.repeat(8)}`.slice(0, 200));
      await bind(here, failingBot);
      const paths = Array.from({ length: 17 }, (_, index) => `/${'product-manual/'.repeat(6)}${index + 1}`);
      const site = await serveSite(Object.fromEntries(paths.map((path) => [path, html(page('Manual', '<p>Parcels go to the loading bay.</p>'))])));
      try {
        for (const path of paths) await hub.addWebsiteSource(failingBot, `${site.origin}${path}`);
        // A hub whose limit no site fits in: each fails with a sentence of over a hundred characters.
        const worker = createSourceWorker({ store: app.store, logger: pino({ level: 'silent' }), allowPrivate: true, maxCharsPerChatbot: 20 });
        while ((await worker.tick()) > 0);
        const sources = await hub.listSources(failingBot);
        expect(sources.filter((source) => source.status === 'failed' && (source.error?.length ?? 0) > 100)).toHaveLength(17);

        const { text } = await command(here, manager, 'sources', {}, admin);
        const lines = text.split('\n');
        expect(text.length).toBeLessThanOrEqual(2_000);
        expect(lines[0]).toMatch(/^What Failing bot .* knows \(18\):$/);
        expect(lines[1]).toBe('• API text (text, ready)');
        const failed = lines.slice(2, -1);
        expect(failed).toHaveLength(14);
        for (const line of failed) expect(line).toMatch(/^• http:\/\/127\.0\.0\.1:\d+\/product-.*… \(website, failed, 1 page read\) The website holds \d+ characters .*…$/);
        expect(lines.at(-1)).toBe("…and 3 more, which the console's Sources page lists.");
      } finally {
        await site.close();
      }
    });

    it('changes and leads need Manage Server or DISCORD_ADMIN_USER_IDS', async () => {
      const here = newChannel('permissions');
      const refusals = [
        ['use', { chatbot: supportBot }],
        ['set', { field: 'name', value: 'Hijacked' }],
        ['leads', {}],
        ['digest', { state: 'on' }],
        ['learn', { url: 'https://help.example.com/' }],
        ['sources', {}],
      ] as const;
      for (const [name, options] of refusals) {
        const { text } = await command(here, alice, name, options);
        expect(text).toBe(`Sorry, only members with the Manage Server permission can use \`/chatbot ${name}\`.`);
      }
      expect(await hub.listBindings({ platform: 'discord', workspaceId: discord.guildId, channelId: here.id })).toEqual([]);
      expect((await hub.listChatbots()).map((item) => item.name)).not.toContain('Hijacked');

      // Administrator implies Manage Server.
      const administrator = 1n << 3n;
      expect((await command(here, manager, 'use', { chatbot: supportBot }, administrator)).text).toMatch(/now answers/);
      // A listed user needs no permission in the server, and may act in DMs too.
      expect((await command(here, listedAdmin, 'use', { chatbot: salesBot })).text).toMatch(/^Sales bot now answers/);
      const dm = discord.createChannel('dm', 'admin dm');
      expect((await command(dm, alice, 'use', { chatbot: salesBot })).text).toMatch(/^Sorry, only/);
      expect((await command(dm, listedAdmin, 'use', { chatbot: salesBot, scope: 'default' })).text).toMatch(/^Sales bot/);
      expect(await hub.listBindings({ platform: 'discord', workspaceId: 'dm', channelId: '*' })).toMatchObject([{ chatbotId: salesBot }]);
    });

    it('waits out a 429 on the interaction callback', async () => {
      const started = Date.now();
      // Armed for this interaction alone: a callback an earlier test's command sends late must not take the 429.
      // The command reaches the bot over the gateway, so none of its callbacks can come before this is armed.
      const token = discord.command(channel, alice, 'help');
      const callbacks = new RegExp(`^/interactions/\\d+/${token}/callback$`);
      discord.rateLimitNext('POST', callbacks, 1);
      const { text } = await answerTo(token, 'help');
      expect(text).toContain('/chatbot help');
      expect(requestsTo('POST', callbacks).map((item) => item.status)).toEqual([429, 204]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    });
  });

  // ---- shared command logic --------------------------------------------------------------------------

  it('parses typed commands and setting values the same way for every platform', () => {
    expect(parseCommandText('  set instructions Be brief.  Very brief. ')).toEqual({
      name: 'set',
      args: ['instructions', 'Be brief.  Very brief.'],
    });
    expect(parseCommandText('use abc all')).toEqual({ name: 'use', args: ['abc', 'all'] });
    expect(parseCommandText('')).toEqual({ name: 'help', args: [] });
    expect(parseSetting('initialmessages', 'Hi! | How can I help?')).toEqual({
      ok: true,
      field: 'initialMessages',
      value: ['Hi!', 'How can I help?'],
    });
    expect(parseSetting('domains', 'a.com, b.org c.net')).toEqual({ ok: true, field: 'domains', value: ['a.com', 'b.org', 'c.net'] });
    expect(parseSetting('onlyAllowOnAddedDomains', 'off')).toEqual({ ok: true, field: 'onlyAllowOnAddedDomains', value: false });
    expect(parseSetting('ipLimit', '-1')).toEqual({ ok: false, message: 'ipLimit takes a whole number, 0 or more.' });
    expect(parseSetting('colour', 'red')).toMatchObject({ ok: false });
    const lead = (id: string, name: string, email: string, phone: string, day: string) => ({
      id,
      name,
      email,
      phone,
      created_at: `${day}T00:00:00.000Z`,
      chatbot_id: 'c',
      account_id: 'x',
    });
    const csv = leadsCsv([
      lead('1', 'A, "B"', 'a@b.c', '+1 (555) 01', '2024-01-01'),
      lead('2', '+SUM(A1)', '@cmd', '', '2024-01-02'),
    ]);
    expect(csv).toBe(
      '\uFEFFid,name,email,phone,created_at\r\n' +
        '1,"A, ""B""",a@b.c,+1 (555) 01,2024-01-01T00:00:00.000Z\r\n' +
        "2,'+SUM(A1),'@cmd,,2024-01-02T00:00:00.000Z\r\n",
    );
  });
});
