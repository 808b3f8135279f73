import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEvents, type EventReader } from '../test/support/events.js';
import { startBenchHub, type BenchHub } from './hub.js';
import { cpuPerRequest, median, quantile, type Request } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { serve, type Served } from './servers.js';

// Human handoff in the widget: how long a team member's reply, taken in by one hub process,
// takes to reach a widget whose event stream is on another process of the same SQLite database
// (the goal: 1 s at the 95th percentile), against the same reply over a stream on the
// process that took it in. Each reply is sent at a random moment, so it meets the pollers at
// any point of their 250 ms cycle. Then what following a handoff costs the hub while nothing
// happens: its CPU per open stream against a browser polling the conversation's history route
// as often.

const SEND_SPREAD_MS = 300;
const POLLS_PER_SECOND = 4;

type Hubs = { hub: BenchHub; other: Served };

async function post(request: Request): Promise<unknown> {
  const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body });
  const answer = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${request.url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

const onOrigin = (request: Request, origin: string): Request => ({ ...request, url: request.url.replace(/^https?:\/\/[^/]+/, origin) });
const widgetConversation = (origin: string, chatbotId: string, conversationId: string) =>
  `${origin}/widget/chatbots/${chatbotId}/conversations/${conversationId}`;

type Followed = { conversationId: string; events: EventReader };

/** A widget conversation handed to the team with its button, and its event stream on `origin`. */
async function handedOff({ hub }: Hubs, chatbotId: string, origin: string): Promise<Followed> {
  const conversationId = `wc_${randomBytes(18).toString('base64url')}`;
  const conversation = widgetConversation(hub.served.origin, chatbotId, conversationId);
  const asked = (await post({ url: `${conversation}/handoff`, headers: { 'Content-Type': 'application/json' }, body: '{}' })) as {
    messages: { id: string }[];
  };
  const streamed = await openEvents(`${widgetConversation(origin, chatbotId, conversationId)}/events?after=${asked.messages.at(-1)?.id}`);
  if (streamed.status !== 200) throw new Error(`the event stream answered ${streamed.status}`);
  await streamed.events.next();
  return { conversationId, events: streamed.events };
}

/** Milliseconds from `start` until the reply `text` arrives on `stream`. */
async function arrival(stream: EventReader, text: string, start: number): Promise<number> {
  await stream.until((events) => events.some((event) => (event.data as { content?: string } | null)?.content === text));
  return performance.now() - start;
}

async function latencies(hubs: Hubs, chatbotId: string, replies: number) {
  const { hub, other } = hubs;
  const { conversationId, events: elsewhere } = await handedOff(hubs, chatbotId, hub.served.origin);
  const sameStream = await openEvents(`${widgetConversation(other.origin, chatbotId, conversationId)}/events`);
  await sameStream.events.next();
  const reply = (text: string) =>
    onOrigin(hub.post(`/chatbots/${chatbotId}/conversations/${conversationId}/handoff/messages`, { name: 'Ada', text }), other.origin);
  const toOther: number[] = [];
  const toSame: number[] = [];
  try {
    for (let i = 0; i < replies; i += 1) {
      await sleep(Math.random() * SEND_SPREAD_MS);
      const text = `Reply ${i}`;
      const start = performance.now();
      const [otherMs, sameMs] = await Promise.all([arrival(elsewhere, text, start), arrival(sameStream.events, text, start), post(reply(text))]);
      toOther.push(otherMs);
      toSame.push(sameMs);
    }
  } finally {
    elsewhere.close();
    sameStream.events.close();
  }
  return { toOther, toSame };
}

/** CPU µs per second per open stream on a quiet handoff, and a browser polling the history route as often. */
async function idleCost(hubs: Hubs, chatbotId: string, streams: number, seconds: number) {
  const { hub } = hubs;
  const opened: Followed[] = [];
  try {
    for (let i = 0; i < streams; i += 1) opened.push(await handedOff(hubs, chatbotId, hub.served.origin));
    const before = await hub.served.cpuMicros();
    await sleep(seconds * 1000);
    const perStream = ((await hub.served.cpuMicros()) - before) / seconds / streams;
    const history = { url: widgetConversation(hub.served.origin, chatbotId, opened[0]?.conversationId ?? '') };
    const perPoll = await cpuPerRequest(hub.served, history, 2_000, 1);
    return { perStream, polling: perPoll * POLLS_PER_SECOND };
  } finally {
    for (const { events } of opened) events.close();
  }
}

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const hub = await startBenchHub();
  const other = await serve('hub', { DATABASE_URL: hub.databaseUrl, LOG_LEVEL: 'info' });
  const hubs = { hub, other };
  try {
    const chatbotId = await hub.createChatbot('Handoff', 'The shop opens at nine in the morning.');
    await post(hub.post('/update-chatbot-settings', { chatbotId, visibility: 'public', ipLimit: 0, handoff: { enabled: true, waitMinutes: 600, idleMinutes: 600 } }));
    const { toOther, toSame } = await latencies(hubs, chatbotId, quick ? 100 : 300);
    const streams = quick ? 50 : 200;
    const { perStream, polling } = await idleCost(hubs, chatbotId, streams, quick ? 3 : 10);
    const baseline = 'the same reply over a stream on the hub that took it in';
    return [
      { name: `team reply to a widget on another hub, p50 (${toOther.length} replies)`, value: median(toOther), unit: 'ms', baseline, baselineValue: median(toSame) },
      {
        name: `team reply to a widget on another hub, p95 (${toOther.length} replies)`,
        value: quantile(toOther, 0.95),
        unit: 'ms',
        baseline,
        baselineValue: quantile(toSame, 0.95),
        goal: { atMost: 1000, of: 'value' },
      },
      {
        name: `CPU per quiet handoff stream per second (${streams} open)`,
        value: perStream,
        unit: 'µs',
        baseline: `the browser polling the history route ${POLLS_PER_SECOND} times a second`,
        baselineValue: polling,
        goal: { atMost: 1 },
      },
    ];
  } finally {
    await other.stop();
    await hub.dispose();
  }
}

export const handoffSection: Section = { name: 'handoff: team replies to the widget across hub processes', run };
