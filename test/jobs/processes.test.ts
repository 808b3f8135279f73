import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Digest } from '../../src/store/port.js';
import { BOT_TOKEN, startFakeSlack, type FakeSlack } from '../fakes/slack.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { startMain, stop, tempDatabaseUrl } from '../support/processes.js';
import { seedDigest } from './helpers.js';

// The scheduler as it is deployed: the Procfile's `clock` process, and inside `npm start`. Each
// posts a digest that is due when it starts (the catch-up), and exits 0 on SIGTERM.

let slack: FakeSlack;
let databaseUrl: string;
let subscription: Digest;
/** The local (UTC) date of the occurrence that is due. */
let dueDate: string;

const slackEnv = () => ({
  DATABASE_URL: databaseUrl,
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: 'digest-test-signing-secret',
  SLACK_API_URL: slack.apiUrl,
  // Adapters run as their own processes: `npm start` here is the API and the scheduler only.
  HUB_URL: 'http://127.0.0.1:9',
  LOG_LEVEL: 'info',
});

async function lastRun() {
  const store = await openStore(databaseUrl);
  try {
    return await store.digestRuns.find(subscription.id, dueDate);
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  slack = await startFakeSlack();
  databaseUrl = tempDatabaseUrl();
  const store = await openStore(databaseUrl);
  const account = await seedAccount(store);
  const chatbot = await seedChatbot(store, account);
  // Due a minute ago (UTC), so the first tick at start posts it.
  const minuteAgo = new Date(Date.now() - 60_000).toISOString();
  dueDate = minuteAgo.slice(0, 10);
  subscription = await seedDigest(store, account, chatbot, { time: minuteAgo.slice(11, 16), timezone: 'UTC', postWhenEmpty: true });
  await store.close();
});
afterEach(async () => {
  await slack.close();
});

describe('deployment', () => {
  it('the clock process posts what is due at start and exits 0 on SIGTERM', async () => {
    const { child, output } = spawnClock();
    try {
      await slack.waitFor(() => slack.callsTo('chat.postMessage').length === 1, 15_000);
      await slack.waitFor(() => output().includes('lead digest posted'), 5_000);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    expect(output()).toContain('clock started');
    // Without PORT it listens nowhere (another process of the host may hold the port).
    expect(output()).not.toContain('serving /healthz and /metrics');
    expect(output()).not.toContain(BOT_TOKEN);
    expect(await lastRun()).toMatchObject({ status: 'posted', attempts: 1 });
  });

  it('the clock process serves its counters at GET /metrics on PORT, only with METRICS_TOKEN', async () => {
    const { child, output } = spawnClock({ PORT: '0', METRICS_TOKEN: 'scrape-token' });
    try {
      await slack.waitFor(() => output().includes('lead digest posted'), 15_000);
      const origin = `http://127.0.0.1:${/"port":(\d+),"msg":"serving \/healthz and \/metrics"/.exec(output())?.[1]}`;
      expect((await fetch(`${origin}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${origin}/metrics`, { headers: { Authorization: 'Bearer scrape-token' } });
      expect(await scraped.text()).toContain('switchboard_digest_runs_total{platform="slack",status="posted"} 1');
      expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ok' });
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it('the clock process works on when another process holds its PORT, saying that it serves no /metrics', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const { child, output } = spawnClock({ PORT: String((taken.address() as AddressInfo).port) });
    try {
      await slack.waitFor(() => output().includes('lead digest posted'), 15_000);
      expect(output()).toContain('another process listens on PORT: /healthz and /metrics are not served by this one');
    } finally {
      expect(await stop(child)).toBe(0);
      taken.close();
    }
  });

  it('`npm start` and two clock processes on one database post a due digest once', async () => {
    const clocks = [spawnClock(), spawnClock()];
    const web = await startMain(slackEnv());
    const outputs = [...clocks.map((clock) => clock.output), web.output];
    try {
      await slack.waitFor(() => outputs.some((output) => output().includes('lead digest posted')), 15_000);
      // Every process has started its scheduler, whose first tick runs at once and finds the run taken.
      await slack.waitFor(() => outputs.every((output) => output().includes('lead digest scheduler started')), 15_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      for (const child of [...clocks.map((clock) => clock.child), web.child]) expect(await stop(child)).toBe(0);
    }
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
    expect(await lastRun()).toMatchObject({ status: 'posted', attempts: 1 });
  });

  it('`npm start` runs the scheduler too', async () => {
    const started = await startMain(slackEnv());
    try {
      await slack.waitFor(() => slack.callsTo('chat.postMessage').length === 1, 10_000);
      await slack.waitFor(() => started.output().includes('lead digest posted'), 5_000);
      const metrics = await (await fetch(`${new URL(started.apiUrl).origin}/metrics`)).text();
      expect(metrics).toContain('switchboard_digest_runs_total{platform="slack",status="posted"} 1');
    } finally {
      expect(await stop(started.child)).toBe(0);
    }
    expect(await lastRun()).toMatchObject({ status: 'posted' });
  });
});

/** The Procfile's `clock` process on the test's database and fake Slack. */
function spawnClock(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'jobs/main.ts'], {
    env: { ...process.env, PORT: '', ...slackEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}
