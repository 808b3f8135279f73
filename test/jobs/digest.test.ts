import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScheduler, type SchedulerOptions } from '../../jobs/scheduler.js';
import { recordUnanswered } from '../../src/domain/unanswered.js';
import { openStore } from '../../src/store/index.js';
import type { Account, Chatbot, Digest, Store } from '../../src/store/port.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { BOT_TOKEN, startFakeSlack, type FakeSlack } from '../fakes/slack.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { at, manualClock, plusMinutes, seedDigest, seedLead, seedLeads, silent, startOutage } from './helpers.js';

// The daily lead digest end to end: a scheduler ticking at instants the test chooses, a real store,
// and the real Slack and Discord clients posting to local fakes that answer as the platforms do.

const DISCORD_TOKEN = 'discord-digest-test-token';
/** 09:00 in Oslo on a winter day. */
const NINE_OSLO = at('2026-03-10T08:00:00.000Z');

type Section = { type: string; text?: { text: string }; fields?: { text: string }[] };
type DiscordBody = {
  content: string;
  embeds: { title: string; description: string; fields?: { name: string; value: string }[]; footer?: { text: string } }[];
  allowed_mentions: unknown;
  attachments?: unknown[];
};

let store: Store;
let account: Account;
let chatbot: Chatbot;
let slack: FakeSlack;
let discord: FakeDiscord;
let sleeps: number[];
let clock: ReturnType<typeof manualClock>;

const platforms = () => ({
  slack: { botToken: BOT_TOKEN, apiUrl: slack.apiUrl },
  discord: { token: DISCORD_TOKEN, apiUrl: discord.apiUrl },
});
const scheduler = (overrides: Partial<SchedulerOptions> = {}) =>
  createScheduler({
    store,
    platforms: platforms(),
    logger: silent,
    now: clock.now,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
const digest = (overrides: Partial<Digest> = {}) => seedDigest(store, account, chatbot, overrides);
const onDiscord = () =>
  digest({ platform: 'discord', workspaceId: discord.guildId, channelId: discord.general.id });

const slackPosts = () => slack.callsTo('chat.postMessage').filter((call) => !call.error && call.status === 200);
const blocksOf = (call: { args: Record<string, string> }) => JSON.parse(call.args.blocks ?? '[]') as Section[];
const leadSections = (blocks: Section[]) => blocks.filter((block) => block.fields);
const namesIn = (blocks: Section[]) => leadSections(blocks).map((block) => block.fields?.[0]?.text.replace('*Name*\n', ''));
const discordPosts = () =>
  discord.requests.filter((request) => request.method === 'POST' && /^\/channels\/\d+\/messages$/.test(request.path));

async function tickAt(instant: Date, ticker = scheduler()) {
  clock.set(instant);
  return ticker.tick();
}

beforeEach(async () => {
  store = await openStore('sqlite::memory:');
  account = await seedAccount(store);
  chatbot = await seedChatbot(store, account);
  slack = await startFakeSlack();
  discord = await startFakeDiscord({ token: DISCORD_TOKEN });
  sleeps = [];
  clock = manualClock(NINE_OSLO);
});
afterEach(async () => {
  expect(discord.violations).toEqual([]);
  await Promise.all([slack.close(), discord.close()]);
  await store.close();
});

describe('the digest message', () => {
  it('posts Block Kit to Slack, and every lead as CSV in its thread when there are more than ten', async () => {
    const subscription = await digest({ channelId: 'C0SALES001' });
    const leads = await seedLeads(store, chatbot, NINE_OSLO, 12);
    // Outside the window, or another chatbot's: never in the digest.
    await seedLead(store, chatbot, plusMinutes(NINE_OSLO, -25 * 60), { name: 'Too old' });
    await seedLead(store, chatbot, plusMinutes(NINE_OSLO, 1), { name: 'Too new' });
    const otherBot = await seedChatbot(store, account);
    await seedLead(store, otherBot, plusMinutes(NINE_OSLO, -5), { name: 'Someone else’s' });

    expect(await tickAt(plusMinutes(NINE_OSLO, 0.5))).toEqual([
      { digestId: subscription.id, localDate: '2026-03-10', outcome: 'posted' },
    ]);

    const [post] = slackPosts();
    expect(slackPosts()).toHaveLength(1);
    expect(post?.token).toBe(BOT_TOKEN);
    expect(post?.args.channel).toBe('C0SALES001');
    expect(post?.args.text).toBe('Lead digest for Helper: 12 new leads, 9 Mar 09:00 – 10 Mar 09:00 (Europe/Oslo)');
    const blocks = blocksOf(post as { args: Record<string, string> });
    expect(blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Lead digest: Helper', emoji: false } });
    expect(blocks[1]?.text?.text).toBe('*12 new leads* · 9 Mar 09:00 – 10 Mar 09:00 (Europe/Oslo)');
    expect(namesIn(blocks)).toEqual(leads.slice(0, 10).map((lead) => lead.name));
    expect(leadSections(blocks)[0]?.fields?.map((field) => field.text)).toEqual([
      `*Name*\n${leads[0]?.name}`,
      `*Email*\n${leads[0]?.email}`,
      `*Phone*\n${leads[0]?.phone}`,
      '*Time*\n10 Mar 08:59',
    ]);

    expect(slack.uploads).toHaveLength(1);
    const [upload] = slack.uploads;
    expect(upload?.filename).toBe('leads-2026-03-10.csv');
    expect(upload?.shared?.channelId).toBe('C0SALES001');
    expect(slack.callsTo('files.completeUploadExternal')[0]?.args.thread_ts).toBe(slack.messages[0]?.ts);
    const rows = upload?.content?.trim().split('\r\n') ?? [];
    expect(rows).toHaveLength(13);
    expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual(leads.map((lead) => lead.id));

    expect(await store.digestRuns.find(subscription.id, '2026-03-10')).toMatchObject({
      scheduledAt: NINE_OSLO,
      status: 'posted',
      attempts: 1,
      error: null,
      finishedAt: plusMinutes(NINE_OSLO, 0.5),
    });
  });

  it('posts an embed to Discord, with every lead as a CSV attachment of the same message', async () => {
    await onDiscord();
    const leads = await seedLeads(store, chatbot, NINE_OSLO, 11);
    await tickAt(NINE_OSLO);

    expect(discordPosts()).toHaveLength(1);
    const [request] = discordPosts();
    expect(request?.authorization).toBe(`Bot ${DISCORD_TOKEN}`);
    expect(request?.path).toBe(`/channels/${discord.general.id}/messages`);
    const body = request?.body as DiscordBody;
    expect(body.content).toBe('Lead digest for Helper: 11 new leads');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds;
    expect(embed?.title).toBe('Lead digest: Helper');
    expect(embed?.description).toBe('**11 new leads** · 9 Mar 09:00 – 10 Mar 09:00 (Europe/Oslo)');
    expect(embed?.fields?.map((field) => field.name)).toEqual(leads.slice(0, 10).map((lead) => lead.name));
    expect(embed?.fields?.[0]?.value).toBe(`${leads[0]?.email}\n${leads[0]?.phone}\n10 Mar 08:59`);
    expect(embed?.footer?.text).toBe('Showing the 10 newest of 11. All of them are in leads-2026-03-10.csv.');

    expect(request?.files).toHaveLength(1);
    expect(request?.files[0]).toMatchObject({ filename: 'leads-2026-03-10.csv', contentType: 'text/csv' });
    expect(request?.files[0]?.text.trim().split('\r\n')).toHaveLength(12);
    expect(discord.history(discord.general.id)[0]?.attachments).toHaveLength(1);
  });

  it('attaches nothing when ten leads or fewer fit in the message', async () => {
    await digest();
    await onDiscord();
    await seedLeads(store, chatbot, NINE_OSLO, 10);
    await tickAt(NINE_OSLO);

    expect(leadSections(blocksOf(slackPosts()[0] as { args: Record<string, string> }))).toHaveLength(10);
    expect(slack.callsTo('files.getUploadURLExternal')).toHaveLength(0);
    const [request] = discordPosts();
    expect((request?.body as DiscordBody).embeds[0]?.fields).toHaveLength(10);
    expect(request?.files).toEqual([]);
    expect((request?.body as DiscordBody).attachments).toBeUndefined();
  });

  it('posts nothing on a day without leads unless asked to, and records the run either way', async () => {
    const quiet = await digest({ channelId: 'C0QUIET001', postWhenEmpty: false });
    const chatty = await digest({ channelId: 'C0CHATTY01', postWhenEmpty: true });

    const results = await tickAt(NINE_OSLO);
    expect(results.map((result) => [result.digestId, result.outcome]).sort()).toEqual(
      [
        [quiet.id, 'skipped'],
        [chatty.id, 'posted'],
      ].sort(),
    );
    expect(slackPosts().map((call) => call.args.channel)).toEqual(['C0CHATTY01']);
    expect(slackPosts()[0]?.args.text).toContain('no new leads');
    expect(await store.digestRuns.find(quiet.id, '2026-03-10')).toMatchObject({ status: 'skipped', attempts: 0 });
  });

  it('adds the questions that went unanswered in the window, and posts for them alone', async () => {
    await digest({ postWhenEmpty: false });
    const ask = (question: string, minutes: number) =>
      recordUnanswered(store, chatbot, question, { conversationId: null, messageId: null, source: 'API', askedAt: plusMinutes(NINE_OSLO, minutes) });
    await ask('Is there parking nearby?', -25 * 60);
    for (const question of ['Do you sell gift cards?', 'Can I buy a gift card?', 'Do you rent kayaks?', 'Do you have showers?', 'Can I rent a kayak?']) {
      await ask(question, -60);
    }
    await ask('Do you sell gift cards?', -30);
    await tickAt(NINE_OSLO);

    const blocks = blocksOf(slackPosts()[0] as { args: Record<string, string> });
    expect(blocks.at(-1)?.text?.text).toBe(
      '*3 questions went unanswered*\n• Do you sell gift cards? (asked 3 times)\n• Do you rent kayaks? (asked 2 times)\n' +
        '• Do you have showers? (asked once)',
    );
  });

  it('covers the leads since the previous digest; the first covers the last 24 hours', async () => {
    await digest();
    await seedLead(store, chatbot, plusMinutes(NINE_OSLO, -24 * 60 - 1), { name: 'Day before the first window' });
    await seedLead(store, chatbot, plusMinutes(NINE_OSLO, -24 * 60), { name: 'First window, first instant' });
    await seedLead(store, chatbot, NINE_OSLO, { name: 'First window, last instant' });
    await tickAt(NINE_OSLO);

    const nextNine = at('2026-03-11T08:00:00.000Z');
    await seedLead(store, chatbot, plusMinutes(NINE_OSLO, 1), { name: 'Second window' });
    await tickAt(nextNine);

    // A day with nothing is skipped, and still moves the window on.
    await tickAt(at('2026-03-12T08:00:00.000Z'));
    await seedLead(store, chatbot, at('2026-03-12T20:00:00.000Z'), { name: 'Fourth window' });
    await tickAt(at('2026-03-13T08:00:00.000Z'));

    expect(slackPosts().map((call) => namesIn(blocksOf(call)))).toEqual([
      ['First window, last instant', 'First window, first instant'],
      ['Second window'],
      ['Fourth window'],
    ]);
    expect(slackPosts()[1]?.args.text).toContain('10 Mar 09:00 – 11 Mar 09:00');
    expect(slackPosts()[2]?.args.text).toContain('12 Mar 09:00 – 13 Mar 09:00');
  });
});

describe('the schedule', () => {
  it('posts at 09:00 in each subscription’s own zone, winter and summer', async () => {
    await digest({ channelId: 'C0OSLO0001', timezone: 'Europe/Oslo', postWhenEmpty: true });
    await digest({ channelId: 'C0NEWYORK1', timezone: 'America/New_York', postWhenEmpty: true });
    await digest({ channelId: 'C0UTC00001', timezone: 'UTC', postWhenEmpty: true });
    const ticker = scheduler();
    const postedAt = new Map<string, string[]>();

    for (const day of ['2026-01-15', '2026-07-15']) {
      const start = at(`${day}T00:00:00.000Z`);
      for (let minute = 0; minute < 24 * 60; minute += 5) {
        const before = slackPosts().length;
        await tickAt(plusMinutes(start, minute), ticker);
        for (const call of slackPosts().slice(before)) {
          const channel = call.args.channel as string;
          postedAt.set(channel, [...(postedAt.get(channel) ?? []), clock.now().toISOString()]);
        }
      }
    }
    expect(Object.fromEntries(postedAt)).toEqual({
      C0OSLO0001: ['2026-01-15T08:00:00.000Z', '2026-07-15T07:00:00.000Z'],
      C0UTC00001: ['2026-01-15T09:00:00.000Z', '2026-07-15T09:00:00.000Z'],
      C0NEWYORK1: ['2026-01-15T14:00:00.000Z', '2026-07-15T13:00:00.000Z'],
    });
  });

  it('runs a 02:30 digest once on the night 02:30 does not exist (Oslo, spring forward)', async () => {
    const subscription = await digest({ time: '02:30', postWhenEmpty: true });
    const ticker = scheduler();
    const posted: string[] = [];
    for (let instant = at('2026-03-28T22:00:00.000Z'); instant < at('2026-03-29T04:00:00.000Z'); instant = plusMinutes(instant, 1)) {
      const results = await tickAt(instant, ticker);
      if (results.some((result) => result.outcome === 'posted')) posted.push(instant.toISOString());
    }
    // 03:00 CEST, the first instant after the gap.
    expect(posted).toEqual(['2026-03-29T01:00:00.000Z']);
    // Another process starting later finds it done.
    expect(await tickAt(at('2026-03-29T01:30:00.000Z'))).toEqual([
      { digestId: subscription.id, localDate: '2026-03-29', outcome: 'busy' },
    ]);
    expect(slackPosts()).toHaveLength(1);
  });

  it('runs a 02:30 digest once on the night 02:30 happens twice (Oslo, fall back)', async () => {
    const subscription = await digest({ time: '02:30', postWhenEmpty: true });
    const ticker = scheduler();
    const posted: string[] = [];
    for (let instant = at('2026-10-24T22:00:00.000Z'); instant < at('2026-10-25T04:00:00.000Z'); instant = plusMinutes(instant, 1)) {
      const results = await tickAt(instant, ticker);
      if (results.some((result) => result.outcome === 'posted')) posted.push(instant.toISOString());
    }
    // The first 02:30 (CEST); the second, an hour later (CET), is the same local day.
    expect(posted).toEqual(['2026-10-25T00:30:00.000Z']);
    expect(await tickAt(at('2026-10-25T01:30:00.000Z'))).toEqual([
      { digestId: subscription.id, localDate: '2026-10-25', outcome: 'busy' },
    ]);
    expect(slackPosts()).toHaveLength(1);
  });

  it('catches up a digest less than six hours late, and records an older one as missed', async () => {
    const subscription = await digest();
    await seedLeads(store, chatbot, NINE_OSLO, 2);
    // No clock ran from 09:00 until 14:59 Oslo time: 5 h 59 min late, still posted.
    expect((await tickAt(plusMinutes(NINE_OSLO, 5 * 60 + 59)))[0]?.outcome).toBe('posted');

    // The next day no clock runs until 15:00 Oslo time: 6 h late, too late to post.
    const nextNine = at('2026-03-11T08:00:00.000Z');
    await seedLead(store, chatbot, plusMinutes(nextNine, -60), { name: 'Lead of the missed day' });
    expect((await tickAt(plusMinutes(nextNine, 6 * 60)))[0]?.outcome).toBe('missed');
    expect(slackPosts()).toHaveLength(1);
    expect(await store.digestRuns.find(subscription.id, '2026-03-11')).toMatchObject({
      status: 'missed',
      attempts: 0,
      error: 'no clock process ran within 6 hours of 2026-03-11T08:00:00.000Z',
    });

    // The missed day's leads are in the next digest.
    await tickAt(at('2026-03-12T08:00:00.000Z'));
    expect(namesIn(blocksOf(slackPosts()[1] as { args: Record<string, string> }))).toEqual(['Lead of the missed day']);
  });

  it('posts once when two clock processes race on one store', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchboard-digests-')), 'race.db')}`;
    const first = await openStore(url);
    const second = await openStore(url);
    try {
      const owner = await seedAccount(first);
      const bot = await seedChatbot(first, owner);
      const channels = ['C0RACE0001', 'C0RACE0002', 'C0RACE0003', 'C0RACE0004'];
      for (const channelId of channels) await seedDigest(first, owner, bot, { channelId, postWhenEmpty: true });
      const clocks = [first, second].map((each, index) =>
        scheduler({ store: each, processId: `clock-${index}` }),
      );

      for (const day of ['2026-03-10', '2026-03-11', '2026-03-12']) {
        clock.set(at(`${day}T08:00:00.000Z`));
        const outcomes = (await Promise.all(clocks.map((each) => each.tick()))).flat().map((result) => result.outcome);
        expect(outcomes.filter((outcome) => outcome === 'posted')).toHaveLength(channels.length);
        expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(channels.length);
      }
      expect(slackPosts().map((call) => call.args.channel).sort()).toEqual([...channels, ...channels, ...channels].sort());
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('takes over a run whose claimer crashed, once its lease has ended', async () => {
    const subscription = await digest({ postWhenEmpty: true });
    await store.digestRuns.claim({
      digestId: subscription.id,
      localDate: '2026-03-10',
      scheduledAt: NINE_OSLO,
      claimedBy: 'crashed-clock',
      claimedAt: NINE_OSLO,
      leaseUntil: plusMinutes(NINE_OSLO, 10),
    });
    const ticker = scheduler({ processId: 'survivor' });
    expect((await tickAt(plusMinutes(NINE_OSLO, 5), ticker))[0]?.outcome).toBe('busy');
    expect(await tickAt(plusMinutes(NINE_OSLO, 6), ticker)).toEqual([]); // remembered until the lease ends
    expect(slackPosts()).toHaveLength(0);

    expect((await tickAt(plusMinutes(NINE_OSLO, 11), ticker))[0]?.outcome).toBe('posted');
    expect(slackPosts()).toHaveLength(1);
    expect(await store.digestRuns.find(subscription.id, '2026-03-10')).toMatchObject({
      claimedBy: 'survivor',
      status: 'posted',
    });
  });
});

describe('failures', () => {
  it('retries a failing platform with backoff, records the failure, and still posts the others', async () => {
    const outage = await startOutage();
    try {
      const down = [await digest({ channelId: 'C0DOWN0001' }), await digest({ channelId: 'C0DOWN0002' })];
      const up = await onDiscord();
      // The day before: nothing to post, so all three are skipped; the windows start there.
      expect((await tickAt(at('2026-03-09T08:00:00.000Z'))).map((result) => result.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
      await seedLeads(store, chatbot, NINE_OSLO, 3);
      const ticker = scheduler({ platforms: { ...platforms(), slack: { botToken: BOT_TOKEN, apiUrl: outage.url } } });

      const results = await tickAt(NINE_OSLO, ticker);
      expect(Object.fromEntries(results.map((result) => [result.digestId, result.outcome]))).toEqual({
        [down[0]?.id as string]: 'failed',
        [down[1]?.id as string]: 'failed',
        [up.id]: 'posted',
      });
      expect(outage.requests()).toBe(6);
      expect(sleeps.sort((a, b) => a - b)).toEqual([2_000, 2_000, 8_000, 8_000]);
      expect(discordPosts()).toHaveLength(1);
      for (const subscription of down) {
        const run = await store.digestRuns.find(subscription.id, '2026-03-10');
        expect(run).toMatchObject({ status: 'failed', attempts: 3 });
        expect(run?.error).toMatch(/503/);
      }
    } finally {
      await outage.close();
    }

    // Back up the next day: the failed day's leads are in that digest.
    const nextNine = at('2026-03-11T08:00:00.000Z');
    await seedLead(store, chatbot, plusMinutes(nextNine, -1), { name: 'Next day' });
    await tickAt(nextNine);
    for (const post of slackPosts()) {
      expect(JSON.parse(post.args.blocks ?? '[]')[1].text.text).toMatch(/^\*4 new leads\* · 9 Mar 09:00 – 11 Mar 09:00/);
    }
    expect(slackPosts()).toHaveLength(2);
  });

  it('retries a transient error, waits out a rate limit, and gives up at once on a permanent error', async () => {
    const subscription = await digest({ postWhenEmpty: true });
    const run = (localDate: string) => store.digestRuns.find(subscription.id, localDate);

    slack.failNext('chat.postMessage', 'internal_error');
    await tickAt(at('2026-03-10T08:00:00.000Z'));
    expect(await run('2026-03-10')).toMatchObject({ status: 'posted', attempts: 2 });
    expect(sleeps).toEqual([2_000]);

    slack.rateLimit('chat.postMessage', 30);
    await tickAt(at('2026-03-11T08:00:00.000Z'));
    expect(await run('2026-03-11')).toMatchObject({ status: 'posted', attempts: 2 });
    expect(sleeps).toEqual([2_000, 30_000]);

    slack.failNext('chat.postMessage', 'invalid_auth');
    await tickAt(at('2026-03-12T08:00:00.000Z'));
    expect(await run('2026-03-12')).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'An API error occurred: invalid_auth',
    });
    expect(sleeps).toEqual([2_000, 30_000]);
    expect(slackPosts()).toHaveLength(2);
  });

  it('says every day, in the run record and the log, that the bot is not in the channel and how to mend it', async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    const ticker = scheduler({ logger });
    const publicOne = await digest({ postWhenEmpty: true });
    const privateOne = await digest({ postWhenEmpty: true, channelId: 'C0SECRET01' });
    slack.botNotIn(publicOne.channelId, 'public');
    slack.botNotIn(privateOne.channelId, 'private');

    for (const day of ['2026-03-10', '2026-03-11']) {
      await tickAt(at(`${day}T08:00:00.000Z`), ticker);
      for (const [subscription, code] of [[publicOne, 'not_in_channel'], [privateOne, 'channel_not_found']] as const) {
        const error = `the Slack bot is not in channel ${subscription.channelId} (${code}): invite it there with /invite, or the digest fails every day`;
        expect(await store.digestRuns.find(subscription.id, day)).toMatchObject({ status: 'failed', attempts: 1, error });
        expect(logs).toContainEqual(
          expect.objectContaining({ level: 40, msg: 'lead digest not posted', channelId: subscription.channelId, localDate: day, error }),
        );
      }
    }
    expect(slackPosts()).toEqual([]);
  });

  it('says in the run record that the Discord bot may not post in the channel, and what it needs there', async () => {
    // Found removing the bot from a team channel: the run said only "Missing Access", every day.
    const hidden = discord.createChannel('text', 'staff', { teamOnly: true, hiddenFromBot: true });
    const subscription = await digest({ platform: 'discord', workspaceId: discord.guildId, channelId: hidden.id, postWhenEmpty: true });
    await tickAt(at('2026-03-10T08:00:00.000Z'), scheduler());
    expect(await store.digestRuns.find(subscription.id, '2026-03-10')).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: `the Discord bot may not post in channel ${hidden.id} (Missing Access): give it View Channel, Send Messages, Embed Links and Attach Files there, or the digest fails every day`,
    });
  });

  it('counts a digest whose CSV could not be attached as posted, noting why', async () => {
    const subscription = await digest();
    await seedLeads(store, chatbot, NINE_OSLO, 11);
    slack.failNext('files.getUploadURLExternal', 'invalid_arguments');
    await tickAt(NINE_OSLO);
    expect(slackPosts()).toHaveLength(1);
    expect(await store.digestRuns.find(subscription.id, '2026-03-10')).toMatchObject({
      status: 'posted',
      attempts: 1,
      error: 'the CSV attachment failed: An API error occurred: invalid_arguments',
    });
  });

  it('records a run the store failed in, and still runs the others', async () => {
    const otherBot = await seedChatbot(store, account);
    const broken = await seedDigest(store, account, otherBot, { channelId: 'C0BROKEN01', postWhenEmpty: true });
    const fine = await digest({ postWhenEmpty: true });
    const flaky: Store = {
      ...store,
      leads: {
        ...store.leads,
        list: async (chatbotId, range, page) => {
          if (chatbotId === otherBot.id) throw new Error('disk I/O error');
          return store.leads.list(chatbotId, range, page);
        },
      },
    };
    const results = await tickAt(NINE_OSLO, scheduler({ store: flaky }));
    expect(Object.fromEntries(results.map((result) => [result.digestId, [result.outcome, result.error]]))).toEqual({
      [broken.id]: ['error', 'disk I/O error'],
      [fine.id]: ['posted', undefined],
    });
    expect(await store.digestRuns.find(broken.id, '2026-03-10')).toMatchObject({ status: 'failed', error: 'disk I/O error' });
    expect(slackPosts().map((call) => call.args.channel)).toEqual(['C0DIGEST01']);
  });

  it('records a subscription whose platform is not configured as failed, saying what to set', async () => {
    const orphan = await onDiscord();
    const fine = await digest({ postWhenEmpty: true });
    const results = await tickAt(NINE_OSLO, scheduler({ platforms: { slack: platforms().slack } }));
    expect(Object.fromEntries(results.map((result) => [result.digestId, result.outcome]))).toEqual({
      [orphan.id]: 'failed',
      [fine.id]: 'posted',
    });
    expect(await store.digestRuns.find(orphan.id, '2026-03-10')).toMatchObject({
      status: 'failed',
      attempts: 0,
      error: 'Discord is not configured: set DISCORD_TOKEN for the process that posts digests',
    });
    expect(discordPosts()).toHaveLength(0);
  });
});

describe('node-cron', () => {
  it('ticks on a real cron schedule until stopped', async () => {
    const ticker = createScheduler({
      store,
      platforms: platforms(),
      logger: silent,
      cron: '*/1 * * * * *',
    });
    ticker.start();
    try {
      // Subscribed after the first tick at start: only a cron tick can post it. Due a minute ago.
      const minuteAgo = new Date(Date.now() - 60_000);
      const hhmm = minuteAgo.toISOString().slice(11, 16);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await digest({ time: hhmm, timezone: 'UTC', postWhenEmpty: true, channelId: 'C0CRON0001' });
      await slack.waitFor(() => slackPosts().length === 1, 5_000);
    } finally {
      await ticker.stop();
    }
    // Stopped: a digest due now is not posted any more.
    await digest({ time: new Date(Date.now() - 60_000).toISOString().slice(11, 16), timezone: 'UTC', postWhenEmpty: true, channelId: 'C0CRON0002' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(slackPosts().map((call) => call.args.channel)).toEqual(['C0CRON0001']);
  });
});
