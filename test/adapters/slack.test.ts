import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { webApi } from '@slack/bolt';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ANSWER_SAVED, CHATBOT_FULL, COMMAND_FAILED, everyoneSeesDigest, LEARN_CREDENTIALS, LEARN_PRIVATE, LEARN_TOO_LONG, refusal, RESOLVE_WITH_BUTTON } from '../../adapters/commands.js';
import { createHubClient, type HubClient } from '../../adapters/hub-client.js';
import { FEEDBACK_GONE, feedbackRecorded } from '../../adapters/feedback.js';
import { HUB_UNAVAILABLE } from '../../adapters/relay.js';
import { notBoundText } from '../../adapters/relay.js';
import { SLACK_ADMINS } from '../../adapters/slack/commands.js';
import { betweenPeopleText, missingScopesText, notInChannelText } from '../../adapters/slack/channel-check.js';
import { noDefaultText, THINKING_STATUS } from '../../adapters/slack/assistant.js';
import { FEEDBACK_ACTION_ID } from '../../adapters/slack/feedback.js';
import { createSlackAdapter, SLACK_EVENTS_PATH, type SlackAdapter } from '../../adapters/slack/index.js';
import { EMPTY_REPLY } from '../../adapters/slack/reply.js';
import { ANSWER_ACTION_ID, ANSWER_VIEW_ID } from '../../adapters/slack/unanswered.js';
import { escapeText, MESSAGE_LIMIT } from '../../adapters/slack/text.js';
import type { Responder, ResponderInput } from '../../src/engine/responder.js';
import { createSourceWorker } from '../../jobs/sources/worker.js';
import { DEFAULT_SOURCE_LIMITS, trainFromSources } from '../../src/domain/sources.js';
import type { Store } from '../../src/store/port.js';
import { recordUnanswered } from '../../src/domain/unanswered.js';
import { createChatEngine } from '../../src/engine/index.js';
import { platformApiErrors } from '../../src/metrics.js';
import { SLACK_EVENTS_PATH as HUB_SLACK_PATH, createApp } from '../../src/http/app.js';
import {
  APP_TOKEN,
  assistantMessageEvent,
  assistantThreadEvent,
  BOT_ID,
  BOT_TOKEN,
  BOT_USER,
  deliver,
  eventEnvelope,
  mentionEvent,
  messageEvent,
  signature,
  SIGNING_SECRET,
  slashCommandBody,
  slashCommandPayload,
  startFakeSlack,
  TEAM,
  type ApiCall,
  type ChannelType,
  type FakeSlack,
  type OpenedView,
  type SlackBlock,
  type SlackMessageRecord,
  slackTokens,
} from '../fakes/slack.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';
import { html, page, serveSite } from '../support/website.js';

// The Slack adapter end to end: Bolt, unmodified, behind the hub's Koa app at POST /slack/events;
// events and slash commands delivered as Slack delivers them (signed HTTP POSTs); the Web API a
// local fake Slack; the hub a real app on a fresh SQLite store, reached over HTTP.

const sqlite = storeTargets.find((target) => target.name === 'sqlite');
if (!sqlite) throw new Error('the SQLite store target is missing');

const ALICE = 'U0ALICE001';
const BOB = 'U0BOB00001';
const ADMIN = 'U0ADMIN001';
const OWNER = 'U0OWNER001';
const LISTED_ADMIN = 'U0LISTED01';
const ALL_CHANNEL = 'C0ALLMODE1';
const MENTION_CHANNEL = 'C0MENTION1';
const OTHER_CHANNEL = 'C0OTHER001';
const ALICE_DM = 'D0ALICE001';

const WORDS = { command: '/chatbot', admins: SLACK_ADMINS, workspace: 'workspace' };

/** The scope each Web API method the adapter may call needs (checked against the manifest). */
const METHOD_SCOPES: Record<string, string[]> = {
  'auth.test': [],
  'apps.connections.open': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.startStream': ['chat:write'],
  'chat.appendStream': ['chat:write'],
  'chat.stopStream': ['chat:write'],
  'assistant.threads.setStatus': ['chat:write'],
  'assistant.threads.setSuggestedPrompts': ['assistant:write'],
  'assistant.threads.setTitle': ['assistant:write'],
  'chat.postEphemeral': ['chat:write'],
  'users.info': ['users:read', 'users:read.email'],
  'conversations.replies': ['channels:history', 'groups:history', 'im:history'],
  'conversations.open': ['im:write'],
  'conversations.info': ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  // A modal needs only the interaction's trigger_id.
  'views.open': [],
};
/** Scopes that come with the subscribed events and the slash command rather than a method. */
const EVENT_SCOPES = ['app_mentions:read', 'channels:history', 'groups:history', 'im:history', 'commands'];

type Script = { pieces: string[]; delayMs?: number; fail?: boolean };

type Harness = {
  slack: FakeSlack;
  app: TestApp;
  hub: HubClient;
  adapter: SlackAdapter;
  eventsUrl: string;
  /** What the hub's responder was asked, in order. */
  asked: ResponderInput[];
  /** Makes the responder answer the next requests this way (else it echoes the question). */
  script(next: Script | undefined): void;
  logs: { level: number; msg: string }[];
  support: string;
  sales: string;
  /** Delivers an event (signed, as Slack does) and waits until the adapter has handled it. */
  event(event: Record<string, unknown>, options?: { eventId?: string; retryNum?: number }): Promise<Response>;
  /** Socket Mode: waits until the app acknowledged an envelope and has handled what it carried. */
  acked(envelopeId: string): Promise<void>;
  /** Records a person's message in fake Slack and delivers its `message` event. */
  say(
    channel: string,
    user: string,
    text: string,
    options?: { threadTs?: string; channelType?: ChannelType },
  ): Promise<SlackMessageRecord>;
  /** Runs the slash command and answers what it responded (through response_url); `channelName` as Slack names the channel to the app. */
  command(text: string, user?: string, channel?: string, channelName?: string): Promise<{ response_type?: string; text: string }>;
  bind(channelId: string, chatbotId: string, mode: 'mentions' | 'all'): Promise<void>;
};

/**
 * `nativeStreaming`: the workspace allows chat.startStream. Off by default, so most tests watch
 * the edited-message path every refusal falls back to; the streaming tests turn it on.
 */
type HarnessOptions = {
  updateIntervalMs?: number | null;
  hubUrl?: string;
  socket?: boolean;
  nativeStreaming?: boolean;
  learnWatch?: { intervalMs?: number; timeoutMs?: number };
  /** The hub's limit of characters per chatbot (its default unless given). */
  maxCharsPerChatbot?: number;
  /** SOURCES_ALLOW_PRIVATE of the hub: on unless false, for the tests' local sites. */
  privateSites?: boolean;
};

async function harness(options: HarnessOptions = {}): Promise<Harness> {
  let script: Script | undefined;
  const asked: ResponderInput[] = [];
  const responder: Responder = {
    async complete(input) {
      asked.push(input);
      return `Echo: ${input.messages.at(-1)?.content}`;
    },
    async *stream(input) {
      asked.push(input);
      const { pieces, delayMs = 0, fail = false } = script ?? { pieces: [`Echo: ${input.messages.at(-1)?.content}`] };
      if (fail) throw new Error('the model provider is down');
      for (const piece of pieces) {
        if (delayMs) await sleep(delayMs);
        if (input.signal.aborted) return;
        yield piece;
      }
    },
  };
  const app = await startApp(sqlite as NonNullable<typeof sqlite>, {
    engine: (store) => createChatEngine(store, { providerFor: () => responder }),
    sourcesAllowPrivate: options.privateSites ?? true,
    ...(options.maxCharsPerChatbot ? { sourceLimits: { ...DEFAULT_SOURCE_LIMITS, maxCharsPerChatbot: options.maxCharsPerChatbot } } : {}),
  });
  const hub = createHubClient(app.baseUrl, app.apiKey);
  const slack = await startFakeSlack();
  if (!options.nativeStreaming) slack.failNext('chat.startStream', 'not_allowed', Number.POSITIVE_INFINITY);
  slack.addUser({ id: ALICE, name: 'alice', realName: 'Alice Andersen', email: 'alice@example.com' });
  slack.addUser({ id: BOB, name: 'bob', realName: 'Bob Berg' });
  slack.addUser({ id: ADMIN, name: 'admin', realName: 'Ada Admin', email: 'ada@example.com', isAdmin: true });
  slack.addUser({ id: OWNER, name: 'owner', realName: 'Olga Owner', isOwner: true });
  slack.addUser({ id: LISTED_ADMIN, name: 'lead', realName: 'Lena Lead' });

  const logs: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const adapter = createSlackAdapter({
    config: {
      botToken: BOT_TOKEN,
      appToken: options.socket ? APP_TOKEN : undefined,
      signingSecret: options.socket ? undefined : SIGNING_SECRET,
      apiUrl: slack.apiUrl,
      adminUserIds: [LISTED_ADMIN],
      command: '/chatbot',
    },
    logger,
    ...(options.updateIntervalMs === null ? {} : { updateIntervalMs: options.updateIntervalMs ?? 100 }),
    retryConfig: { retries: 3, minTimeout: 10, maxTimeout: 50 },
    learnWatch: options.learnWatch ?? { intervalMs: 20 },
  });
  // The hub's own Koa app with the Slack mount, as `npm start` serves it (same store).
  const mounted = createServer(
    createApp({ store: app.store, logger: pino({ level: 'silent' }), slack: adapter.requestListener }).callback(),
  );
  await new Promise<void>((resolve) => mounted.listen(0, '127.0.0.1', resolve));
  const eventsUrl = `http://127.0.0.1:${(mounted.address() as AddressInfo).port}${HUB_SLACK_PATH}`;
  await adapter.start(options.hubUrl ? createHubClient(options.hubUrl, app.apiKey) : hub);

  onTestFinished(async () => {
    await adapter.stop(1_000);
    const closed = new Promise<void>((resolve) => mounted.close(() => resolve()));
    mounted.closeAllConnections();
    await closed;
    await slack.close();
    await app.close();
    // Every method the adapter called needs a scope the manifest declares.
    for (const method of new Set(slack.calls.map((c) => c.method))) expect(Object.keys(METHOD_SCOPES)).toContain(method);
  });

  const support = await createChatbotViaApi(app, 'Support bot');
  const sales = await createChatbotViaApi(app, 'Sales bot');

  const h: Harness = {
    slack,
    app,
    hub,
    adapter,
    eventsUrl,
    asked,
    script: (next) => (script = next),
    logs,
    support,
    sales,
    async event(event, { eventId, retryNum } = {}) {
      const response = await deliver(eventsUrl, JSON.stringify(eventEnvelope(event, eventId)), 'application/json', {
        retryNum,
      });
      await adapter.idle();
      return response;
    },
    async acked(envelopeId) {
      await slack.waitFor(() => slack.socket.acks.some((ack) => ack.envelope_id === envelopeId));
      await adapter.idle();
    },
    async say(channel, user, text, { threadTs, channelType = channel.startsWith('D') ? 'im' : 'channel' } = {}) {
      const message = slack.userMessage({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) });
      const response = await h.event(messageEvent(message, channelType));
      expect(response.status).toBe(200);
      return message;
    },
    async command(text, user = ADMIN, channel = MENTION_CHANNEL, channelName) {
      const responseUrl = slack.responseUrl();
      const body = slashCommandBody({ text, userId: user, channelId: channel, channelName, responseUrl });
      const response = await deliver(eventsUrl, body, 'application/x-www-form-urlencoded');
      expect(response.status).toBe(200);
      await adapter.idle();
      const answered = slack.responses.filter((r) => responseUrl.endsWith(r.path));
      expect(answered).toHaveLength(1);
      return answered[0]?.body as { response_type?: string; text: string };
    },
    async bind(channelId, chatbotId, mode) {
      await hub.bind({ platform: 'slack', workspaceId: TEAM, channelId, chatbotId, mode });
    },
  };
  return h;
}

const sourceWorker = (store: Store) =>
  createSourceWorker({ store, logger: pino({ level: 'silent' }), allowPrivate: true, maxCharsPerChatbot: 1_000_000, crawl: { pageTimeoutMs: 2_000 } });
const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'chat.postMessage' && c.status === 200);
/** What a command said later, privately, at its response_url (a learn watch). */
const followUps = (responses: { body: unknown }[]) =>
  responses.map((response) => response.body as { response_type?: string; replace_original?: boolean; text: string }).filter((body) => body.replace_original === false);
const lastUser = (input: ResponderInput | undefined) => input?.messages.at(-1)?.content;

describe('Slack adapter: transport', () => {
  it('answers url_verification with the challenge', async () => {
    const h = await harness();
    const body = JSON.stringify({ token: 'x', challenge: 'c-3po-r2d2', type: 'url_verification' });
    const response = await deliver(h.eventsUrl, body, 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: 'c-3po-r2d2' });
  });

  it('refuses forged, stale and unsigned requests with 401 and acts on none of them', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const message = h.slack.userMessage({ channel: ALL_CHANNEL, user: ALICE, text: 'When do you open?' });
    const body = JSON.stringify(eventEnvelope(messageEvent(message)));
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;

    const forged = await deliver(h.eventsUrl, body, 'application/json', { secret: 'not-the-signing-secret' });
    const tampered = await deliver(h.eventsUrl, body, 'application/json', {
      forgedSignature: signature(SIGNING_SECRET, Math.floor(Date.now() / 1000), body.replace('When', 'Why')),
    });
    const stale = await deliver(h.eventsUrl, body, 'application/json', { timestamp: sixMinutesAgo });
    const unsigned = await fetch(h.eventsUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const forgedCommand = await deliver(
      h.eventsUrl,
      slashCommandBody({ text: `use ${h.sales} all`, userId: ADMIN, channelId: ALL_CHANNEL, responseUrl: h.slack.responseUrl() }),
      'application/x-www-form-urlencoded',
      { secret: 'guessed' },
    );
    await h.adapter.idle();

    expect([forged.status, tampered.status, stale.status, unsigned.status, forgedCommand.status]).toEqual([
      401, 401, 401, 401, 401,
    ]);
    expect(posts(h.slack.calls)).toEqual([]);
    expect(h.asked).toEqual([]);
    expect(h.slack.responses).toEqual([]);
    expect((await h.hub.resolveBinding({ platform: 'slack', workspaceId: TEAM, channelId: ALL_CHANNEL })).chatbotId).toBe(
      h.support,
    );

    // The same request, correctly signed and fresh, is answered.
    expect((await deliver(h.eventsUrl, body, 'application/json')).status).toBe(200);
    await h.adapter.idle();
    expect(posts(h.slack.calls)).toHaveLength(1);
  });

  it('leaves the rest of the hub alone: other methods and paths, the API and health', async () => {
    const h = await harness();
    const origin = new URL(h.eventsUrl).origin;
    expect((await fetch(h.eventsUrl)).status).toBe(404);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const listed = await call('GET', `${origin}/api/v1/get-chatbots`, h.app.apiKey);
    expect(listed.status).toBe(200);
    expect(SLACK_EVENTS_PATH).toBe(HUB_SLACK_PATH);
  });

  it('over Socket Mode connects with the app token, answers events, skips redeliveries and runs commands', async () => {
    const h = await harness({ socket: true });
    expect(h.adapter.mode).toBe('socket');
    expect(h.adapter.requestListener).toBeUndefined();
    expect(h.slack.callsTo('apps.connections.open').map((c) => [c.token, c.status])).toEqual([[APP_TOKEN, 200]]);
    expect(h.slack.socket.connections()).toBe(1);
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');

    const message = h.slack.userMessage({ channel: MENTION_CHANNEL, user: ALICE, text: `<@${BOT_USER}> hello over the socket` });
    const envelope = eventEnvelope(mentionEvent(message));
    await h.acked(h.slack.pushEvent(envelope, 0));
    expect(h.slack.botReplies(MENTION_CHANNEL, message.ts).map((m) => m.text)).toEqual(['Echo: hello over the socket']);
    await h.acked(h.slack.pushEvent(envelope, 1));
    expect(h.slack.botReplies(MENTION_CHANNEL, message.ts)).toHaveLength(1);

    const responseUrl = h.slack.responseUrl();
    const command = h.slack.pushCommand(
      slashCommandPayload({ text: 'list', userId: ADMIN, channelId: MENTION_CHANNEL, responseUrl }),
    );
    await h.acked(command);
    const [response] = h.slack.responses.filter((r) => responseUrl.endsWith(r.path));
    expect(response?.body).toMatchObject({ response_type: 'ephemeral' });
    expect(String(response?.body.text)).toContain(`Support bot \`${h.support}\``);

    await h.adapter.stop(1_000);
    await h.slack.waitFor(() => h.slack.socket.connections() === 0);
  });

  it('the manifest asks for exactly the scopes and events the adapter uses', () => {
    const manifest = readFileSync(new URL('../../adapters/slack/manifest.yaml', import.meta.url), 'utf8');
    const listUnder = (key: string) => {
      const lines = manifest.split('\n');
      const start = lines.findIndex((line) => line.trim() === `${key}:`);
      const indent = /^\s*/.exec(lines[start + 1] ?? '')?.[0] ?? '';
      const items: string[] = [];
      for (const line of lines.slice(start + 1)) {
        if (!line.startsWith(`${indent}- `)) break;
        items.push(line.slice(indent.length + 2).replace(/#.*$/, '').trim());
      }
      return items.sort();
    };
    const needed = new Set([...Object.values(METHOD_SCOPES).flat(), ...EVENT_SCOPES]);
    expect(listUnder('bot')).toEqual([...needed].sort());
    expect(listUnder('bot_events')).toEqual([
      'app_mention',
      'assistant_thread_context_changed',
      'assistant_thread_started',
      'message.channels',
      'message.groups',
      'message.im',
    ]);
    // assistant:write comes only with the assistant view.
    expect(manifest).toMatch(/^ {2}assistant_view:\n {4}assistant_description: \S/m);
    expect(manifest).toContain('command: /chatbot');
    // Events, the slash command and interactivity (the feedback buttons).
    expect(manifest.match(/https:\/\/hub\.example\.com\/slack\/events/g)).toHaveLength(3);
  });
});

describe('Slack adapter: routing', () => {
  it('answers every message of a channel bound in `all` mode, in its thread, as a saved Slack conversation', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const message = await h.say(ALL_CHANNEL, ALICE, 'When do you open &amp; close?');

    const [reply] = h.slack.botReplies(ALL_CHANNEL, message.ts);
    expect(reply?.text).toBe(escapeText('Echo: When do you open & close?'));
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts)).toHaveLength(1);
    expect(h.asked).toHaveLength(1);
    expect(h.asked[0]?.chatbotName).toBe('Support bot');
    expect(h.asked[0]?.messages).toEqual([{ role: 'user', content: 'When do you open & close?' }]);

    const contactId = `slack:${TEAM}:${ALICE}`;
    const conversations = await call('GET', `${h.app.baseUrl}/get-conversations?chatbotId=${h.support}`, h.app.apiKey);
    expect(conversations.body).toMatchObject({
      data: [
        {
          id: `slack:${TEAM}:${ALL_CHANNEL}:${message.ts}`,
          source: 'Slack',
          contact_id: contactId,
          messages: [
            { role: 'user', content: 'When do you open & close?' },
            { role: 'assistant', content: 'Echo: When do you open & close?' },
          ],
        },
      ],
    });
    const contact = await call(
      'GET',
      `${h.app.baseUrl}/chatbots/${h.support}/contacts/${encodeURIComponent(contactId)}`,
      h.app.apiKey,
    );
    expect(contact.body).toMatchObject({
      data: { external_id: contactId, name: 'Alice Andersen', email: 'alice@example.com' },
    });
  });

  it('ends an answer with a Sources line naming what it drew on, linking web pages', async () => {
    const h = await harness();
    const { store } = h.app;
    const at = new Date();
    await store.sources.insert([
      { id: 'help-site', chatbotId: h.support, type: 'website', title: 'help.example.com', status: 'ready', error: null, chars: 31, createdAt: at, updatedAt: at, url: 'https://help.example.com/' },
    ]);
    await store.sources.recordPage('help-site', {
      url: 'https://help.example.com/parcels',
      title: 'Parcels',
      status: 'read',
      chars: 31,
      text: 'Parcels go to the loading bay.',
    });
    await trainFromSources(store, h.support);
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.script({ pieces: ['Parcels go to the loading bay.'] });
    const message = await h.say(ALL_CHANNEL, ALICE, 'Where do parcels go?');
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts).map((reply) => reply.text)).toEqual([
      escapeText('Parcels go to the loading bay.\n\nSources: Parcels (https://help.example.com/parcels)'),
    ]);
    // An answer that quotes nothing cites nothing.
    h.script({ pieces: ['I am not sure.'] });
    const other = await h.say(ALL_CHANNEL, ALICE, 'Where do parcels go now?');
    expect(h.slack.botReplies(ALL_CHANNEL, other.ts).map((reply) => reply.text)).toEqual(['I am not sure.']);
  });

  it('lets admins teach the bound chatbot a website and list its sources, ephemerally', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    expect((await h.command('learn https://help.example.com/', BOB)).text).toBe(escapeText(refusal(WORDS, 'learn')));
    for (const address of ['help.example.com', 'ftp://help.example.com/']) {
      expect((await h.command(`learn ${address}`)).text).toBe(escapeText(`\`${address}\` is not a web address; give one that starts with https:// (or http://).`));
    }
    // Found typing a docs site's address as copied from a password manager: the hub's 400 came
    // back as "The hub refused that: Invalid request data.".
    expect((await h.command('learn https://support:hunter2@help.example.com/')).text).toBe(escapeText(LEARN_CREDENTIALS));
    const learned = await h.command('learn https://help.example.com/');
    expect(learned.response_type).toBe('ephemeral');
    expect(learned.text).toBe(escapeText("Support bot is reading https://help.example.com/. I'll say here when it is ready."));
    // The same site again, as another spelling of it: read again, not learned twice.
    expect((await h.command('learn https://HELP.example.com/?utm_source=mail#pricing')).text).toBe(
      escapeText("Support bot has https://help.example.com/ among its sources already, so it reads that source again rather than learn the site twice. I'll say here when it is ready."),
    );
    const listedSources = await h.command('sources');
    expect(listedSources.response_type).toBe('ephemeral');
    expect(listedSources.text).toBe(
      escapeText(['What Support bot knows (2):', '• API text (text, ready)', '• https://help.example.com/ (website, queued, 0 of 0 pages)'].join('\n')),
    );
    expect((await h.command('sources', BOB)).text).toBe(escapeText(refusal(WORDS, 'sources')));
  });

  it('tells an admin in one sentence why a website on the hub\'s own network is not learned, adding nothing', async () => {
    const h = await harness({ privateSites: false });
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    for (const address of ['http://127.0.0.1:8080/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'https://10.0.0.5/docs']) {
      expect((await h.command(`learn ${address}`)).text, address).toBe(escapeText(LEARN_PRIVATE));
    }
    expect((await h.hub.listSources(h.support)).map((source) => source.type)).toEqual(['text']);
  });

  it('says what is wrong with an address the hub refuses by its form, blaming a private network only for one', async () => {
    // Found learning an address pasted with one slash lost, and a tracking link 2,400 characters
    // long: both were said to be "on a private or local network".
    const h = await harness({ privateSites: false });
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    expect((await h.command('learn https:/help.example.com/')).text).toBe(
      escapeText('`https:/help.example.com/` is not a web address; give one that starts with https:// (or http://).'),
    );
    const long = `https://help.example.com/?ref=${'x'.repeat(2_000)}`;
    expect((await h.command(`learn ${long}`)).text).toBe(escapeText(LEARN_TOO_LONG));
    expect(LEARN_TOO_LONG).toContain('2,000 characters');
    expect((await h.command('learn http://10.0.0.5/docs')).text).toBe(escapeText(LEARN_PRIVATE));
    expect((await h.hub.listSources(h.support)).map((source) => source.type)).toEqual(['text']);
  });

  it('tells the admin privately when a website it was taught is ready, or could not be read', async () => {
    const h = await harness();
    const site = await serveSite(() => ({
      '/': html(page('Help', '<p>Parcels go to the loading bay.</p>', { links: ['/parcels', 'https://elsewhere.example/help'] })),
      '/parcels': html(page('Parcels', '<p>Parcels wait at the front desk.</p>')),
    }));
    onTestFinished(() => site.close());
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    await h.command(`learn ${site.origin}/`);
    await h.command(`learn ${site.origin}/gone`);
    // Nothing is said while the sites wait to be read.
    await sleep(100);
    expect(followUps(h.slack.responses)).toEqual([]);

    expect(await sourceWorker(h.app.store).tick()).toBe(2);
    const said = await h.slack.waitFor(() => {
      const texts = followUps(h.slack.responses).map((body) => body.text);
      return texts.length === 2 && texts;
    });
    // Nothing in the channel for everyone: each is a private follow-up of its command.
    expect(posts(h.slack.calls)).toEqual([]);
    expect(followUps(h.slack.responses).map((body) => body.response_type)).toEqual(['ephemeral', 'ephemeral']);
    expect(said.sort()).toEqual(
      [
        `Support bot has read ${site.origin}/ (2 pages read, 1 skipped) and answers from it now.`,
        `Support bot could not read ${site.origin}/gone: ${(await h.hub.listSources(h.support)).find((item) => item.status === 'failed')?.error}`,
      ].map(escapeText).sort(),
    );
    // Each watch ends once it has said so.
    await sleep(100);
    expect(followUps(h.slack.responses)).toHaveLength(2);
    // The list says how the crawl ended too, as the console does (found with a Tallyho docs site
    // taught with maxPages 5: "(website, ready)" hid the 23 pages past the limit).
    expect((await h.command('sources')).text).toContain(escapeText(`• ${site.origin}/ (website, ready, 2 pages read, 1 skipped)`));
  });

  it('says a website is still being read once the watch runs out, and stops watching with the adapter', async () => {
    const h = await harness({ learnWatch: { intervalMs: 20, timeoutMs: 50 } });
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    await h.command('learn https://help.example.com/');
    const said = await h.slack.waitFor(() => followUps(h.slack.responses)[0]);
    expect(said.text).toBe(escapeText('Support bot is still reading https://help.example.com/; `/chatbot sources` shows how far it has got.'));

    const watching = await harness({ learnWatch: { intervalMs: 20 } });
    await watching.bind(MENTION_CHANNEL, watching.support, 'mentions');
    await watching.command('learn https://help.example.com/');
    await watching.adapter.stop(1_000);
    await sourceWorker(watching.app.store).tick();
    await sleep(100);
    expect(followUps(watching.slack.responses)).toEqual([]);
  });

  it('stops watching a website, saying nothing, once its chatbot is deleted', async () => {
    const h = await harness({ learnWatch: { intervalMs: 20 } });
    const doomed = await createChatbotViaApi(h.app, 'Doomed bot');
    await h.bind(MENTION_CHANNEL, doomed, 'mentions');
    await h.command('learn https://help.example.com/');
    expect((await call('DELETE', `${h.app.baseUrl}/delete-chatbot?chatbotId=${doomed}`, h.app.apiKey)).status).toBe(200);
    await sleep(200);
    expect(followUps(h.slack.responses)).toEqual([]);
    expect(h.logs.filter((line) => line.msg === 'could not look at a website being learned')).toEqual([]);
  });

  it('in `mentions` mode ignores unaddressed messages and answers a mention, once though two events arrive', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.sales, 'mentions');
    const chatter = await h.say(MENTION_CHANNEL, BOB, 'Lunch anyone?');
    expect(h.slack.callsTo('chat.postMessage')).toEqual([]);
    expect(h.asked).toEqual([]);

    const mention = h.slack.userMessage({ channel: MENTION_CHANNEL, user: ALICE, text: `<@${BOT_USER}> what does it cost?` });
    await h.event(mentionEvent(mention));
    await h.event(messageEvent(mention));

    expect(h.slack.botReplies(MENTION_CHANNEL, chatter.ts)).toEqual([]);
    expect(h.slack.botReplies(MENTION_CHANNEL, mention.ts).map((m) => m.text)).toEqual(['Echo: what does it cost?']);
    expect(h.asked).toHaveLength(1);
    expect(h.asked[0]?.chatbotName).toBe('Sales bot');
  });

  it('answers a direct message with the workspace default chatbot', async () => {
    const h = await harness();
    await h.bind('*', h.support, 'mentions');
    const message = await h.say(ALICE_DM, ALICE, 'Hello, are you there?');
    expect(h.slack.botReplies(ALICE_DM, message.ts).map((m) => m.text)).toEqual(['Echo: Hello, are you there?']);
    const conversations = await call('GET', `${h.app.baseUrl}/get-conversations?chatbotId=${h.support}`, h.app.apiKey);
    expect(conversations.body).toMatchObject({ data: [{ id: `slack:${TEAM}:${ALICE_DM}:${message.ts}`, source: 'Slack' }] });
  });

  it('keeps the threads it answered in the hub: a second instance follows up, and a message reaching both is answered once', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const question = await h.say(MENTION_CHANNEL, ALICE, `<@${BOT_USER}> Do you ship abroad?`);
    expect(h.slack.botReplies(MENTION_CHANNEL, question.ts)).toHaveLength(1);

    // Another process (or this one restarted): nothing in its memory, the hub remembers.
    const other = createSlackAdapter({
      config: {
        botToken: BOT_TOKEN,
        appToken: APP_TOKEN,
        signingSecret: undefined,
        apiUrl: h.slack.apiUrl,
        adminUserIds: [],
        command: '/chatbot',
      },
      logger: pino({ level: 'silent' }),
      updateIntervalMs: 100,
    });
    await other.start(createHubClient(h.app.baseUrl, h.app.apiKey));
    onTestFinished(() => other.stop(1_000));
    const followUp = h.slack.userMessage({ channel: MENTION_CHANNEL, user: BOB, text: 'And to Norway?', thread_ts: question.ts });
    const envelope = eventEnvelope(messageEvent(followUp));
    const envelopeId = h.slack.pushEvent(envelope, 0);
    await h.slack.waitFor(() => h.slack.socket.acks.some((ack) => ack.envelope_id === envelopeId));
    await other.idle();
    // The same message delivered to the first instance as well: already claimed, not answered again.
    await h.event(messageEvent(followUp), { eventId: 'Ev0SECOND01' });
    expect(h.slack.botReplies(MENTION_CHANNEL, question.ts).map((m) => m.text)).toEqual([
      'Echo: Do you ship abroad?',
      'Echo: And to Norway?',
    ]);
  });

  it('answers later messages of a thread it answered, sending the thread as history', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const question = h.slack.userMessage({ channel: MENTION_CHANNEL, user: ALICE, text: `<@${BOT_USER}> Do you ship abroad?` });
    await h.event(messageEvent(question));
    await h.say(MENTION_CHANNEL, BOB, 'I was wondering too', { threadTs: question.ts });
    expect(h.asked).toHaveLength(2);

    // Another thread the bot never joined stays the people's own.
    const unrelated = await h.say(MENTION_CHANNEL, BOB, 'Team meeting at 3');
    await h.say(MENTION_CHANNEL, ALICE, 'Sure', { threadTs: unrelated.ts });
    expect(h.asked).toHaveLength(2);

    h.slack.otherBotMessage({ channel: MENTION_CHANNEL, text: 'Reminder: standup', thread_ts: question.ts });
    await h.say(MENTION_CHANNEL, ALICE, 'And to Norway?', { threadTs: question.ts });
    expect(h.asked).toHaveLength(3);
    expect(h.asked[2]?.messages).toEqual([
      { role: 'user', content: 'Do you ship abroad?' },
      { role: 'assistant', content: 'Echo: Do you ship abroad?' },
      { role: 'user', content: 'I was wondering too' },
      { role: 'assistant', content: 'Echo: I was wondering too' },
      { role: 'user', content: 'And to Norway?' },
    ]);
    expect(h.slack.botReplies(MENTION_CHANNEL, question.ts).map((m) => m.text)).toEqual([
      'Echo: Do you ship abroad?',
      'Echo: I was wondering too',
      'Echo: And to Norway?',
    ]);
    const conversations = await call('GET', `${h.app.baseUrl}/get-conversations?chatbotId=${h.support}`, h.app.apiKey);
    const threads = (conversations.body as { data: { id: string; messages: unknown[] }[] }).data;
    expect(threads.map((c) => [c.id, c.messages.length])).toEqual([[`slack:${TEAM}:${MENTION_CHANNEL}:${question.ts}`, 6]]);
  });

  it('in an unbound channel hints at the command on a mention and stays quiet otherwise', async () => {
    const h = await harness();
    await h.say(OTHER_CHANNEL, BOB, 'Anyone seen my keys?');
    const mention = await h.say(OTHER_CHANNEL, ALICE, `<@${BOT_USER}> help me`);
    expect(h.slack.callsTo('chat.postMessage').map((c) => [c.args.thread_ts, c.args.text])).toEqual([
      [mention.ts, escapeText(notBoundText('/chatbot'))],
    ]);
    expect(notBoundText('/chatbot')).toContain('`/chatbot use <chatbotId>`');
    expect(h.asked).toEqual([]);
  });

  it("ignores its own messages, other bots' messages and edits", async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const own = {
      type: 'message',
      channel: ALL_CHANNEL,
      user: BOT_USER,
      bot_id: BOT_ID,
      app_id: 'A0APP00001',
      text: 'Echo: something',
      ts: '1700000000.000100',
      channel_type: 'channel',
    };
    const otherBot = {
      type: 'message',
      subtype: 'bot_message',
      channel: ALL_CHANNEL,
      bot_id: 'B0OTHERBOT',
      username: 'Deploy bot',
      text: 'Deployed v2',
      ts: '1700000000.000200',
      channel_type: 'channel',
    };
    const appUser = { ...otherBot, subtype: undefined, user: 'U0OTHERAPP', ts: '1700000000.000250' };
    const edit = {
      type: 'message',
      subtype: 'message_changed',
      channel: ALL_CHANNEL,
      hidden: true,
      message: { type: 'message', user: ALICE, text: 'edited', ts: '1700000000.000300' },
      ts: '1700000000.000400',
      channel_type: 'channel',
    };
    for (const event of [own, otherBot, appUser, edit]) expect((await h.event(event)).status).toBe(200);
    expect(h.slack.callsTo('chat.postMessage')).toEqual([]);
    expect(h.asked).toEqual([]);
  });

  it('posts nothing for a waiting message the owner left empty', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const settings = { chatbotId: h.support, handoff: { enabled: true, platform: null, waitingMessage: '' } };
    expect((await call('POST', `${h.app.baseUrl}/update-chatbot-settings`, h.app.apiKey, settings)).status).toBe(202);
    const message = h.slack.userMessage({ channel: ALL_CHANNEL, user: ALICE, text: 'can I talk to a person?' });
    expect((await h.event(messageEvent(message))).status).toBe(200);
    const { body } = await call('GET', `${h.app.baseUrl}/get-conversations?chatbotId=${h.support}`, h.app.apiKey);
    const [saved] = (body as { data: { messages: { role: string; content: string; kind?: string }[] }[] }).data;
    expect(saved?.messages.at(-1)).toMatchObject({ role: 'assistant', content: '', kind: 'handoff' });
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts)).toEqual([]);
  });

  it('never answers a delivery twice, and answers a retry whose first delivery never arrived', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const message = h.slack.userMessage({ channel: ALL_CHANNEL, user: ALICE, text: 'Is it raining?' });
    const event = messageEvent(message);
    expect((await h.event(event, { eventId: 'Ev0RETRY01' })).status).toBe(200);
    expect((await h.event(event, { eventId: 'Ev0RETRY01', retryNum: 1 })).status).toBe(200);
    expect((await h.event(event, { eventId: 'Ev0RETRY01' })).status).toBe(200);
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts)).toHaveLength(1);
    expect(h.asked).toHaveLength(1);

    // Sent while the adapter restarted: Slack's retry is the first this process sees, and is answered once.
    const lost = h.slack.userMessage({ channel: ALL_CHANNEL, user: ALICE, text: 'Hello?' });
    expect((await h.event(messageEvent(lost), { eventId: 'Ev0RETRY02', retryNum: 2 })).status).toBe(200);
    expect((await h.event(messageEvent(lost), { eventId: 'Ev0RETRY02', retryNum: 3 })).status).toBe(200);
    expect(h.slack.botReplies(ALL_CHANNEL, lost.ts)).toHaveLength(1);
    expect(h.asked).toHaveLength(2);
  });
});

describe('Slack adapter: the assistant surface', () => {
  /** Pushes an event over Socket Mode in its Events API envelope; resolves once it is handled. */
  const push = (h: Harness, event: Record<string, unknown>) => h.acked(h.slack.pushEvent(eventEnvelope(event)));
  const texts = (h: Harness, thread: { channel: string; threadTs: string }) =>
    h.slack.botReplies(thread.channel, thread.threadTs).map((m) => m.text);

  it('greets a new thread with the first initialMessage and offers the suggestedMessages as prompts', async () => {
    const h = await harness({ socket: true });
    await h.bind('*', h.support, 'mentions');
    const long = 'Can I return an order after thirty days if the box was never opened at all?';
    await h.hub.updateSettings(h.support, {
      initialMessages: ['Welcome to Support & Co!', 'Ask me anything.'],
      suggestedMessages: ['What are your hours?', long, 'Do you ship abroad?', 'Where is my order?', 'Who are you?'],
    });
    const thread = h.slack.openAssistantThread(ALICE);
    await push(h, assistantThreadEvent('assistant_thread_started', thread, MENTION_CHANNEL));

    expect(texts(h, thread)).toEqual([escapeText('Welcome to Support & Co!')]);
    // Slack shows four: the first four, each titled by its question (cut short when long).
    expect(h.slack.assistantThread(thread.channel, thread.threadTs)?.prompts).toEqual([
      { title: 'What are your hours?', message: 'What are your hours?' },
      { title: 'Can I return an order after thirty days if the box was…', message: long },
      { title: 'Do you ship abroad?', message: 'Do you ship abroad?' },
      { title: 'Where is my order?', message: 'Where is my order?' },
    ]);

    // Moving to another channel changes nothing: answers do not depend on it.
    const before = h.slack.calls.length;
    await push(h, assistantThreadEvent('assistant_thread_context_changed', thread, OTHER_CHANNEL));
    expect(h.slack.calls.slice(before)).toEqual([]);
    expect(h.asked).toEqual([]);

    // An app without assistant:write still greets; the refusal is logged.
    h.slack.failNext('assistant.threads.setSuggestedPrompts', 'missing_scope');
    const next = h.slack.openAssistantThread(BOB);
    await push(h, assistantThreadEvent('assistant_thread_started', next));
    expect(texts(h, next)).toEqual([escapeText('Welcome to Support & Co!')]);
    expect(h.logs.filter((line) => line.msg === 'could not set the suggested prompts of a Slack assistant thread')).toHaveLength(1);
  });

  it('answers like a direct message: thinking while the hub works, titled by the first question, one conversation', async () => {
    const h = await harness({ socket: true, nativeStreaming: true });
    await h.bind('*', h.support, 'mentions');
    const thread = h.slack.openAssistantThread(ALICE);
    await push(h, assistantThreadEvent('assistant_thread_started', thread));
    // The default greeting; no suggested questions, so no prompts (Slack wants at least one).
    expect(texts(h, thread)).toEqual(['Hi! What can I help you with?']);
    expect(h.slack.callsTo('assistant.threads.setSuggestedPrompts')).toEqual([]);

    const first = 'What are your opening hours on weekdays and on public holidays in the summer?';
    h.script({ pieces: ['We open ', 'at nine.'], delayMs: 150 });
    const question = h.slack.userMessage({ channel: thread.channel, user: ALICE, text: first, thread_ts: thread.threadTs });
    const handled = push(h, assistantMessageEvent(question, thread));
    await h.slack.waitFor(() => h.asked.length === 1);
    const shown = h.slack.assistantThread(thread.channel, thread.threadTs);
    expect(shown?.status).toBe(THINKING_STATUS);
    await handled;
    // Posting the answer cleared the status, as Slack does.
    expect(shown?.statuses).toEqual([THINKING_STATUS, '']);
    expect(shown?.title).toBe('What are your opening hours on weekdays and on public…');
    expect(h.asked[0]?.messages).toEqual([
      { role: 'assistant', content: 'Hi! What can I help you with?' },
      { role: 'user', content: first },
    ]);

    h.script(undefined);
    const second = h.slack.userMessage({ channel: thread.channel, user: ALICE, text: 'And on Sundays?', thread_ts: thread.threadTs });
    await push(h, assistantMessageEvent(second, thread));
    expect(shown?.statuses).toEqual([THINKING_STATUS, '', THINKING_STATUS, '']);
    expect(h.slack.callsTo('assistant.threads.setTitle')).toHaveLength(1);
    expect(shown?.title).toBe('What are your opening hours on weekdays and on public…');

    // Streamed natively, like any reply, in the thread.
    expect(h.slack.callsTo('chat.startStream').map((c) => c.args.thread_ts)).toEqual([thread.threadTs, thread.threadTs]);
    expect(texts(h, thread)).toEqual(['Hi! What can I help you with?', 'We open at nine.', 'Echo: And on Sundays?']);
    const conversations = await call('GET', `${h.app.baseUrl}/get-conversations?chatbotId=${h.support}`, h.app.apiKey);
    expect(conversations.body).toMatchObject({
      data: [
        {
          id: `slack:${TEAM}:${thread.channel}:${thread.threadTs}`,
          source: 'Slack',
          contact_id: `slack:${TEAM}:${ALICE}`,
          messages: [
            { role: 'user', content: first },
            { role: 'assistant', content: 'We open at nine.' },
            { role: 'user', content: 'And on Sundays?' },
            { role: 'assistant', content: 'Echo: And on Sundays?' },
          ],
        },
      ],
    });
    expect((conversations.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it('in a handoff, clears its thinking status and says nothing to a message for the team', async () => {
    const h = await harness({ socket: true });
    await h.bind('*', h.support, 'mentions');
    const waiting = 'Someone from the team will join you here.';
    const settings = { chatbotId: h.support, handoff: { enabled: true, platform: null, waitingMessage: waiting } };
    expect((await call('POST', `${h.app.baseUrl}/update-chatbot-settings`, h.app.apiKey, settings)).status).toBe(202);
    const thread = h.slack.openAssistantThread(ALICE);
    const ask = (text: string) =>
      push(h, assistantMessageEvent(h.slack.userMessage({ channel: thread.channel, user: ALICE, text, thread_ts: thread.threadTs }), thread));
    await ask('can I talk to a person?');
    await ask('Hello?');
    expect(texts(h, thread)).toEqual([waiting]);
    // Posting the waiting message cleared the first status; the adapter cleared the second.
    expect(h.slack.assistantThread(thread.channel, thread.threadTs)?.statuses).toEqual([THINKING_STATUS, '', THINKING_STATUS, '']);
  });

  it('without a workspace default says how to set one, at the start and on a question, and asks nothing', async () => {
    const h = await harness({ socket: true });
    await h.bind(MENTION_CHANNEL, h.support, 'all');
    const thread = h.slack.openAssistantThread(BOB);
    await push(h, assistantThreadEvent('assistant_thread_started', thread, MENTION_CHANNEL));
    const question = h.slack.userMessage({ channel: thread.channel, user: BOB, text: 'Hello?', thread_ts: thread.threadTs });
    await push(h, assistantMessageEvent(question, thread));

    const hint = escapeText(noDefaultText('/chatbot'));
    expect(texts(h, thread)).toEqual([hint, hint]);
    expect(hint).toContain('/chatbot use &lt;chatbotId&gt; default');
    expect(h.asked).toEqual([]);
    expect(h.slack.callsTo('assistant.threads.setStatus')).toEqual([]);
    expect(h.slack.callsTo('assistant.threads.setSuggestedPrompts')).toEqual([]);
  });

  it('answers thread replies in an ordinary DM though Slack refuses the status there, warning once', async () => {
    const h = await harness({ socket: true });
    await h.bind('*', h.support, 'mentions');
    const top = h.slack.userMessage({ channel: ALICE_DM, user: ALICE, text: 'Hi' });
    await push(h, messageEvent(top, 'im'));
    for (const text of ['Still there?', 'Hello?']) {
      const reply = h.slack.userMessage({ channel: ALICE_DM, user: ALICE, text, thread_ts: top.ts });
      await push(h, messageEvent(reply, 'im'));
    }

    expect(h.slack.botReplies(ALICE_DM, top.ts).map((m) => m.text)).toEqual(['Echo: Hi', 'Echo: Still there?', 'Echo: Hello?']);
    expect(h.slack.callsTo('assistant.threads.setStatus').map((c) => c.error)).toEqual([
      'invalid_thread_ts',
      'invalid_thread_ts',
    ]);
    const refusals = h.logs.filter((line) => line.msg === 'could not set the status of a Slack assistant thread');
    expect(refusals.map((line) => line.level)).toEqual([40, 20]);
  });

  it('the fake refuses assistant calls as Slack does: unknown thread, missing status, title or prompts', async () => {
    const h = await harness({ socket: true });
    const thread = h.slack.openAssistantThread(ALICE);
    const client = new webApi.WebClient(BOT_TOKEN, { slackApiUrl: h.slack.apiUrl, retryConfig: { retries: 0 } });
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: webApi.WebAPIPlatformError) => error.data.error,
      );
    const at = { channel_id: thread.channel, thread_ts: thread.threadTs };
    const prompt = { title: 'Hours?', message: 'What are your hours?' };

    expect(await refusal(client.assistant.threads.setStatus({ ...at, channel_id: '', status: 'x' }))).toBe('channel_not_found');
    expect(await refusal(client.assistant.threads.setStatus({ ...at, thread_ts: '1.000001', status: 'x' }))).toBe(
      'invalid_thread_ts',
    );
    expect(await refusal(client.apiCall('assistant.threads.setStatus', at))).toBe('invalid_arguments');
    expect(await refusal(client.assistant.threads.setTitle({ ...at, title: '' }))).toBe('invalid_arguments');
    expect(await refusal(client.assistant.threads.setSuggestedPrompts({ ...at, prompts: [] }))).toBe('invalid_arguments');
    expect(
      await refusal(client.assistant.threads.setSuggestedPrompts({ ...at, prompts: [prompt, prompt, prompt, prompt, prompt] })),
    ).toBe('invalid_arguments');
    expect(await refusal(client.assistant.threads.setSuggestedPrompts({ ...at, prompts: [{ ...prompt, message: '' }] }))).toBe(
      'invalid_arguments',
    );
    expect(h.slack.assistantThread(thread.channel, thread.threadTs)).toMatchObject({ status: '', title: '', prompts: [] });

    expect(await refusal(client.assistant.threads.setTitle({ ...at, title: 'Opening hours' }))).toBe('ok');
    expect(h.slack.messages.find((m) => m.ts === thread.threadTs)?.assistant_app_thread?.title).toBe('Opening hours');
  });
});

describe('Slack adapter: replies', () => {
  describe('native streaming', () => {
    const streamCalls = (h: Harness) => h.slack.calls.filter((c) => c.method.startsWith('chat.') && c.method !== 'chat.postMessage');

    it('streams a reply with chat.startStream, appendStream and stopStream, to the asker, never posting or editing', async () => {
      const h = await harness({ nativeStreaming: true, updateIntervalMs: 100 });
      await h.bind(MENTION_CHANNEL, h.support, 'mentions');
      const pieces = Array.from({ length: 8 }, (_, i) => `part${i} `);
      h.script({ pieces, delayMs: 40 });
      const question = await h.say(MENTION_CHANNEL, ALICE, `<@${BOT_USER}> Tell me <a> story & more`);

      const calls = streamCalls(h);
      expect(calls[0]).toMatchObject({
        method: 'chat.startStream',
        status: 200,
        args: { channel: MENTION_CHANNEL, thread_ts: question.ts, recipient_team_id: TEAM, recipient_user_id: ALICE },
      });
      expect(calls.filter((c) => c.method === 'chat.appendStream').length).toBeGreaterThanOrEqual(1);
      expect(calls.at(-1)?.method).toBe('chat.stopStream');
      expect(h.slack.callsTo('chat.postMessage')).toEqual([]);
      expect(h.slack.callsTo('chat.update')).toEqual([]);
      const [reply] = h.slack.botReplies(MENTION_CHANNEL, question.ts);
      expect(reply?.text).toBe(pieces.join('').trim());
      expect(reply?.streaming).toBe(false);
      expect(h.logs.some((log) => /refused native streaming/.test(log.msg))).toBe(false);
    });

    it('continues a long reply in a further stream, each message within the limit', async () => {
      const h = await harness({ nativeStreaming: true, updateIntervalMs: 50 });
      await h.bind(ALL_CHANNEL, h.support, 'all');
      const paragraph = `${'word '.repeat(199)}end.\n\n`;
      h.script({ pieces: Array.from({ length: 8 }, () => paragraph), delayMs: 10 });
      const question = await h.say(ALL_CHANNEL, ALICE, 'Write a lot');
      const replies = h.slack.botReplies(ALL_CHANNEL, question.ts);
      expect(replies.length).toBeGreaterThanOrEqual(2);
      for (const reply of replies) expect(reply.text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
      expect(replies.map((r) => r.text).join('\n\n')).toBe(paragraph.repeat(8).trim());
      expect(h.slack.callsTo('chat.startStream')).toHaveLength(replies.length);
      expect(h.slack.callsTo('chat.stopStream')).toHaveLength(replies.length);
    });

    it('falls back to posting and editing for a reply Slack refuses to stream, decides again for the next, and logs it once', async () => {
      const h = await harness({ nativeStreaming: true });
      await h.bind(ALL_CHANNEL, h.support, 'all');
      h.slack.failNext('chat.startStream', 'method_not_supported_for_channel_type', 1);
      const refused = await h.say(ALL_CHANNEL, ALICE, 'First?');
      h.slack.failNext('chat.startStream', 'not_allowed', 1);
      const refusedAgain = await h.say(ALL_CHANNEL, BOB, 'Second?');
      const streamed = await h.say(ALL_CHANNEL, ALICE, 'Third?');

      expect(h.slack.callsTo('chat.startStream').map((c) => c.error ?? 'ok')).toEqual([
        'method_not_supported_for_channel_type',
        'not_allowed',
        'ok',
      ]);
      expect(h.slack.callsTo('chat.postMessage').map((c) => c.args.thread_ts)).toEqual([refused.ts, refusedAgain.ts]);
      expect(h.slack.botReplies(ALL_CHANNEL, refused.ts).map((m) => [m.text, m.streaming])).toEqual([['Echo: First?', undefined]]);
      expect(h.slack.botReplies(ALL_CHANNEL, refusedAgain.ts).map((m) => m.text)).toEqual(['Echo: Second?']);
      expect(h.slack.botReplies(ALL_CHANNEL, streamed.ts).map((m) => [m.text, m.streaming])).toEqual([['Echo: Third?', false]]);
      expect(h.logs.filter((log) => /refused native streaming/.test(log.msg))).toHaveLength(1);
    });

    it('waits out a 429 on appendStream and completes the stream', async () => {
      const h = await harness({ nativeStreaming: true, updateIntervalMs: 50 });
      await h.bind(ALL_CHANNEL, h.support, 'all');
      h.script({ pieces: ['one ', 'two ', 'three'], delayMs: 80 });
      h.slack.rateLimit('chat.appendStream', 1);
      const question = await h.say(ALL_CHANNEL, ALICE, 'Count');
      const attempts = h.slack.callsTo('chat.appendStream');
      expect(attempts.map((c) => c.status).slice(0, 2)).toEqual([429, 200]);
      expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
      expect(h.slack.botReplies(ALL_CHANNEL, question.ts).map((m) => m.text)).toEqual(['one two three']);
    });
  });

  it('posts the first text, then edits it as the reply streams, no more often than the interval', async () => {
    const h = await harness({ updateIntervalMs: 150 });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const pieces = Array.from({ length: 14 }, (_, i) => `part${i} `);
    h.script({ pieces, delayMs: 50 });
    const message = await h.say(ALL_CHANNEL, ALICE, 'Tell me a long story');

    const edits = h.slack.calls.filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.update');
    expect(edits[0]?.method).toBe('chat.postMessage');
    const updates = edits.slice(1);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.every((c) => c.method === 'chat.update' && c.args.ts === h.slack.botReplies(ALL_CHANNEL, message.ts)[0]?.ts)).toBe(true);
    // Throttled: the progressive edits (all but the final one) are at least the interval apart.
    const times = edits.slice(0, -1).map((c) => c.at);
    // (Pieces arrive every 50 ms; a little under the interval allows for scheduling jitter.)
    for (let i = 1; i < times.length; i += 1) expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(120);
    // Each edit shows more of the reply, and the last shows all of it.
    const shown = edits.map((c) => c.args.text ?? '');
    for (let i = 1; i < shown.length; i += 1) expect((shown[i] as string).startsWith((shown[i - 1] as string).trim())).toBe(true);
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts).map((m) => m.text)).toEqual([pieces.join('').trim()]);
  });

  it('edits at most about once a second by default', async () => {
    const h = await harness({ updateIntervalMs: null });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.script({ pieces: Array.from({ length: 12 }, (_, i) => `w${i} `), delayMs: 100 });
    const sent = Date.now();
    const message = await h.say(ALL_CHANNEL, ALICE, 'Go slowly');
    const edits = h.slack.calls.filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.update');
    // About 1.2 s of streaming: the first text after a second, then the final edit (maybe one more
    // progressive edit if the machine is slow), never sooner than a second apart.
    expect(edits[0]?.method).toBe('chat.postMessage');
    expect((edits[0]?.at ?? 0) - sent).toBeGreaterThanOrEqual(1_000);
    expect(edits.slice(1).every((c) => c.method === 'chat.update')).toBe(true);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.length).toBeLessThanOrEqual(3);
    const progressive = edits.slice(0, -1).map((c) => c.at);
    for (let i = 1; i < progressive.length; i += 1) {
      expect((progressive[i] as number) - (progressive[i - 1] as number)).toBeGreaterThanOrEqual(950);
    }
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts)).toHaveLength(1);
  });

  it('splits a long reply into messages within Slack’s limit, closing and reopening a cut code block', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const paragraph = (i: number) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(20).trim()}.`;
    const code = ['```', ...Array.from({ length: 150 }, (_, i) => `const line${i} = ${i} < 10;`), '```'].join('\n');
    const reply = [...Array.from({ length: 8 }, (_, i) => paragraph(i)), code, paragraph(99)].join('\n\n');
    h.script({ pieces: [reply] });
    const message = await h.say(ALL_CHANNEL, ALICE, 'Everything, please');

    const parts = h.slack.botReplies(ALL_CHANNEL, message.ts).map((m) => m.text);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    for (const part of parts) expect(part.split('```').length % 2).toBe(1);
    const joined = parts.join('\n').replaceAll('```\n```\n', '');
    expect(joined.replace(/\s+/g, ' ')).toBe(escapeText(reply).replace(/\s+/g, ' '));
    // Every part is in the thread, and the assistant's turn reads back whole in a follow-up.
    await h.say(ALL_CHANNEL, ALICE, 'Thanks', { threadTs: message.ts });
    const history = h.asked.at(-1)?.messages ?? [];
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(history[1]?.content.replaceAll('```\n```\n', '').replace(/\s+/g, ' ')).toBe(reply.replace(/\s+/g, ' '));
  });

  describe('never lets a reply notify anyone or hide a link under a label', () => {
    // What a chatbot may say, or echo of a person's words: Slack's markup, to be shown as typed.
    const forged = [`Ask <!channel>, <!here> or <@${BOB}> `, 'at <https://evil.example/|your bank> & <#C0OTHER001>.'];
    const shown = escapeText(forged.join(''));

    for (const nativeStreaming of [true, false]) {
      it(nativeStreaming ? 'streamed natively' : 'posted and edited', async () => {
        const h = await harness({ nativeStreaming, updateIntervalMs: 50 });
        await h.bind(ALL_CHANNEL, h.support, 'all');
        h.script({ pieces: forged, delayMs: 60 });
        const question = await h.say(ALL_CHANNEL, ALICE, 'Who do I ask?');
        h.script(undefined);
        // A person's words, typed with the markup (Slack delivers them escaped), echoed by the chatbot.
        const typed = await h.say(ALL_CHANNEL, ALICE, escapeText('Hi <!everyone> see <https://evil.example/|this>'));

        const [reply] = h.slack.botReplies(ALL_CHANNEL, question.ts);
        const [echo] = h.slack.botReplies(ALL_CHANNEL, typed.ts);
        expect(reply?.text).toBe(shown);
        expect(echo?.text).toBe(escapeText('Echo: Hi <!everyone> see <https://evil.example/|this>'));
        // The answers end with their 👍/👎 buttons (edited: in blocks that hold the text too).
        expect(reply?.blocks?.some((block) => block.type === 'context_actions')).toBe(true);
        expect([reply, echo].flatMap((message) => (message ? slackTokens(message) : ['missing']))).toEqual([]);
      });
    }
  });

  it('shows a placeholder when the chatbot answers nothing', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.script({ pieces: [] });
    const message = await h.say(ALL_CHANNEL, ALICE, 'Say nothing');
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts).map((m) => m.text)).toEqual([EMPTY_REPLY]);
  });
});

describe('Slack adapter: faults', () => {
  it('waits out a 429 with Retry-After and still replies', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.slack.rateLimit('chat.postMessage', 1);
    const message = await h.say(ALL_CHANNEL, ALICE, 'Busy day?');
    const attempts = h.slack.callsTo('chat.postMessage');
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts).map((m) => m.text)).toEqual(['Echo: Busy day?']);
  });

  it('apologises in the thread when the hub is unreachable, logs it, and keeps going', async () => {
    const h = await harness({ hubUrl: 'http://127.0.0.1:9/api/v1' });
    const first = await h.say(MENTION_CHANNEL, ALICE, `<@${BOT_USER}> are you up?`);
    const second = await h.say(ALICE_DM, ALICE, 'Hello?');
    const quiet = await h.say(MENTION_CHANNEL, BOB, 'Not for the bot');
    expect(h.slack.botReplies(MENTION_CHANNEL, first.ts).map((m) => m.text)).toEqual([HUB_UNAVAILABLE]);
    expect(h.slack.botReplies(ALICE_DM, second.ts).map((m) => m.text)).toEqual([HUB_UNAVAILABLE]);
    expect(h.slack.botReplies(MENTION_CHANNEL, quiet.ts)).toEqual([]);
    expect(h.logs.filter((l) => l.level >= 50).map((l) => l.msg)).toContain('could not look up the binding of a Slack channel');
  });

  it('apologises in the thread when the hub fails to answer', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.script({ pieces: [], fail: true });
    const message = await h.say(ALL_CHANNEL, ALICE, 'Are you broken?');
    expect(h.slack.botReplies(ALL_CHANNEL, message.ts).map((m) => m.text)).toEqual([HUB_UNAVAILABLE]);
    expect(h.logs.filter((l) => l.level >= 50).map((l) => l.msg)).toContain('could not answer a message');
    // The next message is answered normally.
    h.script(undefined);
    const next = await h.say(ALL_CHANNEL, ALICE, 'And now?');
    expect(h.slack.botReplies(ALL_CHANNEL, next.ts).map((m) => m.text)).toEqual(['Echo: And now?']);
  });

  it('survives Slack refusing to post: logs it and answers the next message', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.slack.failNext('chat.postMessage', 'not_in_channel', 2);
    const refused = await h.say(ALL_CHANNEL, ALICE, 'Anyone?');
    expect(h.slack.callsTo('chat.postMessage').map((c) => c.error)).toEqual(['not_in_channel', 'not_in_channel']);
    expect(h.slack.botReplies(ALL_CHANNEL, refused.ts)).toEqual([]);
    expect(h.logs.filter((l) => l.level >= 50).map((l) => l.msg)).toContain('a Slack event or command failed');
    const next = await h.say(ALL_CHANNEL, ALICE, 'Now?');
    expect(h.slack.botReplies(ALL_CHANNEL, next.ts).map((m) => m.text)).toEqual(['Echo: Now?']);
  });

  it('answers when conversations.replies fails: the hub supplies the saved conversation', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const first = await h.say(ALL_CHANNEL, ALICE, 'One');
    h.slack.failNext('conversations.replies', 'missing_scope');
    await h.say(ALL_CHANNEL, ALICE, 'Two', { threadTs: first.ts });
    expect(h.slack.callsTo('conversations.replies').map((c) => c.error)).toEqual(['missing_scope']);
    expect(lastUser(h.asked.at(-1))).toBe('Two');
    expect(h.asked.at(-1)?.messages).toEqual([
      { role: 'user', content: 'One' },
      { role: 'assistant', content: 'Echo: One' },
      { role: 'user', content: 'Two' },
    ]);
    expect(h.logs.filter((l) => l.level === 40).map((l) => l.msg)).toContain(
      'conversations.replies failed; answering without the thread',
    );
    expect(h.slack.botReplies(ALL_CHANNEL, first.ts).map((m) => m.text)).toEqual(['Echo: One', 'Echo: Two']);
  });

  it('counts Web API failures that handlers catch, and the 429s they wait out, once each', async () => {
    const counted = async (kind: string) =>
      (await platformApiErrors.get()).values.find((v) => v.labels.platform === 'slack' && v.labels.kind === kind)?.value ?? 0;
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const first = await h.say(ALL_CHANNEL, ALICE, 'One');
    const before = { calls: h.slack.calls.length, error: await counted('error'), limited: await counted('rate_limited') };
    h.slack.failNext('conversations.replies', 'missing_scope');
    h.slack.rateLimit('chat.postMessage', 1);
    await h.say(ALL_CHANNEL, ALICE, 'Two', { threadTs: first.ts });
    expect(h.slack.botReplies(ALL_CHANNEL, first.ts).map((m) => m.text)).toEqual(['Echo: One', 'Echo: Two']);
    // Every refused call of this turn (the failed thread read, and the native stream this fake refuses).
    const calls = h.slack.calls.slice(before.calls);
    const failed = calls.filter((call) => call.error !== undefined && call.status !== 429);
    expect(failed.map((call) => call.method)).toContain('conversations.replies');
    expect(await counted('error')).toBe(before.error + failed.length);
    expect(await counted('rate_limited')).toBe(before.limited + calls.filter((call) => call.status === 429).length);
  });

});

describe('Slack adapter: the /chatbot command', () => {
  it('help answers anyone and list admins only, privately', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.sales, 'all');
    const help = await h.command('help', BOB);
    expect(help.response_type).toBe('ephemeral');
    for (const usage of ['help', 'list', 'use', 'settings', 'set', 'leads', 'digest']) {
      expect(help.text).toContain(`/chatbot ${usage}`);
    }
    expect((await h.command('', BOB)).text).toBe(help.text);

    expect((await h.command('list', BOB)).text).toBe(escapeText(refusal(WORDS, 'list')));
    const list = await h.command('list', ADMIN);
    expect(list.response_type).toBe('ephemeral');
    expect(list.text).toContain(`Support bot \`${h.support}\``);
    expect(list.text).toMatch(new RegExp(`Sales bot \`${h.sales}\`.*in this channel`));
    expect((await h.command('dance', BOB)).text).toContain('/chatbot help');
    // Slack takes no commands in threads: resolve points at the request's button, not at a thread.
    expect((await h.command('resolve', BOB)).text).toBe(RESOLVE_WITH_BUTTON);
  });

  it('use binds the channel (mode and workspace default) for admins, owners and listed users only', async () => {
    const h = await harness();
    const resolve = (channelId: string) =>
      h.hub.resolveBinding({ platform: 'slack', workspaceId: TEAM, channelId }).catch(() => undefined);

    expect((await h.command(`use ${h.sales} all`, BOB)).text).toBe(escapeText(refusal(WORDS, 'use')));
    expect(await resolve(MENTION_CHANNEL)).toBeUndefined();

    const used = await h.command(`use ${h.sales} all`, ADMIN);
    expect(used.response_type).toBe('ephemeral');
    expect(used.text).toMatch(/Sales bot.*every message.*this channel/);
    expect(await resolve(MENTION_CHANNEL)).toMatchObject({ chatbotId: h.sales, mode: 'all' });

    await h.command(`use ${h.support}`, OWNER);
    expect(await resolve(MENTION_CHANNEL)).toMatchObject({ chatbotId: h.support, mode: 'mentions' });

    await h.command(`use ${h.sales} default`, LISTED_ADMIN, OTHER_CHANNEL);
    expect(await resolve('C0ANYWHERE')).toMatchObject({ chatbotId: h.sales, channelId: '*' });

    const unknown = await h.command('use nosuchbot', ADMIN);
    expect(unknown.text).toContain('nosuchbot');
    expect(unknown.text).not.toBe(COMMAND_FAILED);

    // The binding takes effect: the channel now answers every message with the chatbot.
    await h.command(`use ${h.sales} all`, ADMIN);
    const message = await h.say(MENTION_CHANNEL, BOB, 'What is on offer?');
    expect(h.slack.botReplies(MENTION_CHANNEL, message.ts).map((m) => m.text)).toEqual(['Echo: What is on offer?']);
    expect(h.asked.at(-1)?.chatbotName).toBe('Sales bot');
  });

  it('use refuses, binding nothing, where the bot never sees a message: a channel it is not in, a DM between people', async () => {
    // Found binding a channel the bot had not been invited to: "now answers every message" was
    // said, and no message there ever reached it.
    const h = await harness();
    const PRIVATE_CHANNEL = 'C0PRIVATE1';
    const PEOPLE_DM = 'D0ALICEBOB';
    const GROUP_DM = 'C0GROUPDM1';
    const bindings = (channelId: string) => h.hub.listBindings({ platform: 'slack', workspaceId: TEAM, channelId });
    for (const [channel, kind] of [[MENTION_CHANNEL, 'public'], [PRIVATE_CHANNEL, 'private']] as const) {
      h.slack.botNotIn(channel, kind);
      const refused = await h.command(`use ${h.sales} all`, ADMIN, channel, kind === 'private' ? 'privategroup' : 'general');
      expect(refused.text).toBe(escapeText(notInChannelText('answer', 'switchboard', '/chatbot')));
      expect(await bindings(channel)).toEqual([]);
    }
    expect(notInChannelText('answer', 'switchboard', '/chatbot')).toContain('`/invite @switchboard`, then run `/chatbot use` again');
    // A DM or group DM between people takes no app: no /invite, and a sentence that fits.
    for (const [channel, name] of [[PEOPLE_DM, 'directmessage'], [GROUP_DM, 'mpdm-alice--bob--ada-1']] as const) {
      h.slack.botNotIn(channel, 'private');
      const refused = await h.command(`use ${h.sales}`, ADMIN, channel, name);
      expect(refused.text).toBe(escapeText(betweenPeopleText('answer', '/chatbot')));
      expect(refused.text).not.toContain('/invite');
      expect(await bindings(channel)).toEqual([]);
    }
    // The workspace default is not this channel's; the asker's DM with the bot is the bot's own.
    expect((await h.command(`use ${h.sales} default`, ADMIN, MENTION_CHANNEL)).text).toBe('Sales bot now answers mentions and direct messages across this workspace (its default).');
    expect((await h.command(`use ${h.support} all`, ADMIN, ALICE_DM)).text).toBe('Support bot now answers every message in this channel.');
    expect(await bindings(ALICE_DM)).toMatchObject([{ chatbotId: h.support, mode: 'all' }]);
  });

  it('settings shows and set changes the bound chatbot, for admins only, with readable refusals', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    // Members may be customers: the instructions are not theirs to read.
    expect((await h.command('settings', BOB)).text).toBe(escapeText(refusal(WORDS, 'settings')));
    const settings = await h.command('settings', ADMIN);
    expect(settings.text).toContain(`Support bot \`${h.support}\``);
    expect(settings.text).toContain('model: auto');
    expect(settings.text).toContain('visibility: private');

    expect((await h.command('set temp 0.5', BOB)).text).toBe(escapeText(refusal(WORDS, 'set')));

    await h.command('set instructions Answer in one short sentence & be kind.', ADMIN);
    await h.command('set model vendor1-5-mini', ADMIN);
    await h.command('set visibility public', ADMIN);
    await h.command('set temp 0.4', ADMIN);
    await h.command('set initialMessages Hi there! | How can I help?', ADMIN);
    await h.command('set suggestedMessages Opening hours | Returns | Shipping', ADMIN);
    await h.command('set ipLimit 7', ADMIN);
    await h.command('set ipLimitTimeframe 60', ADMIN);
    await h.command('set ipLimitMessage Slow down, please.', ADMIN);
    const renamed = await h.command('set name Helpdesk', ADMIN);
    expect(renamed.text).toContain('Helpdesk');

    const stored = await h.app.store.chatbots.find(h.app.accountId, h.support);
    expect(stored?.name).toBe('Helpdesk');
    expect(stored?.settings).toMatchObject({
      instructions: 'Answer in one short sentence & be kind.',
      model: 'vendor1-5-mini',
      visibility: 'public',
      temp: 0.4,
      initialMessages: ['Hi there!', 'How can I help?'],
      suggestedMessages: ['Opening hours', 'Returns', 'Shipping'],
      ipLimit: 7,
      ipLimitTimeframe: 60,
      ipLimitMessage: 'Slow down, please.',
    });

    // Values the command or the hub refuse come back as sentences; nothing changes.
    expect((await h.command('set temp 7', ADMIN)).text).toMatch(/temp.*0 to 1/);
    expect((await h.command('set ipLimit many', ADMIN)).text).toContain('ipLimit takes a whole number');
    expect((await h.command('set colour red', ADMIN)).text).toContain('`colour` is not a setting');
    const badModel = await h.command('set model vendor0-imaginary', ADMIN);
    expect(badModel.text).not.toBe(COMMAND_FAILED);
    expect(badModel.text).toMatch(/isn't valid|refused/);
    expect((await h.app.store.chatbots.find(h.app.accountId, h.support))?.settings.model).toBe('vendor1-5-mini');

    // Without a binding there is nothing to change.
    expect((await h.command('settings', ADMIN, OTHER_CHANNEL)).text).toBe(escapeText(notBoundText('/chatbot')));
  });

  it('leads lists a few inline and sends many as a CSV file in a direct message', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const addLead = (i: number) =>
      call('POST', `${h.app.baseUrl}/chatbots/${h.support}/leads`, h.app.apiKey, {
        name: i === 0 ? '=HYPERLINK("http://evil")' : `Lead ${i}`,
        email: `lead${i}@example.com`,
        phone: `+47 555 00 ${String(i).padStart(3, '0')}`,
      });
    for (let i = 0; i < 3; i += 1) expect((await addLead(i)).status).toBe(200);

    expect((await h.command('leads', BOB)).text).toBe(escapeText(refusal(WORDS, 'leads')));
    const few = await h.command('leads', ADMIN);
    expect(few.response_type).toBe('ephemeral');
    expect(few.text).toContain('3 leads');
    expect(few.text).toContain('lead2@example.com');
    expect(h.slack.uploads).toEqual([]);

    for (let i = 3; i < 12; i += 1) await addLead(i);
    const many = await h.command('leads', ADMIN);
    expect(many.text).toContain('12 leads');
    expect(many.text).toContain('direct message');
    expect(many.text).not.toContain('lead5@example.com');
    expect(h.slack.uploads).toHaveLength(1);
    const [upload] = h.slack.uploads;
    expect(upload?.shared?.channelId).toBe(`D${ADMIN.slice(1)}`);
    expect(upload?.filename).toMatch(/\.csv$/);
    const rows = (upload?.content ?? '').trim().split('\r\n');
    expect(rows[0]).toBe('id,name,email,phone,created_at');
    expect(rows).toHaveLength(13);
    expect(upload?.content).toContain('lead11@example.com');
    expect(upload?.content).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(h.slack.callsTo('files.getUploadURLExternal')).toHaveLength(1);
    expect(h.slack.callsTo('files.completeUploadExternal')).toHaveLength(1);

    const today = new Date().toISOString().slice(0, 10);
    expect((await h.command(`leads 2000-01-01 2000-12-31`, ADMIN)).text).toContain('no leads');
    expect((await h.command(`leads ${today} ${today}`, ADMIN)).text).toContain('12 leads');
    expect((await h.command('leads yesterday', ADMIN)).text).toContain('YYYY-MM-DD');
  });

  it('digest on and off subscribe and unsubscribe this channel, for admins only', async () => {
    const h = await harness();
    h.slack.privateChannel(MENTION_CHANNEL);
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const digests = () => h.hub.listDigests({ platform: 'slack', workspaceId: TEAM, channelId: MENTION_CHANNEL });

    expect((await h.command('digest on', BOB)).text).toBe(escapeText(refusal(WORDS, 'digest')));
    expect(await digests()).toEqual([]);

    const on = await h.command('digest on 08:30 Europe/Oslo', ADMIN);
    expect(on.text).toContain('08:30');
    expect(await digests()).toMatchObject([{ chatbotId: h.support, time: '08:30', timezone: 'Europe/Oslo' }]);

    await h.command('digest on', ADMIN);
    expect(await digests()).toMatchObject([{ time: '09:00', timezone: 'UTC' }]);

    // A zone without a time keeps the default time (it was read as a time, and refused).
    expect((await h.command('digest on America/New_York', ADMIN)).text).toBe("Every day at 09:00 (America/New_York) I'll post the new leads of Support bot here.");
    expect(await digests()).toMatchObject([{ time: '09:00', timezone: 'America/New_York' }]);

    expect((await h.command('digest on 25:00', ADMIN)).text).toContain('HH:MM');
    expect((await h.command('digest on 10:00 Mars/Olympus', ADMIN)).text).toContain('time zone');

    const off = await h.command('digest off', ADMIN);
    expect(off.text).toBe('The daily lead digest of Support bot is off for this channel.');
    expect(await digests()).toEqual([]);
    expect((await h.command('digest off', ADMIN)).text).toBe('No lead digest was on for this channel.');
  });

  it('digest on keeps the owner\'s postWhenEmpty; off stops every digest posted in the channel, as on Discord', async () => {
    // Found after the console set a digest to post on quiet days: `digest on 10:00` to move it
    // turned that off. And once the channel was bound to another chatbot, `digest off` said none
    // was on while the first chatbot's went on posting there every day.
    const h = await harness();
    h.slack.privateChannel(MENTION_CHANNEL);
    const where = { platform: 'slack' as const, workspaceId: TEAM, channelId: MENTION_CHANNEL };
    await h.hub.subscribeDigest({ chatbotId: h.support, ...where, time: '09:00', timezone: 'UTC', postWhenEmpty: true });
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    await h.command('digest on 10:00', ADMIN);
    expect(await h.hub.listDigests(where)).toMatchObject([{ chatbotId: h.support, time: '10:00', postWhenEmpty: true }]);

    await h.bind(MENTION_CHANNEL, h.sales, 'mentions');
    await h.command('digest on', ADMIN);
    expect(await h.hub.listDigests({ ...where, chatbotId: h.sales })).toMatchObject([{ postWhenEmpty: false }]);
    expect((await h.command('digest off', ADMIN)).text).toBe('The daily lead digests of Support bot and Sales bot are off for this channel.');
    expect(await h.hub.listDigests(where)).toEqual([]);

    // Unbound, the channel's digest is still the channel's to stop.
    await h.hub.subscribeDigest({ chatbotId: h.support, ...where, time: '09:00', timezone: 'UTC', postWhenEmpty: false });
    await h.hub.unbind((await h.hub.listBindings(where))[0]?.id as string);
    expect((await h.command('digest off', ADMIN)).text).toBe('The daily lead digest of Support bot is off for this channel.');
    expect(await h.hub.listDigests(where)).toEqual([]);
  });

  it('digest on in a public channel says everyone in the workspace will read the leads there', async () => {
    // Found on Discord first: in a channel the whole workspace reads, nothing said that every
    // lead's email and phone would be posted for all of them.
    const h = await harness();
    const PRIVATE_CHANNEL = 'C0PRIVATE1';
    h.slack.privateChannel(PRIVATE_CHANNEL);
    for (const channel of [MENTION_CHANNEL, PRIVATE_CHANNEL, ALICE_DM]) await h.bind(channel, h.support, 'mentions');
    expect((await h.command('digest on', ADMIN, MENTION_CHANNEL)).text).toBe(
      escapeText(`Every day at 09:00 (UTC) I'll post the new leads of Support bot here. ${everyoneSeesDigest(WORDS)}`),
    );
    expect((await h.command('digest on', ADMIN, PRIVATE_CHANNEL)).text).toBe("Every day at 09:00 (UTC) I'll post the new leads of Support bot here.");
    expect((await h.command('digest on', ADMIN, ALICE_DM)).text).toBe("Every day at 09:00 (UTC) I'll post the new leads of Support bot here.");
  });

  it('digest on in a DM or group DM between people says it takes no app, rather than to /invite one', async () => {
    const h = await harness();
    for (const [channel, name] of [['D0ALICEBOB', 'directmessage'], ['C0GROUPDM1', 'mpdm-alice--bob--ada-1']] as const) {
      h.slack.botNotIn(channel, 'private');
      await h.bind(channel, h.support, 'mentions');
      const refused = await h.command('digest on', ADMIN, channel, name);
      expect(refused.text).toBe(escapeText(betweenPeopleText('digest', '/chatbot')));
      expect(refused.text).not.toContain('/invite');
      expect(await h.hub.listDigests({ platform: 'slack', workspaceId: TEAM, channelId: channel })).toEqual([]);
    }
  });

  it('digest on refuses, changing nothing, in a channel the bot is not in, saying how to invite it', async () => {
    const h = await harness();
    const PRIVATE_CHANNEL = 'C0PRIVATE1';
    const FLAKY_CHANNEL = 'C0FLAKY001';
    const refusal = escapeText(notInChannelText('digest', 'switchboard', '/chatbot'));
    const digests = (channelId: string) => h.hub.listDigests({ platform: 'slack', workspaceId: TEAM, channelId });
    for (const [channel, kind] of [[MENTION_CHANNEL, 'public'], [PRIVATE_CHANNEL, 'private']] as const) {
      await h.bind(channel, h.support, 'mentions');
      h.slack.botNotIn(channel, kind);
      expect((await h.command('digest on 08:30 Europe/Oslo', ADMIN, channel)).text).toBe(refusal);
      expect(await digests(channel)).toEqual([]);
    }
    expect(refusal).toContain('`/invite @switchboard`');
    // Where the bot is, and in the asker's direct message with it, digests are taken.
    await h.bind(ALL_CHANNEL, h.support, 'all');
    expect((await h.command('digest on', ADMIN, ALL_CHANNEL)).text).toContain("I'll post the new leads");
    await h.bind(ALICE_DM, h.support, 'all');
    expect((await h.command('digest on', ADMIN, ALICE_DM)).text).toContain("I'll post the new leads");
    expect((await digests(ALL_CHANNEL)).length + (await digests(ALICE_DM)).length).toBe(2);
    // When Slack cannot say (an install without the new scopes), the digest is taken, the doubt
    // logged, and the admin told to reinstall the app.
    await h.bind(OTHER_CHANNEL, h.support, 'mentions');
    h.slack.failNext('conversations.info', 'missing_scope');
    const unchecked = (await h.command('digest on', ADMIN, OTHER_CHANNEL)).text;
    expect(unchecked).toBe(escapeText(`Every day at 09:00 (UTC) I'll post the new leads of Support bot here. ${missingScopesText('digest', 'switchboard')}`));
    expect(unchecked).toContain('Reinstall the app');
    // Nor can it tell whether the channel is public: the leads' caution is given as for one.
    expect(unchecked).toContain("they can read the leads' names, emails and phones too");
    expect(await digests(OTHER_CHANNEL)).toMatchObject([{ time: '09:00', timezone: 'UTC' }]);
    expect(h.logs.some((log) => /could not tell whether the bot is in a channel/.test(log.msg))).toBe(true);
    // Another failure to check (Slack unavailable a moment) takes the digest as before.
    await h.bind(FLAKY_CHANNEL, h.support, 'mentions');
    h.slack.failNext('conversations.info', 'internal_error');
    expect((await h.command('digest on', ADMIN, FLAKY_CHANNEL)).text).toBe("Every day at 09:00 (UTC) I'll post the new leads of Support bot here.");
  });
});

describe('Slack adapter: feedback', () => {
  type Saved = { id: string; role: string; content: string; feedback?: string; kind?: string };
  const savedMessages = async (h: Harness, chatbotId = h.support): Promise<Saved[]> => {
    const { body } = await call('GET', `${h.app.baseUrl}/get-conversations?chatbotId=${chatbotId}`, h.app.apiKey);
    return (body as { data: { messages: Saved[] }[] }).data.flatMap((conversation) => conversation.messages);
  };
  /** Clicks a feedback button of a bot message, delivered as Slack posts interactions (a signed form with `payload`). */
  const click = async (h: Harness, message: SlackMessageRecord | undefined, user: string, button: 'positive' | 'negative') => {
    if (!message) throw new Error('no message to click');
    const payload = h.slack.click(message, user, FEEDBACK_ACTION_ID, button);
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const response = await deliver(h.eventsUrl, body, 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
    await h.adapter.idle();
  };
  const feedbackElements = (message: SlackMessageRecord | undefined) =>
    (message?.blocks ?? []).filter((block) => block.type === 'context_actions').flatMap((block) => block.elements as { type: string }[]);

  it('ends a streamed answer with 👍/👎; a click is recorded on that message, a later one replaces it, and only the clicker is told', async () => {
    const h = await harness({ nativeStreaming: true });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const question = await h.say(ALL_CHANNEL, ALICE, 'When do you open?');
    const [reply] = h.slack.botReplies(ALL_CHANNEL, question.ts);
    expect(reply?.text).toBe('Echo: When do you open?');
    // The buttons come with chat.stopStream, rendered below the streamed text.
    expect(JSON.parse(h.slack.callsTo('chat.stopStream')[0]?.args.blocks ?? '[]')).toHaveLength(1);
    expect(feedbackElements(reply).map((element) => element.type)).toEqual(['feedback_buttons']);
    expect(h.slack.callsTo('chat.update')).toEqual([]);

    await click(h, reply, ALICE, 'positive');
    const answer = (await savedMessages(h)).find((message) => message.role === 'assistant');
    expect(answer).toMatchObject({ content: 'Echo: When do you open?', feedback: 'up' });
    expect((await savedMessages(h)).filter((message) => 'feedback' in message)).toHaveLength(1);
    expect(h.slack.ephemerals).toEqual([
      { channel: ALL_CHANNEL, user: ALICE, text: feedbackRecorded('up'), thread_ts: question.ts, ts: expect.any(String) },
    ]);

    await click(h, reply, BOB, 'negative');
    expect((await savedMessages(h)).find((message) => message.id === answer?.id)?.feedback).toBe('down');
    expect(h.slack.ephemerals.map(({ user, text }) => [user, text])).toEqual([
      [ALICE, feedbackRecorded('up')],
      [BOB, feedbackRecorded('down')],
    ]);
    // Nothing was posted for everyone to see.
    expect(h.slack.botReplies(ALL_CHANNEL, question.ts)).toHaveLength(1);
  });

  it('puts the buttons on the last message of an edited (fallback) reply, as a Markdown block with the text', async () => {
    const h = await harness({ updateIntervalMs: 50 });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const paragraph = `${'word '.repeat(199)}end.\n\n`;
    h.script({ pieces: [...Array.from({ length: 4 }, () => paragraph), 'Last <b> & done.'], delayMs: 10 });
    const question = await h.say(ALL_CHANNEL, ALICE, 'Write a lot');
    const replies = h.slack.botReplies(ALL_CHANNEL, question.ts);
    expect(replies.length).toBeGreaterThanOrEqual(2);
    expect(replies.slice(0, -1).every((reply) => reply.blocks === undefined)).toBe(true);
    const last = replies.at(-1);
    expect(last?.blocks?.map((block) => block.type)).toEqual(['markdown', 'context_actions']);
    // Slack shows the blocks instead of the text: the Markdown block holds the text, escaped alike.
    expect(last?.blocks?.[0]?.text).toBe(last?.text);
    expect(String(last?.blocks?.[0]?.text).endsWith(escapeText('Last <b> & done.'))).toBe(true);

    await click(h, last, ALICE, 'negative');
    expect((await savedMessages(h)).find((message) => message.role === 'assistant')?.feedback).toBe('down');
    expect(h.slack.ephemerals.map(({ user, text }) => [user, text])).toEqual([[ALICE, feedbackRecorded('down')]]);
  });

  it('keeps an answer without its buttons when Slack refuses them', async () => {
    const h = await harness({ nativeStreaming: true });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.slack.failNext('chat.stopStream', 'invalid_blocks');
    const streamed = await h.say(ALL_CHANNEL, ALICE, 'Streamed?');
    h.slack.failNext('chat.startStream', 'not_allowed');
    h.slack.failNext('chat.postMessage', 'invalid_blocks');
    const edited = await h.say(ALL_CHANNEL, ALICE, 'Edited?');

    expect(h.slack.callsTo('chat.stopStream').map((c) => [c.error ?? 'ok', 'blocks' in c.args])).toEqual([
      ['invalid_blocks', true],
      ['ok', false],
    ]);
    expect(h.slack.callsTo('chat.postMessage').map((c) => [c.error ?? 'ok', 'blocks' in c.args])).toEqual([
      ['invalid_blocks', true],
      ['ok', false],
    ]);
    for (const [question, text] of [[streamed, 'Echo: Streamed?'], [edited, 'Echo: Edited?']] as const) {
      expect(h.slack.botReplies(ALL_CHANNEL, question.ts).map((reply) => [reply.text, reply.blocks])).toEqual([[text, undefined]]);
    }
  });

  it('offers no buttons under the waiting message of a handoff, which is no answer; an answer still gets them', async () => {
    const h = await harness({ nativeStreaming: true });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const waitingMessage = 'Someone from the team will join you here.';
    const handoff = { enabled: true, platform: 'slack', workspaceId: TEAM, channelId: OTHER_CHANNEL, waitingMessage };
    expect((await call('POST', `${h.app.baseUrl}/update-chatbot-settings`, h.app.apiKey, { chatbotId: h.support, handoff })).status).toBe(202);

    const question = await h.say(ALL_CHANNEL, ALICE, 'When do you open?');
    const [answer] = h.slack.botReplies(ALL_CHANNEL, question.ts);
    expect(feedbackElements(answer).map((element) => element.type)).toEqual(['feedback_buttons']);

    const request = await h.say(ALL_CHANNEL, BOB, 'Can I talk to a person?');
    expect(h.slack.botReplies(ALL_CHANNEL, request.ts).map((reply) => [reply.text, reply.blocks])).toEqual([[waitingMessage, undefined]]);
    // The stream of the waiting message stopped without buttons; the answer's with them.
    expect(h.slack.callsTo('chat.stopStream').map((c) => 'blocks' in c.args)).toEqual([true, false]);
    const saved = (await savedMessages(h)).filter((message) => message.role === 'assistant');
    expect(saved.map((message) => [message.content, message.kind]).sort()).toEqual([
      ['Echo: When do you open?', undefined],
      [waitingMessage, 'handoff'],
    ]);
  });

  it('offers no buttons under an apology, and tells a clicker when the answer is gone', async () => {
    const h = await harness();
    await h.bind(ALL_CHANNEL, h.support, 'all');
    h.script({ pieces: [], fail: true });
    const failed = await h.say(ALL_CHANNEL, ALICE, 'Anyone there?');
    expect(h.slack.botReplies(ALL_CHANNEL, failed.ts).map((reply) => [reply.text, reply.blocks])).toEqual([[HUB_UNAVAILABLE, undefined]]);

    h.script(undefined);
    const question = await h.say(ALL_CHANNEL, ALICE, 'Still there?');
    const [reply] = h.slack.botReplies(ALL_CHANNEL, question.ts);
    expect(feedbackElements(reply)).toHaveLength(1);
    await call('DELETE', `${h.app.baseUrl}/delete-chatbot?chatbotId=${h.support}`, h.app.apiKey);
    await click(h, reply, ALICE, 'positive');
    expect(h.slack.ephemerals.map(({ user, text }) => [user, text])).toEqual([[ALICE, FEEDBACK_GONE]]);
  });

  it('takes clicks over Socket Mode too, acknowledging the envelope', async () => {
    const h = await harness({ socket: true });
    await h.bind(ALL_CHANNEL, h.support, 'all');
    const question = h.slack.userMessage({ channel: ALL_CHANNEL, user: ALICE, text: 'Over the socket?' });
    await h.acked(h.slack.pushEvent(eventEnvelope(messageEvent(question))));
    const [reply] = h.slack.botReplies(ALL_CHANNEL, question.ts);
    if (!reply) throw new Error('no reply');
    await h.acked(h.slack.pushInteractive(h.slack.click(reply, ALICE, FEEDBACK_ACTION_ID, 'positive')));
    await h.slack.waitFor(() => h.slack.ephemerals.length > 0);
    expect((await savedMessages(h)).find((message) => message.role === 'assistant')?.feedback).toBe('up');
    expect(h.slack.ephemerals.map(({ user, text }) => [user, text])).toEqual([[ALICE, feedbackRecorded('up')]]);
  });
});

describe('Slack adapter: unanswered questions', () => {
  const ask = (h: Harness, question: string) =>
    recordUnanswered(h.app.store, { id: h.support, accountId: h.app.accountId }, question, {
      conversationId: null,
      messageId: null,
      source: 'Slack',
      askedAt: new Date(),
    });
  const groups = async (h: Harness) => h.app.store.unanswered.list(h.support, {}, { page: 1, size: 10 });
  /** Sends an interaction payload as Slack posts it (a signed form with `payload`). */
  const interact = async (h: Harness, payload: Record<string, unknown>) => {
    const response = await deliver(h.eventsUrl, new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
    await h.adapter.idle();
  };
  /** The command's ephemeral reply as a message the admin can click in. */
  const listed = async (h: Harness, user = ADMIN) => {
    const reply = (await h.command('unanswered', user)) as { text: string; blocks?: SlackBlock[] };
    return { ...reply, message: { channel: MENTION_CHANNEL, ts: '1700000000.000100', text: reply.text, blocks: reply.blocks } as SlackMessageRecord };
  };

  it('never turns what strangers typed into Slack markup: the lead list, the questions and their modal', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const hostile = `<!channel> <@${BOB}> <https://evil.example/|your bank>`;
    await call('POST', `${h.app.baseUrl}/chatbots/${h.support}/leads`, h.app.apiKey, { name: hostile, email: 'guest@example.com' });
    await ask(h, `Why ${hostile}?`);
    const leads = await h.command('leads', ADMIN);
    expect(leads.text).toContain(escapeText(hostile));
    const { text, blocks, message } = await listed(h);
    expect(text).toContain(escapeText(hostile));
    await interact(h, h.slack.click(message, ADMIN, ANSWER_ACTION_ID));
    const modal = { text: '', blocks: h.slack.views[0]?.view.blocks as SlackBlock[] };
    expect(JSON.stringify(modal.blocks)).toContain(escapeText(hostile));
    expect([leads, { text, blocks }, modal].flatMap((shown) => slackTokens(shown))).toEqual([]);
  });

  it('lists the open questions, most asked first, each with an Answer button; whose modal resolves the question', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    for (const question of ['Do you sell <gift> cards?', 'Is there parking nearby?', 'Can I buy a gift card?']) await ask(h, question);
    const { text, blocks, message } = await listed(h);
    expect(text).toBe(
      escapeText('Questions Support bot could not answer, most asked first:\n1. Do you sell <gift> cards? (asked 2 times)\n2. Is there parking nearby? (asked once)'),
    );
    const buttons = (blocks ?? []).flatMap((block) => (block.accessory ? [block.accessory as { action_id: string; text: { text: string } }] : []));
    expect(buttons.map((button) => [button.action_id, button.text.text])).toEqual([
      [ANSWER_ACTION_ID, 'Answer'],
      [ANSWER_ACTION_ID, 'Answer'],
    ]);

    await interact(h, h.slack.click(message, ADMIN, ANSWER_ACTION_ID));
    expect(h.slack.views).toHaveLength(1);
    const [opened] = h.slack.views;
    if (!opened) throw new Error('no modal');
    expect(opened.view).toMatchObject({ type: 'modal', callback_id: ANSWER_VIEW_ID, title: { type: 'plain_text', text: 'Answer a question' } });
    expect(JSON.stringify(opened.view.blocks)).toContain(escapeText('Do you sell <gift> cards?'));

    await interact(h, h.slack.submitView(opened, ADMIN, { answer: { answer: 'Yes, at the counter.' } }));
    const [gift, parking] = await groups(h);
    expect([gift?.status, parking?.status]).toEqual(['resolved', 'open']);
    expect(h.slack.ephemerals.map(({ channel, user, text }) => [channel, user, text])).toEqual([[MENTION_CHANNEL, ADMIN, ANSWER_SAVED]]);
    expect((await listed(h)).text).toContain('1. Is there parking nearby?');
  });

  it('shows each question beside its own button when a question runs over several lines', async () => {
    // Found answering a customer's two-line question: its second line was shown beside the second
    // question's button, so the admin answered the wrong question.
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    for (const question of ['Hi there!\nDo you ship to Norway?', 'Hi there!\nDo you ship to Norway?', 'Is there parking nearby?']) await ask(h, question);
    const { blocks } = await listed(h);
    const beside = (blocks ?? []).flatMap((block) => {
      const accessory = block.accessory as { value: string } | undefined;
      const text = (block.text as { text: string } | undefined)?.text ?? '';
      return accessory ? [[text, (JSON.parse(accessory.value) as { question: string }).question]] : [];
    });
    expect(beside).toEqual([
      ['1. Hi there! Do you ship to Norway? (asked 2 times)', 'Hi there!\nDo you ship to Norway?'],
      ['2. Is there parking nearby? (asked once)', 'Is there parking nearby?'],
    ]);
  });

  it('lists a long pasted question with its button and opens its modal, cut to fit Slack\'s limits once encoded', async () => {
    // Quotes double in the button's JSON value (at most 2,000) and `<`, `>` grow fourfold as
    // entities in the modal's text (at most 3,000): a pasted snippet of 1,500 characters overran
    // both, and Slack refused the whole reply, so the admin saw no list at all.
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const pasted = `Why is this refused? ${'"<>"'.repeat(450)}`;
    await ask(h, pasted);
    const { blocks, message } = await listed(h);
    const accessory = blocks?.find((block) => block.accessory)?.accessory as { value: string } | undefined;
    if (!accessory) throw new Error('no Answer button');
    expect(accessory.value.length).toBeLessThanOrEqual(2_000);
    const carried = (JSON.parse(accessory.value) as { question: string }).question;
    expect(pasted.startsWith(carried.slice(0, -1))).toBe(true);

    await interact(h, h.slack.click(message, ADMIN, ANSWER_ACTION_ID));
    const [opened] = h.slack.views;
    if (!opened) throw new Error('no modal');
    const shown = (opened.view.blocks as SlackBlock[])[0]?.text as { text: string };
    expect(shown.text.length).toBeLessThanOrEqual(3_000);
    expect(shown.text.startsWith(`*${escapeText('Why is this refused? "<>"')}`)).toBe(true);
    await interact(h, h.slack.submitView(opened, ADMIN, { answer: { answer: 'It is not valid HTML.' } }));
    expect((await groups(h)).map((group) => group.status)).toEqual(['resolved']);
  });

  it('is for admins only, the command and the modal alike', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    await ask(h, 'Is there parking nearby?');
    expect((await listed(h, BOB)).text).toBe(escapeText(refusal({ command: '/chatbot', admins: SLACK_ADMINS, workspace: 'workspace' }, 'unanswered')));
    const { message } = await listed(h);
    await interact(h, h.slack.click(message, ADMIN, ANSWER_ACTION_ID));
    await interact(h, h.slack.submitView(h.slack.views[0] as OpenedView, BOB, { answer: { answer: 'Sure.' } }));
    expect((await groups(h))[0]?.status).toBe('open');
    expect(h.slack.ephemerals.map(({ user, text }) => [user, text])).toEqual([[BOB, escapeText(refusal({ command: '/chatbot', admins: SLACK_ADMINS, workspace: 'workspace' }, 'unanswered'))]]);
  });

  it('says that a full chatbot takes no answer, nor a website, rather than blaming quotas or asking to try again', async () => {
    // Found answering the Tallyho bot's open questions once its docs filled it: the modal said "try
    // again in a moment", and /chatbot learn that the message quota was used up.
    const h = await harness({ maxCharsPerChatbot: 'Our shop opens at nine.\n\nReturns are accepted within 30 days.'.length });
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    await ask(h, 'Is there parking nearby?');
    const { message } = await listed(h);
    await interact(h, h.slack.click(message, ADMIN, ANSWER_ACTION_ID));
    await interact(h, h.slack.submitView(h.slack.views[0] as OpenedView, ADMIN, { answer: { answer: 'Yes, on Quay Street.' } }));
    expect((await groups(h))[0]?.status).toBe('open');
    expect(h.slack.ephemerals.map(({ user, text }) => [user, text])).toEqual([[ADMIN, escapeText(CHATBOT_FULL)]]);

    expect((await h.command('learn https://help.example.com/')).text).toBe(escapeText(CHATBOT_FULL));
    expect((await h.hub.listSources(h.support)).map((source) => source.type)).toEqual(['text']);
  });

  it('says so when there is nothing to answer', async () => {
    const h = await harness();
    await h.bind(MENTION_CHANNEL, h.support, 'mentions');
    const reply = (await h.command('unanswered')) as { text: string; blocks?: unknown };
    expect(reply).toMatchObject({ text: 'Support bot has no unanswered questions.' });
    expect(reply.blocks).toBeUndefined();
  });
});
