import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HANDED_BACK } from '../../src/domain/handoff.js';
import { createHandoffTimer } from '../../jobs/handoffs.js';
import { HANDOFF_RESOLVED, handoffThreadOnly } from '../../adapters/commands.js';
import { startDiscordBot, type DiscordBot } from '../../adapters/discord/bot.js';
import { HANDOFF_CLOSED, NOT_DELIVERED, ONLY_TEXT, personSaid, RESOLVE_ID, statusLine, TAKE_ID, toPerson } from '../../adapters/discord/handoff-message.js';
import { DISCORD_WORDS } from '../../adapters/discord/interactions.js';
import { createHubClient, type HandoffNotice, type HandoffState, type HubClient } from '../../adapters/hub-client.js';
import { NO_ANSWER } from '../../adapters/discord/messages.js';
import { NOT_BOUND } from '../../adapters/relay.js';
import { startFakeDiscord, user, type ApiMessage, type FakeChannel, type FakeDiscord } from '../fakes/discord.js';
import { startHubProxy } from '../support/hub-proxy.js';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Human handoff answered from Discord, end to end: an API conversation asks for a person, the hub
// leases its notices to discord.js (unmodified) running against the fake Discord, and the team's
// clicks, thread replies and `/chatbot resolve` reach the conversation through the real hub.

const TOKEN = 'fake-discord-token.for-handoff-tests';
const SOURCE = 'The shop opens at nine in the morning. Returns are accepted within 30 days with a receipt.';
const WAITING = 'Someone from the team will join you here.';
const sqlite = storeTargets[0];
if (!sqlite) throw new Error('no sqlite store target');

type Turn = { role: string; content: string; author?: { type: string; name: string } };
type ConversationItem = { id: string; handoff?: HandoffState; messages: Turn[] };

describe('Discord handoff', () => {
  const alice = user('alice');
  const bob = user('bob');
  let app: TestApp;
  let hub: HubClient;
  let discord: FakeDiscord;
  let bot: DiscordBot;
  let proxy: Awaited<ReturnType<typeof startHubProxy>>;
  let chatbotId: string;
  let handoffs: FakeChannel;

  const startBot = (hubClient: HubClient) =>
    startDiscordBot({
      config: { token: TOKEN, applicationId: discord.applicationId, guildIds: undefined, apiUrl: discord.apiUrl, adminUserIds: [] },
      hub: hubClient,
      logger: pino({ level: 'silent' }),
    });

  beforeAll(async () => {
    app = await startApp(sqlite);
    hub = createHubClient(app.baseUrl, app.apiKey);
    chatbotId = await createChatbotViaApi(app, 'Shop', SOURCE);
    discord = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 300 });
    handoffs = discord.createChannel('text', 'handoffs');
    const handoff = { enabled: true, platform: 'discord', workspaceId: discord.guildId, channelId: handoffs.id, waitingMessage: WAITING, afterDeclines: 0 };
    expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, handoff })).status).toBe(202);
    // The bot reaches the hub through a switch, to cut it off; the test talks to the hub directly.
    proxy = await startHubProxy(app.origin);
    bot = await startBot(createHubClient(`${proxy.url}/api/v1`, app.apiKey));
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

  /** The person, through the API (as a contact of the chatbot, if given). */
  async function say(conversationId: string, content: string, contactId?: string): Promise<string> {
    const request = { chatbotId, conversationId, contactId, messages: [{ role: 'user', content }] };
    const { status, body } = await call('POST', `${app.baseUrl}/chat`, app.apiKey, request);
    expect(status).toBe(200);
    return (body as { text: string }).text;
  }
  async function conversation(id: string): Promise<ConversationItem | undefined> {
    const { body } = await call('GET', `${app.baseUrl}/get-conversations?chatbotId=${chatbotId}`, app.apiKey);
    return (body as { data: ConversationItem[] }).data.find((item) => item.id === id);
  }
  /** Waits until `probe` (asking the hub) finds something. */
  async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    for (let tries = 0; tries < 300; tries += 1) {
      const found = await probe();
      if (found !== undefined) return found;
      await sleep(30);
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  /** Waits until the conversation satisfies `check`. */
  const untilConversation = (what: string, id: string, check: (item: ConversationItem) => boolean) =>
    eventually(what, async () => {
      const item = await conversation(id);
      return item && check(item) ? item : undefined;
    });
  const handedTo = (item: ConversationItem) => item.messages.filter((turn) => turn.author);

  const conversationOf = (message: ApiMessage) => message.embeds[0]?.fields?.find((field) => field.name === 'Conversation')?.value;
  /** The latest request posted for a conversation, and the thread started from it, once the hub knows that thread. */
  async function requested(conversationId: string, earlier = 0): Promise<{ root: ApiMessage; thread: FakeChannel }> {
    const posted = await discord.until(`the handoff request of ${conversationId}`, () => {
      const roots = discord.history(handoffs.id).filter((message) => conversationOf(message) === conversationId);
      const root = roots.length > earlier ? roots.at(-1) : undefined;
      const thread = root && discord.channel(root.id);
      return root && thread ? { root, thread } : undefined;
    });
    await eventually(`the hub to know the thread of ${conversationId}`, () =>
      hub.findHandoffByThread({ platform: 'discord', channelId: handoffs.id, threadId: posted.thread.id }),
    );
    return posted;
  }
  const buttons = (message: ApiMessage) => (message.components ?? []).flatMap((row) => row.components.map((button) => [button.label, button.custom_id]));
  const botTexts = (channel: FakeChannel) => discord.history(channel.id).filter((item) => item.author.id === discord.bot.id).map((item) => item.content);
  const untilBotSays = (channel: FakeChannel, text: string) =>
    discord.until(`“${text}” in ${channel.name}`, () => botTexts(channel).includes(text) || undefined);
  /** Waits until the root message shows `state`'s status line. */
  const untilRootShows = (root: ApiMessage, line: string) =>
    discord.until(`“${line}” on the handoff message`, () => (root.content === line ? root : undefined));

  /** `/chatbot resolve` in `channel`, answered privately: the text the invoker saw. */
  async function resolveCommand(channel: FakeChannel, invoker: typeof alice): Promise<string> {
    const token = discord.command(channel, invoker, 'resolve');
    const edit = await discord.until('the answer to /chatbot resolve', () => discord.interactionResponse(token).edits.at(-1));
    expect(discord.interactionResponse(token).callback?.body).toMatchObject({ type: 5, data: { flags: 64 } });
    return (edit.body as { content: string }).content;
  }

  // ---- tests ------------------------------------------------------------------------------------

  it('posts the request with the transcript and buttons, and starts its thread; Take, replies, relay and /chatbot resolve', async () => {
    await hub.createContacts(chatbotId, [{ external_id: 'pat', name: 'Pat Doe', email: 'pat@example.com' }]);
    expect(await say('c1', 'When do you open?', 'pat')).toContain('nine');
    expect(await say('c1', 'Can I talk to a person please?', 'pat')).toBe(WAITING);

    const { root, thread } = await requested('c1');
    const pending: HandoffState = { status: 'pending', requested_at: '', taken_by: null };
    expect(root.content).toBe(statusLine(pending));
    expect(buttons(root)).toEqual([
      ['Take', TAKE_ID],
      ['Resolve', RESOLVE_ID],
    ]);
    const [embed] = root.embeds;
    expect(embed?.title).toBe('Shop: someone asks for a person');
    expect(embed?.description?.split('\n')).toEqual([
      '**Person:** When do you open?',
      expect.stringMatching(/^\*\*Shop:\*\* .*nine/),
      '**Person:** Can I talk to a person please?',
      `**Shop:** ${WAITING}`,
    ]);
    expect(embed?.fields).toEqual([
      { name: 'Name', value: 'Pat Doe', inline: true },
      { name: 'Email', value: 'pat@example.com', inline: true },
      { name: 'Source', value: 'API', inline: true },
      { name: 'Conversation', value: 'c1', inline: true },
    ]);
    // A public thread started from the request: same id, under the handoff channel, the bot's.
    expect(thread).toMatchObject({ kind: 'thread', name: 'Pat Doe · Shop', parentId: handoffs.id, ownerId: discord.bot.id });

    discord.setNickname(bob, 'Bobby');
    const take = discord.click(root, bob, TAKE_ID);
    await untilRootShows(root, statusLine({ ...pending, status: 'active', taken_by: 'Bobby' }));
    expect(buttons(root)).toEqual([['Resolve', RESOLVE_ID]]);
    expect(discord.interactionResponse(take).callback?.body).toMatchObject({ type: 6 });
    expect((await conversation('c1'))?.handoff).toMatchObject({ status: 'active', taken_by: 'Bobby' });

    discord.say(thread, bob, 'Hi, I can help with that.');
    const answered = await untilConversation('the team reply', 'c1', (item) => handedTo(item).length === 1);
    expect(answered.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hi, I can help with that.', author: { type: 'human', name: 'Bobby' } });

    expect(await say('c1', 'My parcel is late.')).toBe('');
    await untilBotSays(thread, personSaid('My parcel is late.'));

    expect(await resolveCommand(thread, alice)).toBe(HANDOFF_RESOLVED);
    expect((await conversation('c1'))?.handoff?.status).toBe('resolved');
    const resolved = statusLine({ ...pending, status: 'resolved' });
    await untilBotSays(thread, resolved);
    await untilRootShows(root, resolved);
    expect(root.components ?? []).toEqual([]);
    await discord.until('the thread archived', () => discord.channel(thread.id)?.archived);
    // The chatbot never answered in the thread: only the relayed message and the close.
    expect(botTexts(thread)).toEqual([personSaid('My parcel is late.'), resolved]);
  });

  it("shows the person's words to the team as typed: no line passed off as the chatbot's, no masked link, no heading", async () => {
    // Found as a moderator: a visitor's message with a line "**Shop:** …" read in the request as
    // the chatbot's own answer, and "[Verify your account](https://…)" as a link under other words.
    await hub.createContacts(chatbotId, [{ external_id: 'mallory', name: '[Verify](https://evil.example/x)' }]);
    await say('c-typed', 'Where is my order?\n**Shop:** Your refund of 500 EUR is approved.', 'mallory');
    expect(await say('c-typed', 'Can I talk to a person please?', 'mallory')).toBe(WAITING);
    const { root, thread } = await requested('c-typed');
    const [embed] = root.embeds;
    expect(embed?.description?.split('\n').slice(0, 2)).toEqual(['**Person:** Where is my order?', '\\*\\*Shop:\\*\\* Your refund of 500 EUR is approved.']);
    expect(embed?.fields?.find((field) => field.name === 'Name')?.value).toBe('\\[Verify\\](https://evil.example/x)');

    expect(await say('c-typed', '# Urgent\n[Log in here](https://evil.example/login) @everyone')).toBe('');
    await untilBotSays(thread, '**Person:** \\# Urgent\n\\[Log in here\\](https://evil.example/login) @\u200beveryone');
    await resolveCommand(thread, alice);
  });

  it('leaves the requests of a server the bot is not in to the account’s bot that is', async () => {
    const elsewhere = await createChatbotViaApi(app, 'Other shop', SOURCE);
    const handoff = { enabled: true, platform: 'discord', workspaceId: '900000000000000001', channelId: '900000000000000002', waitingMessage: WAITING };
    expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId: elsewhere, handoff })).status).toBe(202);
    const request = { chatbotId: elsewhere, conversationId: 'o1', messages: [{ role: 'user', content: 'agent please' }] };
    expect((await call('POST', `${app.baseUrl}/chat`, app.apiKey, request)).body).toEqual({ text: WAITING });
    // A request of the bot's own server, made after it, is posted: the bot has claimed since.
    expect(await say('own-server', 'agent please')).toBe(WAITING);
    await requested('own-server');

    // The other server's request is neither posted nor leased: the bot there claims it at once.
    const [waiting, ...more] = await hub.claimHandoffNotices('discord', 10, 5, ['900000000000000001']);
    expect(more).toEqual([]);
    expect(waiting).toMatchObject({ kind: 'requested', chatbotId: elsewhere, channel: { workspaceId: '900000000000000001' } });
    await hub.completeHandoffNotice(waiting?.id ?? '', { channelId: '900000000000000002', threadId: '900000000000000003' });
    await hub.resolveHandoff(chatbotId, 'own-server');
  });

  it('takes a handoff on the first reply, resolves it with the button, and relays nothing after', async () => {
    await say('c2', 'I want a human');
    const { root, thread } = await requested('c2');
    discord.setNickname(alice, null);
    // Discord's emphasis is dropped: the widget would show its asterisks (found relaying a Tallyho reply).
    discord.say(thread, alice, 'Alice here, **what** happened to __order 1042__?');
    const taken = await untilConversation('the first reply', 'c2', (item) => item.handoff?.status === 'active');
    expect(taken.handoff?.taken_by).toBe('Alice');
    expect(handedTo(taken)).toMatchObject([
      { role: 'assistant', content: 'Alice here, what happened to order 1042?', author: { type: 'human', name: 'Alice' } },
    ]);
    await untilRootShows(root, statusLine({ status: 'active', requested_at: '', taken_by: 'Alice' }));

    discord.click(root, alice, RESOLVE_ID);
    const resolved = statusLine({ status: 'resolved', requested_at: '', taken_by: null });
    await untilRootShows(root, resolved);
    expect(buttons(root)).toEqual([]);
    expect((await conversation('c2'))?.handoff?.status).toBe('resolved');

    // Written in the closed thread: answered there, never relayed.
    const closedNote = (late: ApiMessage) => () =>
      discord.history(thread.id).find((item) => item.message_reference?.message_id === late.id && item.content === HANDOFF_CLOSED);
    await discord.until('the closed-handoff note', closedNote(discord.say(thread, alice, 'One more thing!')));
    expect(handedTo((await conversation('c2')) as ConversationItem)).toHaveLength(1);

    // A new handoff of the conversation has its own thread; the old one stays closed, and the
    // chatbot stays out of it (the hub no longer finds it, the claims remember it).
    expect(await say('c2', 'I want a human again')).toBe(WAITING);
    const again = await requested('c2', 1);
    expect(again.thread.id).not.toBe(thread.id);
    await discord.until('the closed-handoff note again', closedNote(discord.say(thread, alice, 'Still here?')));
    expect(handedTo((await conversation('c2')) as ConversationItem)).toHaveLength(1);
    await hub.resolveHandoff(chatbotId, 'c2');
  });

  it('says a missed handoff in its thread and takes the buttons off', async () => {
    await say('c3', 'agent please');
    const { root, thread } = await requested('c3');
    const timer = createHandoffTimer({ store: app.store, logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 3_600_000) });
    expect(await timer.tick()).toContainEqual({ chatbotId, conversationId: 'c3', status: 'missed' });
    const missed = statusLine({ status: 'missed', requested_at: '', taken_by: null });
    await untilBotSays(thread, missed);
    await untilRootShows(root, missed);
    expect(buttons(root)).toEqual([]);
  });

  it('hands off after afterDeclines declined replies, and hands back when the team goes quiet for idleMinutes', async () => {
    const setHandoff = async (handoff: Record<string, unknown>) =>
      expect((await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, handoff })).status).toBe(202);
    await setHandoff({ afterDeclines: 2 });
    try {
      expect(await say('c9', 'Do you sell submarines?')).not.toContain(WAITING);
      expect(await say('c9', 'Can you repair a harpsichord?')).toMatch(new RegExp(`${WAITING}$`));
    } finally {
      await setHandoff({ afterDeclines: 0 });
    }
    const { root, thread } = await requested('c9');
    discord.say(thread, bob, 'Bob here, let me check.');
    await untilConversation('the first reply', 'c9', (item) => item.handoff?.status === 'active');

    const timer = createHandoffTimer({ store: app.store, logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 3_600_000) });
    expect(await timer.tick()).toContainEqual({ chatbotId, conversationId: 'c9', status: 'resolved' });
    const resolved = statusLine({ status: 'resolved', requested_at: '', taken_by: null });
    await untilBotSays(thread, resolved);
    await untilRootShows(root, resolved);
    expect(buttons(root)).toEqual([]);
    expect((await conversation('c9'))?.messages.at(-1)).toMatchObject({ role: 'assistant', content: HANDED_BACK.en });
  });

  it('relays nothing from other threads, which keep the chatbot’s behaviour', async () => {
    await say('c4', 'Can I speak to someone?');
    const { thread } = await requested('c4');
    const peoples = discord.createChannel('thread', 'a member’s thread', { parentId: handoffs.id, ownerId: alice.id });
    const bots = discord.createChannel('thread', 'another bot thread', { parentId: handoffs.id, ownerId: discord.bot.id });
    discord.say(peoples, alice, 'not for the person');
    const elsewhere = discord.say(bots, alice, 'nor this');
    // The handoff channel has no chatbot bound: the bot's other thread hears so, as before.
    await discord.until('the unbound note', () => discord.history(bots.id).find((item) => item.message_reference?.message_id === elsewhere.id && item.content === NOT_BOUND));
    const sticker = discord.say(thread, bob, '');
    await discord.until('the text-only note', () => discord.history(thread.id).find((item) => item.message_reference?.message_id === sticker.id && item.content === ONLY_TEXT));
    discord.say(thread, bob, 'Only this reaches the person.');
    const item = await untilConversation('the team reply', 'c4', (found) => handedTo(found).length > 0);
    await sleep(300);
    expect(handedTo((await conversation('c4')) as ConversationItem).map((turn) => turn.content)).toEqual(['Only this reaches the person.']);
    expect(item.handoff?.status).toBe('active');
    expect(botTexts(peoples)).toEqual([]);
  });

  it('goes on when a moderator deleted the thread: the close still takes the buttons off', async () => {
    await say('c7', 'Talk to a human, please');
    const { root, thread } = await requested('c7');
    discord.deleteChannel(thread);
    expect(await say('c7', 'Hello?')).toBe('');
    const resolved = await call('POST', `${app.baseUrl}/chatbots/${chatbotId}/conversations/c7/handoff/resolve`, app.apiKey);
    expect(resolved.status).toBe(200);
    await untilRootShows(root, statusLine({ status: 'resolved', requested_at: '', taken_by: null }));
    expect(buttons(root)).toEqual([]);
  });

  it('tells the team when a reply could not be passed on, and posts what waited once the hub is back', async () => {
    await say('c8', 'Can I talk to a person?');
    const { thread } = await requested('c8');
    proxy.setDown(true);
    try {
      const lost = discord.say(thread, bob, 'Are you there?');
      await discord.until('the not-delivered note', () =>
        discord.history(thread.id).find((item) => item.message_reference?.message_id === lost.id && item.content === NOT_DELIVERED),
      );
      // The person's message reaches the hub, which keeps its notice until the bot can claim it.
      expect(await say('c8', 'Hello?')).toBe('');
      await sleep(1_500);
      expect(botTexts(thread)).toEqual([NOT_DELIVERED]);
    } finally {
      proxy.setDown(false);
    }
    await untilBotSays(thread, personSaid('Hello?'));
    discord.say(thread, bob, 'Yes, here now.');
    const answered = await untilConversation('the team reply', 'c8', (item) => handedTo(item).length > 0);
    expect(handedTo(answered).map((turn) => turn.content)).toEqual(['Yes, here now.']);
  });

  describe('with a customer writing in a channel bound to the chatbot', () => {
    let customers: FakeChannel;
    /** Each customer has their own conversation in the channel. */
    const conversationId = (customer = bob) => `discord:${discord.guildId}:${customers.id}:${customer.id}`;
    /** What the bot tells one customer in the shared channel: named first. */
    const toBob = (text: string) => `<@${bob.id}> ${text}`;

    beforeAll(async () => {
      customers = discord.createChannel('text', 'customers');
      await hub.bind({ platform: 'discord', workspaceId: discord.guildId, channelId: customers.id, chatbotId, mode: 'all' });
    });

    it('says nothing to what the customer writes while the team has the conversation', async () => {
      discord.say(customers, alice, 'When do you open?');
      await discord.until('the answer', () => botTexts(customers).find((text) => text.includes('nine')));
      discord.say(customers, alice, 'Can I talk to a person please?');
      await untilBotSays(customers, WAITING);
      const { thread } = await requested(conversationId(alice));

      discord.say(customers, alice, 'Is anyone there?');
      await untilBotSays(thread, personSaid('Is anyone there?'));
      await sleep(300);
      expect(botTexts(customers).filter((text) => text === NO_ANSWER)).toEqual([]);
      expect(botTexts(customers).at(-1)).toBe(WAITING);
      await hub.resolveHandoff(chatbotId, conversationId(alice));
    });

    it('answers the other customers while one is handed off, and brings that one the team’s replies by name', async () => {
      // Found binding #support in `all` mode: once Alice asked for a person, Bob got no answers,
      // his words went to her thread as hers, and the team's replies went to the whole channel.
      const ada = user('ada');
      const earlier = discord.history(handoffs.id).filter((message) => conversationOf(message) === conversationId(alice)).length;
      discord.say(customers, alice, 'Can I talk to a person please?');
      const { thread } = await requested(conversationId(alice), earlier);

      const question = discord.say(customers, bob, 'When does the shop open?');
      await discord.until('the answer to Bob', () =>
        discord.history(customers.id).find((item) => item.message_reference?.message_id === question.id && item.content.includes('nine')),
      );

      discord.setNickname(ada, 'Ada');
      discord.say(thread, ada, 'Hi Alice, Ada here.');
      const toAlice = `<@${alice.id}> **Ada:** Hi Alice, Ada here.`;
      await untilBotSays(customers, toAlice);
      // It pings Alice alone.
      const post = discord.requests.find((item) => item.method === 'POST' && (item.body as { content?: string } | undefined)?.content === toAlice);
      expect((post?.body as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [], users: [alice.id] });

      discord.say(customers, alice, 'Thanks, Ada!');
      await untilBotSays(thread, personSaid('Thanks, Ada!'));
      await hub.resolveHandoff(chatbotId, conversationId(alice));
      await untilBotSays(customers, `<@${alice.id}> ${HANDED_BACK.en}`);
      // Only Alice's words reached the team.
      expect(botTexts(thread).filter((text) => text.startsWith('**Person:**'))).toEqual([personSaid('Thanks, Ada!')]);
      const saved = await conversation(conversationId(bob));
      expect(saved?.messages.map((turn) => turn.content)).toContain('When does the shop open?');
      expect((await conversation(conversationId(alice)))?.messages.map((turn) => turn.content)).not.toContain('When does the shop open?');
    });

    it('brings the customer what the team says, once with two bot instances: console and thread replies, the hand-back', async () => {
      const second = await startBot(hub);
      try {
        const earlier = discord.history(handoffs.id).filter((message) => conversationOf(message) === conversationId()).length;
        discord.say(customers, bob, 'I want a human');
        await discord.until('the waiting message', () => botTexts(customers).filter((text) => text === WAITING).length > earlier || undefined);
        const { thread } = await requested(conversationId(), earlier);
        const shown = botTexts(customers).length;
        const consoleReply = { name: 'Ada *Support*', text: 'Hi @everyone, <@123> and @here: 2*3*4 is _not_ 5.' };
        const path = `${app.baseUrl}/chatbots/${chatbotId}/conversations/${encodeURIComponent(conversationId())}/handoff`;
        expect((await call('POST', `${path}/messages`, app.apiKey, consoleReply)).status).toBe(200);
        const typed = toBob('**Ada \\*Support\\*:** Hi @\u200beveryone, <@\u200b123> and @\u200bhere: 2\\*3\\*4 is \\_not\\_ 5.');
        await untilBotSays(customers, typed);

        discord.setNickname(alice, 'Alice');
        discord.say(thread, alice, 'Alice here too.');
        await untilBotSays(customers, toBob('**Alice:** Alice here too.'));
        discord.say(customers, bob, 'Thanks both');
        await untilBotSays(thread, personSaid('Thanks both'));
        expect((await call('POST', `${path}/resolve`, app.apiKey)).status).toBe(200);
        await untilBotSays(customers, toBob(HANDED_BACK.en));
        await sleep(1_500);
        expect(botTexts(customers).slice(shown)).toEqual([typed, toBob('**Alice:** Alice here too.'), toBob(HANDED_BACK.en)]);
        // Nothing the bot wrote there could ping anyone but Bob.
        const posts = discord.requests.filter((item) => item.method === 'POST' && item.path === `/channels/${customers.id}/messages`);
        expect(posts.slice(-3).map((item) => (item.body as { allowed_mentions?: unknown }).allowed_mentions)).toEqual(Array(3).fill({ parse: [], users: [bob.id] }));

        // The chatbot answers again.
        discord.say(customers, bob, 'When do you open?');
        await discord.until('the answer after the hand-back', () => botTexts(customers).slice(shown + 3).find((text) => text.includes('nine')));
      } finally {
        await second.stop();
      }
    });

    it('posts a reply offered again (its done lost, as in a crash) once: Discord answers its nonce with the message made', async () => {
      const real = createHubClient(`${proxy.url}/api/v1`, app.apiKey);
      const again: HandoffNotice[] = [];
      let replayed = false;
      // Hands the first reply out a second time at the next claim, as its lease running out would.
      const replaying: HubClient = {
        ...real,
        async claimHandoffNotices(...args) {
          const claimed = await real.claimHandoffNotices(...args);
          const replay = again.splice(0);
          const reply = claimed.find((notice) => notice.kind === 'reply');
          if (reply && !replayed) {
            replayed = true;
            again.push(reply);
          }
          return [...claimed, ...replay];
        },
      };
      await bot.stop();
      try {
        bot = await startBot(replaying);
        const earlier = discord.history(handoffs.id).filter((message) => conversationOf(message) === conversationId()).length;
        discord.say(customers, bob, 'agent please');
        await requested(conversationId(), earlier);
        const shown = botTexts(customers).length;
        await hub.replyInHandoff(chatbotId, conversationId(), 'Ada', 'Only once, please.');
        await untilBotSays(customers, toBob('**Ada:** Only once, please.'));
        const sends = () =>
          discord.requests
            .filter((item) => item.method === 'POST' && item.path === `/channels/${customers.id}/messages`)
            .map((item) => item.body as { content?: string; nonce?: string; enforce_nonce?: boolean })
            .filter((body) => body.content === toBob('**Ada:** Only once, please.'));
        const [first, second] = await discord.until('the reply sent again', () => (sends().length === 2 ? sends() : undefined));
        await sleep(300);
        expect(botTexts(customers).slice(shown)).toEqual([toBob('**Ada:** Only once, please.')]);
        expect(second).toEqual(first);
        expect(first).toMatchObject({ nonce: expect.any(String), enforce_nonce: true });
        await hub.resolveHandoff(chatbotId, conversationId());
        await untilBotSays(customers, toBob(HANDED_BACK.en));
      } finally {
        await bot.stop();
        bot = await startBot(createHubClient(`${proxy.url}/api/v1`, app.apiKey));
      }
    });

    it('keeps what the team says for the customer while no bot runs, and brings it once one starts; the offline message too', async () => {
      const earlier = discord.history(handoffs.id).filter((message) => conversationOf(message) === conversationId()).length;
      discord.say(customers, bob, 'agent please');
      await discord.until('the waiting message', () => botTexts(customers).filter((text) => text === WAITING).length > earlier || undefined);
      await requested(conversationId(), earlier);
      await bot.stop();
      const shown = botTexts(customers).length;
      try {
        await hub.replyInHandoff(chatbotId, conversationId(), 'Ada', 'Sorry for the wait.');
        await sleep(1_200);
        expect(botTexts(customers)).toHaveLength(shown);
      } finally {
        bot = await startBot(createHubClient(`${proxy.url}/api/v1`, app.apiKey));
      }
      await untilBotSays(customers, toBob('**Ada:** Sorry for the wait.'));

      // Nobody answered for idleMinutes: the hand-back; a new request nobody takes: the offline message.
      const timer = createHandoffTimer({ store: app.store, logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 3_600_000) });
      expect(await timer.tick()).toContainEqual({ chatbotId, conversationId: conversationId(), status: 'resolved' });
      await discord.until('the hand-back', () => botTexts(customers).slice(shown).includes(toBob(HANDED_BACK.en)) || undefined);
      discord.say(customers, bob, 'I want a human');
      await requested(conversationId(), earlier + 1);
      expect(await timer.tick()).toContainEqual({ chatbotId, conversationId: conversationId(), status: 'missed' });
      const offline = (await conversation(conversationId()))?.messages.at(-1)?.content ?? '';
      expect(offline).toMatch(/^Sorry, nobody from the team is available/);
      await untilBotSays(customers, toBob(toPerson({ text: offline })));
      await sleep(1_200);
      expect(botTexts(customers).slice(shown)).toEqual([toBob('**Ada:** Sorry for the wait.'), toBob(HANDED_BACK.en), WAITING, toBob(toPerson({ text: offline }))]);
    });
  });

  it('explains /chatbot resolve used outside a handoff thread', async () => {
    expect(await resolveCommand(handoffs, alice)).toBe(handoffThreadOnly(DISCORD_WORDS));
    const thread = discord.createChannel('thread', 'just a thread', { parentId: handoffs.id, ownerId: alice.id });
    expect(await resolveCommand(thread, alice)).toBe(handoffThreadOnly(DISCORD_WORDS));
  });

  it('keeps a long transcript within Discord’s embed limits, latest turns first to stay', async () => {
    const long = (index: number) => `Question ${index}: ${'about my order '.repeat(60)}`;
    for (let index = 1; index <= 6; index += 1) await say('c5', long(index));
    await say('c5', 'a person please');
    const { root } = await requested('c5');
    const description = root.embeds[0]?.description ?? '';
    expect(description.length).toBeLessThanOrEqual(4096);
    expect(description.startsWith('… (earlier messages left out)')).toBe(true);
    expect(description).toContain('**Person:** a person please');
    expect(description).not.toContain('Question 1:');
  });

  it('posts each request once and takes each click and reply once with two bot instances', async () => {
    const second = await startBot(hub);
    try {
      await say('c6', 'I need a human');
      const { root, thread } = await requested('c6');
      discord.setNickname(bob, 'Bobby');
      const take = discord.click(root, bob, TAKE_ID);
      await untilRootShows(root, statusLine({ status: 'active', requested_at: '', taken_by: 'Bobby' }));
      discord.say(thread, bob, 'Hello from the team.');
      await untilConversation('the team reply', 'c6', (item) => handedTo(item).length > 0);
      await say('c6', 'Thanks!');
      await untilBotSays(thread, personSaid('Thanks!'));
      await sleep(1_500);
      expect(discord.history(handoffs.id).filter((message) => conversationOf(message) === 'c6')).toHaveLength(1);
      expect(handedTo((await conversation('c6')) as ConversationItem)).toHaveLength(1);
      expect(botTexts(thread)).toEqual([personSaid('Thanks!')]);
      // Both instances received the click; one acknowledged it.
      expect(discord.requests.filter((item) => item.method === 'POST' && item.path.endsWith(`/${take}/callback`))).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
