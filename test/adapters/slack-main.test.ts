import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHubClient } from '../../adapters/hub-client.js';
import {
  APP_TOKEN,
  BOT_TOKEN,
  BOT_USER,
  deliver,
  eventEnvelope,
  mentionEvent,
  messageEvent,
  SIGNING_SECRET,
  startFakeSlack,
  TEAM,
  type FakeSlack,
} from '../fakes/slack.js';
import { createChatbotViaApi, startApp } from '../support/http.js';
import { startMain, stop, tempDatabaseUrl } from '../support/processes.js';
import { storeTargets } from '../support/stores.js';

// The Slack adapter where it runs for real: inside `npm start` (POST /slack/events on the hub's
// own port) and as the Procfile's `slack` process, each against fake Slack.

const sqlite = storeTargets.find((target) => target.name === 'sqlite');
if (!sqlite) throw new Error('the SQLite store target is missing');

const KEY = 'sb_bootstrap_key_for_slack_tests_0001';
const CHANNEL = 'C0PROCESS1';
const ALICE = 'U0ALICE001';

/** Env that keeps the child from inheriting adapter settings of the machine running the tests. */
const CLEAN_ENV = {
  HUB_URL: '',
  HUB_API_KEY: '',
  SLACK_APP_TOKEN: '',
  DISCORD_TOKEN: '',
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
};

async function until(output: () => string, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${output()}`);
    await sleep(25);
  }
}

/** Mentions the bot in CHANNEL and waits for the reply in the thread. */
async function mentionAndWait(slack: FakeSlack, eventsUrl: string) {
  slack.addUser({ id: ALICE, name: 'alice', realName: 'Alice Andersen', email: 'alice@example.com' });
  const message = slack.userMessage({ channel: CHANNEL, user: ALICE, text: `<@${BOT_USER}> When does the shop open?` });
  const response = await deliver(eventsUrl, JSON.stringify(eventEnvelope(mentionEvent(message))), 'application/json');
  expect(response.status).toBe(200);
  return slack.waitFor(() => slack.botReplies(CHANNEL, message.ts)[0], 10_000);
}

describe('Slack adapter processes', () => {
  it('`npm start` serves Slack at POST /slack/events on its own port', async () => {
    const slack = await startFakeSlack();
    onTestFinished(() => slack.close());
    const started = await startMain({
      ...CLEAN_ENV,
      DATABASE_URL: tempDatabaseUrl(),
      BOOTSTRAP_API_KEY: KEY,
      SLACK_API_URL: slack.apiUrl,
    });
    onTestFinished(async () => void (await stop(started.child)));
    await until(started.output, /Slack adapter is running/);
    const eventsUrl = `${new URL(started.apiUrl).origin}/slack/events`;

    const challenge = JSON.stringify({ token: 'x', challenge: 'abc123', type: 'url_verification' });
    const verified = await deliver(eventsUrl, challenge, 'application/json');
    expect(await verified.json()).toEqual({ challenge: 'abc123' });
    expect((await deliver(eventsUrl, challenge, 'application/json', { secret: 'wrong' })).status).toBe(401);

    const hub = createHubClient(started.apiUrl, KEY);
    const chatbotId = await createChatbotViaApi({ baseUrl: started.apiUrl, apiKey: KEY });
    await hub.bind({ platform: 'slack', workspaceId: TEAM, channelId: CHANNEL, chatbotId, mode: 'mentions' });
    const reply = await mentionAndWait(slack, eventsUrl);
    expect(reply.text).toMatch(/nine/i);
    // Bolt's token check, and the adapter's for the team whose handoff notices it posts.
    expect(slack.callsTo('auth.test').map((c) => c.token)).toEqual([BOT_TOKEN, BOT_TOKEN]);
    expect(await stop(started.child)).toBe(0);
  });

  it('two `npm start` processes on one database answer a message once, and either follows up its thread', async () => {
    const slack = await startFakeSlack();
    onTestFinished(() => slack.close());
    const env = { ...CLEAN_ENV, DATABASE_URL: tempDatabaseUrl(), BOOTSTRAP_API_KEY: KEY, SLACK_API_URL: slack.apiUrl };
    const hubs = [await startMain(env), await startMain(env)];
    for (const started of hubs) onTestFinished(async () => void (await stop(started.child)));
    for (const started of hubs) await until(started.output, /Slack adapter is running/);
    const [first, second] = hubs.map((started) => `${new URL(started.apiUrl).origin}/slack/events`) as [string, string];
    const chatbotId = await createChatbotViaApi({ baseUrl: hubs[0]?.apiUrl ?? '', apiKey: KEY });
    await createHubClient(hubs[0]?.apiUrl ?? '', KEY).bind({ platform: 'slack', workspaceId: TEAM, channelId: CHANNEL, chatbotId, mode: 'mentions' });

    // Behind a load balancer one event (a retry, say) may reach both processes: one answers it.
    slack.addUser({ id: ALICE, name: 'alice', realName: 'Alice Andersen', email: 'alice@example.com' });
    const question = slack.userMessage({ channel: CHANNEL, user: ALICE, text: `<@${BOT_USER}> When does the shop open?` });
    const mention = JSON.stringify(eventEnvelope(mentionEvent(question)));
    for (const url of [first, second]) expect((await deliver(url, mention, 'application/json')).status).toBe(200);
    await slack.waitFor(() => slack.botReplies(CHANNEL, question.ts)[0], 10_000);
    expect(await stop(hubs[0]?.child as ChildProcess)).toBe(0);

    // The first process is gone; the second knows the thread from the database and follows it up.
    const followUp = slack.userMessage({ channel: CHANNEL, user: ALICE, text: 'And on Saturdays?', thread_ts: question.ts });
    expect((await deliver(second, JSON.stringify(eventEnvelope(messageEvent(followUp))), 'application/json')).status).toBe(200);
    await slack.waitFor(() => slack.botReplies(CHANNEL, question.ts).length >= 2, 10_000);
    await sleep(300);
    expect(slack.botReplies(CHANNEL, question.ts)).toHaveLength(2);
  });

  it('`npm start` with a bot token Slack refuses keeps serving the API and says why in one sentence', async () => {
    const slack = await startFakeSlack();
    onTestFinished(() => slack.close());
    const started = await startMain({
      ...CLEAN_ENV,
      SLACK_BOT_TOKEN: 'xoxb-not-the-token',
      DATABASE_URL: tempDatabaseUrl(),
      BOOTSTRAP_API_KEY: KEY,
      SLACK_API_URL: slack.apiUrl,
    });
    onTestFinished(async () => void (await stop(started.child)));
    const [line] = await until(started.output, /^.*Slack adapter could not start.*$/m);
    expect(JSON.parse(line)).toMatchObject({
      level: 50,
      msg: "the Slack adapter could not start: Slack refused the token SLACK_BOT_TOKEN holds (invalid_auth): set it to the app's current token.",
    });
    expect(line).not.toContain('"err"');
    expect((await fetch(`${started.apiUrl}/get-chatbots`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
  });

  it('`npm start` without Slack settings does not serve /slack/events', async () => {
    const started = await startMain({ DATABASE_URL: tempDatabaseUrl(), BOOTSTRAP_API_KEY: KEY, SLACK_BOT_TOKEN: '' });
    onTestFinished(async () => void (await stop(started.child)));
    const eventsUrl = `${new URL(started.apiUrl).origin}/slack/events`;
    expect((await deliver(eventsUrl, '{"type":"url_verification","challenge":"x"}', 'application/json')).status).toBe(404);
  });

  it('runs as its own process (Procfile `slack`), reaching the hub at HUB_URL', async () => {
    const slack = await startFakeSlack();
    onTestFinished(() => slack.close());
    const app = await startApp(sqlite as NonNullable<typeof sqlite>);
    onTestFinished(() => app.close());
    const hub = createHubClient(app.baseUrl, app.apiKey);
    const chatbotId = await createChatbotViaApi(app);
    await hub.bind({ platform: 'slack', workspaceId: TEAM, channelId: CHANNEL, chatbotId, mode: 'mentions' });

    const child = spawnSlack({ ...CLEAN_ENV, HUB_URL: app.origin, HUB_API_KEY: app.apiKey, SLACK_API_URL: slack.apiUrl, METRICS_TOKEN: 'scrape-token' });
    onTestFinished(async () => void (await stop(child.process)));
    const [, port] = await until(child.output, /"port":(\d+),"path":"\/slack\/events"/);
    await until(child.output, /Slack adapter is running/);
    const reply = await mentionAndWait(slack, `http://127.0.0.1:${port}/slack/events`);
    expect(reply.text).toMatch(/nine/i);
    // Its counters are scraped on the same port, as the web process's are.
    expect(await scrape(`http://127.0.0.1:${port}`, 'scrape-token')).toMatch(/^switchboard_platform_events_total\{platform="slack",event="app_mention"\} 1$/m);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await stop(child.process)).toBe(0);
  });

  it('in socket mode serves GET /metrics and /healthz on PORT when it is set', async () => {
    const slack = await startFakeSlack();
    onTestFinished(() => slack.close());
    const app = await startApp(sqlite as NonNullable<typeof sqlite>);
    onTestFinished(() => app.close());
    const child = spawnSlack({ ...CLEAN_ENV, SLACK_APP_TOKEN: APP_TOKEN, HUB_URL: app.origin, HUB_API_KEY: app.apiKey, SLACK_API_URL: slack.apiUrl });
    onTestFinished(async () => void (await stop(child.process)));
    const [, port] = await until(child.output, /"port":(\d+),"msg":"serving \/healthz and \/metrics"/);
    await until(child.output, /Slack adapter is running/);
    expect(await scrape(`http://127.0.0.1:${port}`)).toContain('# TYPE switchboard_platform_events_total counter');
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await stop(child.process)).toBe(0);
  });

  it('as its own process stays idle when HUB_URL is unset (npm start runs the adapter then)', async () => {
    const child = spawnSlack({ ...CLEAN_ENV, SLACK_API_URL: 'http://127.0.0.1:9/api/' });
    onTestFinished(async () => void (await stop(child.process)));
    await until(child.output, /HUB_URL is not set: the Slack adapter runs inside `npm start`; this process stays idle/);
    expect(child.process.exitCode).toBeNull();
    expect(await stop(child.process)).toBe(0);
  });

  /** A port another process listens on. */
  const taken = { port: 0 };
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, resolve));
    taken.port = (server.address() as AddressInfo).port;
    return () => new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each([
    ['SLACK_BOT_TOKEN', 'http', { SLACK_BOT_TOKEN: 'xoxb-not-the-token' }],
    ['SLACK_BOT_TOKEN', 'socket', { SLACK_BOT_TOKEN: 'xoxb-not-the-token', SLACK_APP_TOKEN: APP_TOKEN }],
    ['SLACK_APP_TOKEN', 'socket', { SLACK_APP_TOKEN: 'xapp-not-the-token' }],
  ])('as its own process refuses a %s Slack refuses (%s mode) in one plain sentence, exiting 1', async (variable, _mode, tokens) => {
    const slack = await startFakeSlack();
    onTestFinished(() => slack.close());
    const child = spawnSlack({ ...CLEAN_ENV, HUB_URL: 'http://127.0.0.1:9', HUB_API_KEY: 'sb_unused', SLACK_API_URL: slack.apiUrl, ...tokens });
    const code = await new Promise<number | null>((resolve) => child.process.once('exit', resolve));
    expect({ code, said: child.errors() }).toEqual({
      code: 1,
      said: `The Slack adapter could not start: Slack refused the token ${variable} holds (invalid_auth): set it to the app's current token.\n`,
    });
    expect(child.output()).not.toMatch(/"level":60|"stack"/);
    expect(child.output()).not.toContain('not-the-token');
  });

  it.each([
    ['a missing HUB_API_KEY', () => ({ PORT: '0', HUB_API_KEY: '' }), () => 'Invalid configuration:\n  HUB_API_KEY: required with HUB_URL: the adapter needs an API key of the hub'],
    ['a port in use', () => ({ PORT: String(taken.port) }), () => `listen EADDRINUSE: address already in use :::${taken.port}: another process listens on PORT.`],
  ])('as its own process refuses to start on %s in one plain sentence, exiting 1', async (_name, env, why) => {
    const child = spawnSlack({ ...CLEAN_ENV, HUB_URL: 'http://127.0.0.1:9', HUB_API_KEY: 'sb_unused', SLACK_API_URL: 'http://127.0.0.1:9/api/', ...env() });
    const code = await new Promise<number | null>((resolve) => child.process.once('exit', resolve));
    expect({ code, output: child.output() }).toEqual({ code: 1, output: `The Slack adapter could not start: ${why()}\n` });
  });
});

async function scrape(origin: string, token?: string): Promise<string> {
  const response = await fetch(`${origin}/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(response.status).toBe(200);
  return response.text();
}

function spawnSlack(env: Record<string, string>): { process: ChildProcess; output: () => string; errors: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'adapters/slack/main.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  return { process: child, output: () => output, errors: () => errors };
}
