import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubClient } from '../../adapters/hub-client.js';
import { NOT_BOUND } from '../../adapters/relay.js';
import { startFakeDiscord, user, type FakeDiscord } from '../fakes/discord.js';
import { createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { startMain, stop, tempDatabaseUrl } from '../support/processes.js';
import { storeTargets } from '../support/stores.js';

// The Discord adapter as it is run: inside `npm start`, and as the Procfile's own `discord`
// process, both against the fake Discord.

const TOKEN = 'fake-discord-token.for-process-tests';
const BOOTSTRAP = 'sb_bootstrap_key_for_discord_tests_00';
const sqlite = storeTargets[0];
if (!sqlite) throw new Error('no sqlite store target');

/** Starts `adapters/discord/main.ts` with only the given adapter variables set. */
function startAdapter(env: Record<string, string>): { child: ChildProcess; output: () => string; errors: () => string } {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(DISCORD_|HUB_|BOOTSTRAP_API_KEY|PORT$|METRICS_TOKEN$)/.test(name)),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'adapters/discord/main.ts'], {
    env: { ...inherited, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  return { child, output: () => output, errors: () => errors };
}

describe('Discord adapter processes', () => {
  let discord: FakeDiscord;
  const alice = user('alice');

  beforeAll(async () => {
    discord = await startFakeDiscord({ token: TOKEN });
  });
  afterAll(async () => {
    await discord?.close();
  });

  /**
   * Waits for a connected, identified client with /chatbot registered (more registrations than
   * `registered`, counted before the process started), then checks it answers.
   */
  async function expectServing(apiUrl: string, apiKey: string, registered: number): Promise<void> {
    await discord.until('an identified client', () => discord.connected() && discord.registeredCommands.length > registered, 15_000);
    const channel = discord.createChannel('text', 'process');
    const unbound = discord.say(channel, alice, `<@${discord.bot.id}> hello`);
    await discord.until('the unbound notice', () =>
      discord.history(channel.id).find((item) => item.message_reference?.message_id === unbound.id && item.content === NOT_BOUND),
    );
    const hub = createHubClient(apiUrl, apiKey);
    const chatbotId = await createChatbotViaApi({ baseUrl: apiUrl, apiKey }, 'Shop', 'The shop opens at nine every morning.');
    await hub.bind({ platform: 'discord', workspaceId: discord.guildId, channelId: channel.id, chatbotId, mode: 'all' });
    const question = discord.say(channel, alice, 'When does the shop open?');
    const answer = await discord.until('an answer from the offline responder', () =>
      discord.history(channel.id).find((item) => item.message_reference?.message_id === question.id),
    );
    expect(answer.content).toMatch(/nine/);
  }

  it('runs inside npm start when DISCORD_TOKEN is set, and stops with it', async () => {
    const registered = discord.registeredCommands.length;
    const started = await startMain({
      DATABASE_URL: tempDatabaseUrl(),
      BOOTSTRAP_API_KEY: BOOTSTRAP,
      DISCORD_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_APPLICATION_ID: discord.applicationId,
    });
    try {
      await expectServing(started.apiUrl, BOOTSTRAP, registered);
    } finally {
      expect(await stop(started.child)).toBe(0);
    }
    await discord.until('the gateway closed', () => !discord.connected());
    expect(started.output()).not.toContain(TOKEN);
    expect(discord.violations.splice(0)).toEqual([]);
  });

  it('runs as its own process with HUB_URL and HUB_API_KEY; npm start then leaves Discord alone', async () => {
    const app: TestApp = await startApp(sqlite);
    const gatewayCalls = () => discord.requests.filter((item) => item.path === '/gateway/bot').length;
    const before = gatewayCalls();
    const registered = discord.registeredCommands.length;
    const web = await startMain({
      DATABASE_URL: tempDatabaseUrl(),
      BOOTSTRAP_API_KEY: BOOTSTRAP,
      DISCORD_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      HUB_URL: app.origin,
    });
    const adapter = startAdapter({
      DISCORD_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      HUB_URL: app.origin,
      HUB_API_KEY: app.apiKey,
      PORT: '0',
      METRICS_TOKEN: 'scrape-token',
    });
    try {
      await expectServing(app.baseUrl, app.apiKey, registered);
      expect(gatewayCalls()).toBe(before + 1);
      // Its counters are scraped on PORT, as the web process's are.
      const origin = `http://127.0.0.1:${/"port":(\d+),"msg":"serving \/healthz and \/metrics"/.exec(adapter.output())?.[1]}`;
      expect((await fetch(`${origin}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${origin}/metrics`, { headers: { Authorization: 'Bearer scrape-token' } });
      expect(await scraped.text()).toMatch(/^switchboard_platform_events_total\{platform="discord",event="message"\} [1-9]/m);
      expect(web.output()).toContain('HUB_URL is set: the Discord adapter runs as its own process');
    } finally {
      expect(await stop(adapter.child)).toBe(0);
      expect(await stop(web.child)).toBe(0);
      await app.close();
    }
    expect(adapter.output()).not.toContain(TOKEN);
    expect(discord.violations.splice(0)).toEqual([]);
  });

  it('idles without HUB_URL (npm start runs the adapter), and exits 1 on a bad token', async () => {
    const requests = discord.requests.length;
    const idle = startAdapter({ DISCORD_TOKEN: TOKEN, DISCORD_API_URL: discord.apiUrl });
    await discord.until('the idle notice', () => idle.output().includes('the Discord adapter runs inside `npm start`'));
    await sleep(200);
    expect(idle.child.exitCode).toBeNull();
    expect(discord.requests.length).toBe(requests);
    expect(await stop(idle.child)).toBe(0);

    const refused = startAdapter({
      DISCORD_TOKEN: 'not-the-token',
      DISCORD_API_URL: discord.apiUrl,
      HUB_URL: 'http://127.0.0.1:9',
      HUB_API_KEY: 'sb_unused',
    });
    const code = await new Promise<number | null>((resolve) => refused.child.once('exit', resolve));
    expect({ code, said: refused.errors() }).toEqual({
      code: 1,
      said: "The Discord adapter could not start: Discord refused the token DISCORD_TOKEN holds: set it to the bot's current token.\n",
    });
    expect(refused.output()).not.toMatch(/"level":60|"stack"/);
    expect(refused.output()).not.toContain('not-the-token');
    expect(discord.requests.at(-1)).toMatchObject({ path: '/gateway/bot', status: 401 });
  });

  it('refuses to start without HUB_API_KEY in one plain sentence, exiting 1', async () => {
    const refused = startAdapter({ DISCORD_TOKEN: TOKEN, DISCORD_API_URL: discord.apiUrl, HUB_URL: 'http://127.0.0.1:9' });
    const code = await new Promise<number | null>((resolve) => refused.child.once('exit', resolve));
    expect({ code, output: refused.output() }).toEqual({
      code: 1,
      output: 'The Discord adapter could not start: Invalid configuration:\n  HUB_API_KEY: required with HUB_URL: the adapter needs an API key of the hub\n',
    });
  });
});
