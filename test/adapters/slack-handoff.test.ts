import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHandoffTimer } from '../../jobs/handoffs.js';
import { createHubClient, type HubClient } from '../../adapters/hub-client.js';
import { CLICK_FAILED, HANDOFF_CLOSED, REPLY_NOT_DELIVERED } from '../../adapters/slack/handoff.js';
import { RESOLVE_ACTION_ID, TAKE_ACTION_ID } from '../../adapters/slack/handoff-message.js';
import { createSlackAdapter, SLACK_EVENTS_PATH, type SlackAdapter } from '../../adapters/slack/index.js';
import { MESSAGE_LIMIT } from '../../adapters/slack/text.js';
import { HANDED_BACK } from '../../src/domain/handoff.js';
import {
  APP_TOKEN,
  BOT_TOKEN,
  BOT_USER,
  deliver,
  eventEnvelope,
  messageEvent,
  SIGNING_SECRET,
  startFakeSlack,
  TEAM,
  type FakeSlack,
  type SlackMessageRecord,
} from '../fakes/slack.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Human handoff on Slack end to end: a real hub (SQLite) hands a conversation off, the Slack
// adapter (Bolt, unmodified, over signed HTTP) posts its notices to fake Slack, and the team's
// clicks and thread replies come back as Slack delivers them.

const sqlite = storeTargets.find((target) => target.name === 'sqlite');
if (!sqlite) throw new Error('the SQLite store target is missing');

const ADA = 'U0ADA00001';
const GRACE = 'U0GRACE001';
const HANDOFF_CHANNEL = 'C0HANDOFF1';
/** Where customers talk to the chatbot. */
const CUSTOMERS = 'C0CUSTOMER';
const WAITING = 'Someone from the team will join you here.';
const OFFLINE = 'Nobody is in right now.';

type Author = { type: string; name: string };
type Message = { role: string; content: string; author?: Author };
type Conversation = { id: string; handoff?: { status: string; taken_by: string | null }; messages: Message[] };

type Harness = {
  app: TestApp;
  hub: HubClient;
  slack: FakeSlack;
  bot: string;
  adapters: SlackAdapter[];
  settings(handoff: Record<string, unknown>): Promise<void>;
  /** The person's message through the API (/chat); answers the reply's text. */
  chat(conversationId: string, content: string, contactId?: string): Promise<string>;
  conversation(id: string): Promise<Conversation | undefined>;
  /** The root messages the adapter posted in the handoff channel. */
  roots(): SlackMessageRecord[];
  /** Delivers an event to one instance (the first unless named; over Socket Mode, to all) and waits until it is handled. */
  event(event: Record<string, unknown>, instance?: number): Promise<void>;
  /** A team member's message in a thread, recorded in fake Slack and delivered. */
  reply(threadTs: string, user: string, text: string, channel?: string, instance?: number): Promise<SlackMessageRecord>;
  /** A click on a button of a message, delivered as Slack posts interactions (to the first instance unless named). */
  click(message: SlackMessageRecord, user: string, actionId: string, instance?: number): Promise<void>;
};

type HarnessOptions = {
  instances?: number;
  /** The adapters connect over Socket Mode, and events and clicks arrive as its envelopes. */
  socket?: boolean;
  /** The hub client of the instance at `index` (by default the hub's own address and key). */
  hubOf?: (app: TestApp, index: number) => HubClient;
};

async function harness({ instances = 1, socket = false, hubOf }: HarnessOptions = {}): Promise<Harness> {
  const app = await startApp(sqlite as NonNullable<typeof sqlite>);
  const hub = createHubClient(app.baseUrl, app.apiKey);
  const slack = await startFakeSlack();
  slack.addUser({ id: ADA, name: 'Ada', realName: 'Ada Lovelace', email: 'ada@example.com' });
  slack.addUser({ id: GRACE, name: 'Grace', realName: 'Grace Hopper' });
  const logger = pino({ level: 'silent' });

  const adapters: SlackAdapter[] = [];
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let index = 0; index < instances; index += 1) {
    const adapter = createSlackAdapter({
      config: {
        botToken: BOT_TOKEN,
        appToken: socket ? APP_TOKEN : undefined,
        signingSecret: socket ? undefined : SIGNING_SECRET,
        apiUrl: slack.apiUrl,
        adminUserIds: [],
        command: '/chatbot',
      },
      logger,
      updateIntervalMs: 100,
      noticePollMs: 50,
      retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 50 },
    });
    const listener = adapter.requestListener;
    if (listener) {
      const server = createServer(listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}${SLACK_EVENTS_PATH}`);
    }
    await adapter.start(hubOf?.(app, index) ?? hub);
    adapters.push(adapter);
  }
  onTestFinished(async () => {
    await Promise.all(adapters.map((adapter) => adapter.stop(1_000)));
    for (const server of servers) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    }
    await slack.close();
    await app.close();
  });
  /** Over Socket Mode: waits until the envelope is acknowledged and what it carried handled. */
  const acked = async (envelopeId: string) => {
    await slack.waitFor(() => slack.socket.acks.some((ack) => ack.envelope_id === envelopeId));
    await Promise.all(adapters.map((adapter) => adapter.idle()));
  };

  const bot = await createChatbotViaApi(app, 'Support bot');
  const h: Harness = {
    app,
    hub,
    slack,
    bot,
    adapters,
    async settings(handoff) {
      const { status } = await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, handoff });
      // The contract's 202 for settings saved.
      expect(status).toBe(202);
    },
    async chat(conversationId, content, contactId) {
      const { status, body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, {
        chatbotId: bot,
        conversationId,
        ...(contactId && { contactId }),
        messages: [{ role: 'user', content }],
      });
      expect(status).toBe(200);
      return (body as { text: string }).text;
    },
    async conversation(id) {
      const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${bot}`, app.apiKey);
      return (body as { data: Conversation[] }).data.find((item) => item.id === id);
    },
    roots: () => slack.messages.filter((m) => m.channel === HANDOFF_CHANNEL && !m.thread_ts && m.user === BOT_USER),
    async event(event, instance = 0) {
      if (socket) return acked(slack.pushEvent(eventEnvelope(event)));
      const response = await deliver(urls[instance] ?? '', JSON.stringify(eventEnvelope(event)), 'application/json');
      expect(response.status).toBe(200);
      await adapters[instance]?.idle();
    },
    async reply(threadTs, user, text, channel = HANDOFF_CHANNEL, instance = 0) {
      const message = slack.userMessage({ channel, user, text, thread_ts: threadTs });
      await h.event(messageEvent(message), instance);
      return message;
    },
    async click(message, user, actionId, instance = 0) {
      if (socket) return acked(slack.pushInteractive(slack.click(message, user, actionId)));
      const body = new URLSearchParams({ payload: JSON.stringify(slack.click(message, user, actionId)) }).toString();
      const response = await deliver(urls[instance] ?? '', body, 'application/x-www-form-urlencoded');
      expect(response.status).toBe(200);
      await adapters[instance]?.idle();
    },
  };
  await h.settings({
    enabled: true,
    platform: 'slack',
    workspaceId: TEAM,
    channelId: HANDOFF_CHANNEL,
    waitingMessage: WAITING,
    offlineMessage: OFFLINE,
  });
  return h;
}

/** Every text a message's blocks hold, in order. */
function blockTexts(message: SlackMessageRecord | undefined): string[] {
  const texts: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'text' && typeof item === 'string') texts.push(item);
        else walk(item);
      }
    }
  };
  walk(message?.blocks ?? []);
  return texts;
}

/** The action_ids of a message's buttons. */
const buttons = (message: SlackMessageRecord | undefined) =>
  (message?.blocks ?? [])
    .filter((block) => block.type === 'actions')
    .flatMap((block) => (block.elements as { action_id: string }[]).map((element) => element.action_id));

/** The adapter's messages in a thread (the root's replies), texts only. */
const threadTexts = (h: Harness, root: SlackMessageRecord) => h.slack.botReplies(HANDOFF_CHANNEL, root.ts).map((m) => m.text);

describe('Slack handoff', () => {
  it('runs the whole loop: request with transcript and buttons, Take, replies both ways, Resolve', async () => {
    const h = await harness();
    await h.hub.createContacts(h.bot, [{ external_id: 'visitor-1', name: 'Vera Visitor', email: 'vera@example.com' }]);
    expect(await h.chat('web-1', 'When do you open?', 'visitor-1')).toContain('nine');
    expect(await h.chat('web-1', 'can I talk to a person?', 'visitor-1')).toBe(WAITING);

    const root = await h.slack.waitFor(() => h.roots()[0]);
    const shown = blockTexts(root);
    expect(shown[0]).toBe('Support bot: someone asks for a person');
    expect(shown).toEqual(
      expect.arrayContaining(['*Chatbot*\nSupport bot', '*Source*\nAPI', '*Name*\nVera Visitor', '*Email*\nvera@example.com']),
    );
    expect(shown).toContain('*Person*\nWhen do you open?');
    expect(shown.some((text) => text.startsWith('*Support bot*\n') && text.includes('nine'))).toBe(true);
    expect(shown).toContain('*Person*\ncan I talk to a person?');
    expect(shown.some((text) => text.startsWith('⏳ Waiting'))).toBe(true);
    expect(buttons(root)).toEqual([TAKE_ACTION_ID, RESOLVE_ACTION_ID]);
    expect(root.text).toContain('Vera Visitor');

    await h.click(root, ADA, TAKE_ACTION_ID);
    expect((await h.conversation('web-1'))?.handoff).toMatchObject({ status: 'active', taken_by: 'Ada' });
    expect(blockTexts(root)).toContain('🙋 Taken by Ada. Replies in the thread reach the person.');
    expect(buttons(root)).toEqual([RESOLVE_ACTION_ID]);
    // The transcript stays as it was.
    expect(blockTexts(root)).toContain('*Person*\nWhen do you open?');

    await h.reply(root.ts, ADA, 'Hi Vera, Ada here. How can I help?');
    expect((await h.conversation('web-1'))?.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Hi Vera, Ada here. How can I help?',
      author: { type: 'human', name: 'Ada' },
    });

    expect(await h.chat('web-1', 'My order <#42> is late & lost')).toBe('');
    await h.slack.waitFor(() => threadTexts(h, root).includes('*Person:* My order &lt;#42&gt; is late &amp; lost'));

    await h.click(root, ADA, RESOLVE_ACTION_ID);
    const resolved = await h.conversation('web-1');
    expect(resolved?.handoff).toMatchObject({ status: 'resolved', taken_by: 'Ada' });
    expect(resolved?.messages.at(-1)).toMatchObject({ role: 'assistant', content: HANDED_BACK.en });
    expect(buttons(root)).toEqual([]);
    await h.slack.waitFor(() => threadTexts(h, root).some((text) => text.startsWith('✅ Resolved (Ada had it)')));
    expect(blockTexts(root)).toContain('✅ Resolved. Ada had it.');
    // Only the notices were posted in the thread: the chatbot never answered in it.
    expect(threadTexts(h, root)).toEqual([
      '*Person:* My order &lt;#42&gt; is late &amp; lost',
      expect.stringMatching(/^✅ Resolved \(Ada had it\)/),
    ]);

    // Closed: a later reply is not relayed, and its author is told so privately.
    const count = resolved?.messages.length;
    await h.reply(root.ts, ADA, 'One more thing');
    expect((await h.conversation('web-1'))?.messages).toHaveLength(count ?? 0);
    expect(h.slack.ephemerals).toEqual([expect.objectContaining({ user: ADA, thread_ts: root.ts, text: HANDOFF_CLOSED })]);
    expect(h.roots()).toHaveLength(1);
  });

  it('takes replies in a handoff thread before the chatbot, and leaves other threads to it', async () => {
    const h = await harness();
    // The chatbot answers everything in the handoff channel, mentions or not.
    await h.hub.bind({ platform: 'slack', workspaceId: TEAM, channelId: HANDOFF_CHANNEL, chatbotId: h.bot, mode: 'all' });
    await h.chat('web-2', 'I want a human');
    const root = await h.slack.waitFor(() => h.roots()[0]);

    // Another thread in the channel: answered by the chatbot as today, never relayed.
    const question = h.slack.userMessage({ channel: HANDOFF_CHANNEL, user: GRACE, text: 'When do you open?' });
    await h.event(messageEvent(question));
    expect(h.slack.botReplies(HANDOFF_CHANNEL, question.ts).map((m) => m.text)).toEqual([expect.stringContaining('nine')]);
    await h.reply(question.ts, GRACE, 'And do you take returns?');
    expect(h.slack.botReplies(HANDOFF_CHANNEL, question.ts)).toHaveLength(2);

    // In the handoff thread a mention is a reply too; the first reply takes the pending handoff.
    await h.reply(root.ts, GRACE, `<@${BOT_USER}> Grace here, I can help with that.`);
    const conversation = await h.conversation('web-2');
    expect(conversation?.handoff).toMatchObject({ status: 'active', taken_by: 'Grace' });
    expect(conversation?.messages.filter((m) => m.author)).toEqual([
      expect.objectContaining({ content: 'Grace here, I can help with that.', author: { type: 'human', name: 'Grace' } }),
    ]);
    expect(conversation?.messages.map((m) => m.content)).not.toContain('And do you take returns?');
    expect(blockTexts(root)).toContain('🙋 Taken by Grace. Replies in the thread reach the person.');
    expect(buttons(root)).toEqual([RESOLVE_ACTION_ID]);
    expect(threadTexts(h, root)).toEqual([]);
  });

  it("opens a new thread for a later request; the earlier one's buttons and replies reach nobody", async () => {
    const h = await harness();
    // Where the chatbot answers everything, it still stays out of the earlier thread.
    await h.hub.bind({ platform: 'slack', workspaceId: TEAM, channelId: HANDOFF_CHANNEL, chatbotId: h.bot, mode: 'all' });
    await h.chat('web-8', 'agent please');
    const earlier = await h.slack.waitFor(() => h.roots()[0]);
    const stale = structuredClone(earlier);
    await h.click(earlier, ADA, RESOLVE_ACTION_ID);
    await h.slack.waitFor(() => threadTexts(h, earlier).length === 1);
    expect(await h.chat('web-8', 'I want a human')).toBe(WAITING);
    const later = await h.slack.waitFor(() => h.roots()[1]);
    expect(buttons(later)).toEqual([TAKE_ACTION_ID, RESOLVE_ACTION_ID]);

    await h.click(stale, ADA, TAKE_ACTION_ID);
    await h.reply(earlier.ts, ADA, 'Still there?');
    const conversation = await h.conversation('web-8');
    expect(conversation?.handoff).toMatchObject({ status: 'pending', taken_by: null });
    expect(conversation?.messages.map((m) => m.content)).not.toContain('Still there?');
    expect(threadTexts(h, earlier)).toEqual([expect.stringMatching(/^✅ Resolved/)]);
    expect(h.slack.ephemerals.map((e) => [e.user, e.text, e.thread_ts])).toEqual([
      [ADA, HANDOFF_CLOSED, undefined],
      [ADA, HANDOFF_CLOSED, earlier.ts],
    ]);

    await h.reply(later.ts, ADA, 'Here now.');
    expect((await h.conversation('web-8'))?.messages.at(-1)).toMatchObject({ content: 'Here now.', author: { type: 'human', name: 'Ada' } });
  });

  it('relays a reply once and posts each notice once with two adapter instances', async () => {
    const h = await harness({ instances: 2 });
    await h.chat('web-3', 'agent please');
    const root = await h.slack.waitFor(() => h.roots()[0]);
    // The same reply reaches both instances (a redelivery to the other one, say).
    const reply = h.slack.userMessage({ channel: HANDOFF_CHANNEL, user: ADA, text: 'On it.', thread_ts: root.ts });
    await Promise.all([h.event(messageEvent(reply), 0), h.event(messageEvent(reply), 1)]);
    const relayed = (await h.conversation('web-3'))?.messages.filter((m) => m.content === 'On it.');
    expect(relayed).toHaveLength(1);

    expect(await h.chat('web-3', 'Thanks!')).toBe('');
    await h.slack.waitFor(() => threadTexts(h, root).length > 0);
    await h.hub.resolveHandoff(h.bot, 'web-3');
    await h.slack.waitFor(() => threadTexts(h, root).length === 2);
    expect(threadTexts(h, root)).toEqual(['*Person:* Thanks!', expect.stringMatching(/^✅ Resolved \(Ada had it\)/)]);
    expect(h.roots()).toHaveLength(1);
  });

  it('has each workspace’s process post only its own workspace’s requests and messages, one account with two Slack workspaces', async () => {
    const app = await startApp(sqlite as NonNullable<typeof sqlite>);
    const hub = createHubClient(app.baseUrl, app.apiKey);
    const adapters: SlackAdapter[] = [];
    const slacks: FakeSlack[] = [];
    onTestFinished(async () => {
      await Promise.all(adapters.map((adapter) => adapter.stop(1_000)));
      await Promise.all(slacks.map((slack) => slack.close()));
      await app.close();
    });
    /** A workspace with its own bot token, and a chatbot handing off to its channel. */
    const workspace = async (team: string, botToken: string, channel: string, chatbot: string) => {
      const slack = await startFakeSlack({ team, botToken });
      slacks.push(slack);
      const bot = await createChatbotViaApi(app, chatbot);
      const handoff = { enabled: true, platform: 'slack', workspaceId: team, channelId: channel, waitingMessage: WAITING };
      expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: bot, handoff })).status).toBe(202);
      return {
        slack,
        async chat(content: string) {
          const messages = [{ role: 'user', content }];
          const { body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, { chatbotId: bot, conversationId: `web-${team}`, messages });
          return (body as { text: string }).text;
        },
        /** Its Slack process: one adapter with this workspace's token. */
        async start() {
          const config = { botToken, appToken: undefined, signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl, adminUserIds: [], command: '/chatbot' };
          const adapter = createSlackAdapter({ config, logger: pino({ level: 'silent' }), noticePollMs: 50 });
          await adapter.start(hub);
          adapters.push(adapter);
        },
        /** What the adapter posted there: the channel, and the thread (none for a request). */
        posts: () => slack.callsTo('chat.postMessage').map((posted) => [posted.args.channel, posted.args.thread_ts]),
      };
    };
    const first = await workspace(TEAM, BOT_TOKEN, HANDOFF_CHANNEL, 'Support bot');
    const second = await workspace('T0TEAM0002', 'xoxb-0000000002-second-bot-token', 'C0HANDOFF2', 'Sales bot');

    // Both requests wait when the first workspace's process starts: it takes its own only.
    expect(await first.chat('agent please')).toBe(WAITING);
    expect(await second.chat('agent please')).toBe(WAITING);
    await first.start();
    await first.slack.waitFor(() => first.posts().length === 1);
    await second.start();
    await second.slack.waitFor(() => second.posts().length === 1);
    expect(await first.chat('Hello from one')).toBe('');
    expect(await second.chat('Hello from two')).toBe('');
    await first.slack.waitFor(() => first.posts().length === 2);
    await second.slack.waitFor(() => second.posts().length === 2);

    expect(first.posts()).toEqual([[HANDOFF_CHANNEL, undefined], [HANDOFF_CHANNEL, first.slack.messages[0]?.ts]]);
    expect(second.posts()).toEqual([['C0HANDOFF2', undefined], ['C0HANDOFF2', second.slack.messages[0]?.ts]]);
    expect([first, second].map(({ slack }) => slack.messages.map((message) => message.text))).toEqual([
      [expect.stringContaining('Support bot'), '*Person:* Hello from one'],
      [expect.stringContaining('Sales bot'), '*Person:* Hello from two'],
    ]);
  });

  it('carries on in another process when the one that posted the request stops', async () => {
    const h = await harness({ instances: 2 });
    await h.chat('web-10', 'agent please');
    const root = await h.slack.waitFor(() => h.roots()[0]);
    await h.adapters[0]?.stop(1_000);
    // Everything the hub keeps (the thread, the claims) is there for the process still running.
    await h.reply(root.ts, ADA, 'Ada here.', HANDOFF_CHANNEL, 1);
    expect((await h.conversation('web-10'))?.handoff).toMatchObject({ status: 'active', taken_by: 'Ada' });
    expect(await h.chat('web-10', 'Great')).toBe('');
    await h.slack.waitFor(() => threadTexts(h, root).includes('*Person:* Great'));
  });

  it('tells a team member when the hub cannot take their reply or click', async () => {
    // The second instance cannot reach the hub; the first posts the request.
    const unreachable = 'http://127.0.0.1:9/api/v1';
    const h = await harness({ instances: 2, hubOf: (app, index) => createHubClient(index === 1 ? unreachable : app.baseUrl, app.apiKey) });
    await h.chat('web-9', 'agent please');
    const root = await h.slack.waitFor(() => h.roots()[0]);
    const reply = h.slack.userMessage({ channel: HANDOFF_CHANNEL, user: ADA, text: 'Hello?', thread_ts: root.ts });
    await h.event(messageEvent(reply), 1);
    await h.click(root, GRACE, TAKE_ACTION_ID, 1);
    expect(h.slack.ephemerals.map((e) => [e.user, e.text, e.thread_ts])).toEqual([
      [ADA, REPLY_NOT_DELIVERED, root.ts],
      [GRACE, CLICK_FAILED, undefined],
    ]);
    const conversation = await h.conversation('web-9');
    expect(conversation?.handoff).toMatchObject({ status: 'pending', taken_by: null });
    expect(conversation?.messages.map((m) => m.content)).not.toContain('Hello?');
    expect(threadTexts(h, root)).toEqual([]);
  });

  it('says in the thread when nobody took a request in time, and takes the buttons off', async () => {
    const h = await harness();
    await h.settings({ waitMinutes: 0.05 });
    await h.chat('web-4', 'can I talk to a person?');
    const root = await h.slack.waitFor(() => h.roots()[0]);
    const stale = structuredClone(root);
    const timer = createHandoffTimer({ store: h.app.store, logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 4_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: h.bot, conversationId: 'web-4', status: 'missed' }]);

    await h.slack.waitFor(() => threadTexts(h, root).some((text) => text.startsWith('⏰ Missed')));
    await h.slack.waitFor(() => buttons(root).length === 0);
    expect(blockTexts(root)).toContain('⏰ Missed: nobody took it in time.');
    expect((await h.conversation('web-4'))?.messages.at(-1)).toMatchObject({ role: 'assistant', content: OFFLINE });

    // A click on a stale copy of the message only tells the clicker it is closed.
    await h.click(stale, ADA, TAKE_ACTION_ID);
    expect((await h.conversation('web-4'))?.handoff).toMatchObject({ status: 'missed', taken_by: null });
    expect(h.slack.ephemerals.map((e) => [e.user, e.text])).toEqual([[ADA, HANDOFF_CLOSED]]);
  });

  it('hands off on a keyword, and hands back when the team goes quiet for idleMinutes, saying so in the thread', async () => {
    const h = await harness();
    await h.settings({ keywords: ['refund'], idleMinutes: 0.05 });
    expect(await h.chat('web-7', 'I want my refunds for order 7')).toBe(WAITING);
    const root = await h.slack.waitFor(() => h.roots()[0]);
    expect(blockTexts(root)).toContain('*Person*\nI want my refunds for order 7');
    await h.click(root, ADA, TAKE_ACTION_ID);
    await h.reply(root.ts, ADA, 'Looking into it now.');
    expect((await h.conversation('web-7'))?.handoff).toMatchObject({ status: 'active', taken_by: 'Ada' });

    const timer = createHandoffTimer({ store: h.app.store, logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 4_000) });
    expect(await timer.tick()).toEqual([{ chatbotId: h.bot, conversationId: 'web-7', status: 'resolved' }]);
    await h.slack.waitFor(() => threadTexts(h, root).some((text) => text.startsWith('✅ Resolved (Ada had it)')));
    await h.slack.waitFor(() => buttons(root).length === 0);
    expect((await h.conversation('web-7'))?.messages.at(-1)).toMatchObject({ role: 'assistant', content: HANDED_BACK.en });
    // The chatbot answers again.
    expect(await h.chat('web-7', 'When do you open?')).toContain('nine');
  });

  it("keeps a long conversation within Slack's limits: the latest turns, a note of the rest, long messages in parts", async () => {
    const h = await harness();
    const at = new Date();
    const turns = Array.from({ length: 80 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Turn ${index}: ${'<&> '.repeat(1_000)}`,
      createdAt: new Date(at.getTime() - (80 - index) * 1_000),
    }));
    await h.app.store.conversations.append({
      chatbotId: h.bot,
      accountId: h.app.accountId,
      id: 'web-5',
      source: 'API',
      contactId: null,
      messages: turns,
      at,
    });
    await h.chat('web-5', 'I want to speak to a human');
    const root = await h.slack.waitFor(() => h.roots()[0]);
    expect(h.slack.callsTo('chat.postMessage').filter((c) => c.error)).toEqual([]);
    const shown = blockTexts(root);
    expect(shown.some((text) => /^_\d+ earlier messages are not shown\._$/.test(text))).toBe(true);
    expect(shown).toContain('*Person*\nI want to speak to a human');
    expect(shown.some((text) => text.startsWith('*Person*\nTurn 0:'))).toBe(false);

    const long = 'word '.repeat(2_000).trim();
    expect(await h.chat('web-5', long)).toBe('');
    const joined = () => threadTexts(h, root).join(' ').replace('*Person:* ', '').replace(/\s+/g, ' ');
    await h.slack.waitFor(() => joined() === long);
    const parts = threadTexts(h, root);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.length <= MESSAGE_LIMIT)).toBe(true);
  });

  it('says nothing to what a Slack customer writes while the team has the conversation', async () => {
    const h = await harness();
    await h.hub.bind({ platform: 'slack', workspaceId: TEAM, channelId: CUSTOMERS, chatbotId: h.bot, mode: 'all' });
    const question = h.slack.userMessage({ channel: CUSTOMERS, user: GRACE, text: 'When do you open?' });
    await h.event(messageEvent(question));
    await h.reply(question.ts, GRACE, 'can I talk to a person?', CUSTOMERS);
    const said = () => h.slack.botReplies(CUSTOMERS, question.ts).map((m) => m.text);
    expect(said()).toEqual([expect.stringContaining('nine'), WAITING]);
    const root = await h.slack.waitFor(() => h.roots()[0]);

    await h.reply(question.ts, GRACE, 'Is anyone there?', CUSTOMERS);
    await h.slack.waitFor(() => threadTexts(h, root).includes('*Person:* Is anyone there?'));
    expect(said()).toEqual([expect.stringContaining('nine'), WAITING]);
  });

  it('brings a Slack customer what the team says in their thread, once with two adapter instances: replies and the hand-back', async () => {
    const h = await harness({ instances: 2 });
    await h.hub.bind({ platform: 'slack', workspaceId: TEAM, channelId: CUSTOMERS, chatbotId: h.bot, mode: 'all' });
    const question = h.slack.userMessage({ channel: CUSTOMERS, user: GRACE, text: 'I want a human' });
    await h.event(messageEvent(question));
    const said = () => h.slack.botReplies(CUSTOMERS, question.ts).map((m) => m.text);
    expect(said()).toEqual([WAITING]);
    const root = await h.slack.waitFor(() => h.roots()[0]);
    const conversationId = `slack:${TEAM}:${CUSTOMERS}:${question.ts}`;

    const consoleReply = { name: 'Ada', text: 'Hi <!everyone> & *all*, see <https://example.com|this>.' };
    const path = `${h.app.baseUrl}/chatbots/${h.bot}/conversations/${encodeURIComponent(conversationId)}/handoff`;
    expect((await call('POST', `${path}/messages`, h.app.apiKey, consoleReply)).status).toBe(200);
    const typed = 'Ada: Hi &lt;!everyone&gt; &amp; *all*, see &lt;https://example.com|this&gt;.';
    await h.slack.waitFor(() => said().includes(typed));
    await h.reply(root.ts, GRACE, 'Grace here as well.');
    await h.slack.waitFor(() => said().includes('Grace: Grace here as well.'));
    await h.click(root, ADA, RESOLVE_ACTION_ID);
    await h.slack.waitFor(() => said().includes(HANDED_BACK.en));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(said()).toEqual([WAITING, typed, 'Grace: Grace here as well.', HANDED_BACK.en]);
    // Posted without markup, so the text reads as typed and mentions nobody.
    const told = h.slack.callsTo('chat.postMessage').filter((posted) => posted.args.channel === CUSTOMERS && posted.args.mrkdwn === 'false');
    expect(told.map((posted) => posted.args.thread_ts)).toEqual([question.ts, question.ts, question.ts]);
  });

  it('works over Socket Mode: Take and a thread reply arrive as envelopes, each reply reaching its own conversation', async () => {
    const h = await harness({ socket: true });
    await h.chat('web-6', 'I want a human');
    await h.chat('web-7', 'can I talk to a person?');
    await h.slack.waitFor(() => h.roots().length === 2);
    // Each request shows its own conversation.
    const rootOf = (words: string) => {
      const root = h.roots().find((message) => blockTexts(message).includes(`*Person*\n${words}`));
      if (!root) throw new Error(`no request shows "${words}"`);
      return root;
    };
    const human = rootOf('I want a human');
    const person = rootOf('can I talk to a person?');
    expect(human).not.toBe(person);

    await h.click(person, GRACE, TAKE_ACTION_ID);
    expect((await h.conversation('web-7'))?.handoff).toMatchObject({ status: 'active', taken_by: 'Grace' });
    expect((await h.conversation('web-6'))?.handoff).toMatchObject({ status: 'pending', taken_by: null });
    await h.reply(human.ts, ADA, 'Ada for web-6.');
    await h.reply(person.ts, GRACE, 'Grace for web-7.');
    const authored = async (id: string) => (await h.conversation(id))?.messages.filter((m) => m.author).map((m) => m.content);
    expect(await authored('web-6')).toEqual(['Ada for web-6.']);
    expect(await authored('web-7')).toEqual(['Grace for web-7.']);
  });
});
