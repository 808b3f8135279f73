import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createAccount } from '../src/domain/accounts.js';
import { API_PREFIX, createApp } from '../src/http/app.js';
import { openStore } from '../src/store/index.js';
import { benchAnswers } from './answers.js';
import { benchRetrieval } from './retrieval.js';
import { generateText, seededRandom } from './text.js';

// `npm run bench`: the chat engine against a real hub over HTTP on a SQLite file database.
//  (a) training a 10 MB source through POST /create-chatbot, plus the first question (which builds
//      the index), against baselines measured in the same run: JSON.parse+stringify of the same
//      body, and POST /create-chatbot of a tiny source;
//  (b) time to the first streamed byte and to the complete reply with the offline responder
//      (median of 20), against a GET /get-chatbots round trip.
// Each result is printed in milliseconds and as a ratio to its baseline.

const SOURCE_CHARS = 10 * 1024 * 1024;
const TRAIN_RUNS = 3;
const CHAT_RUNS = 20;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function main(): Promise<void> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  const { apiKey } = await createAccount(store, 'bench', { messagesPerMonth: 1_000_000, maxChatbots: 100 });
  const server = createServer(createApp({ store, logger: pino({ level: 'silent' }) }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };

  const post = async (path: string, body: string): Promise<unknown> => {
    const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  const createBot = async (name: string, sourceText: string) =>
    ((await post('/create-chatbot', JSON.stringify({ chatbotName: name, sourceText }))) as { chatbotId: string }).chatbotId;
  const ask = (chatbotId: string, question: string) =>
    post('/chat', JSON.stringify({ chatbotId, messages: [{ role: 'user', content: question }] })) as Promise<{ text: string }>;

  try {
    // ---- (a) training ------------------------------------------------------------------------
    const source = generateText(SOURCE_CHARS);
    const body = JSON.stringify({ chatbotName: 'Ten megabytes', sourceText: source });
    console.log(`source: ${(source.length / 1024 / 1024).toFixed(1)} MB of text, request body ${(body.length / 1024 / 1024).toFixed(1)} MB`);

    const jsonRoundTrips: number[] = [];
    const tinyCreates: number[] = [];
    const bigCreates: number[] = [];
    const firstQuestions: number[] = [];
    let bigBot = '';
    for (let run = 0; run < TRAIN_RUNS; run += 1) {
      jsonRoundTrips.push((await timed(async () => JSON.stringify(JSON.parse(body)))).ms);
      tinyCreates.push((await timed(() => createBot(`Tiny ${run}`, 'Our shop opens at nine.'))).ms);
      const created = await timed(() => post('/create-chatbot', body) as Promise<{ chatbotId: string }>);
      bigCreates.push(created.ms);
      bigBot = created.value.chatbotId;
      const first = await timed(() => ask(bigBot, 'Who calibrates the dimmer switches in Tallinn?'));
      if (first.value.text.length === 0) throw new Error('empty answer');
      firstQuestions.push(first.ms);
    }
    const trainTotal = bigCreates.map((ms, i) => ms + (firstQuestions[i] as number));

    // ---- (b) replies -------------------------------------------------------------------------
    const handbook = await readFile(new URL('../test/engine/eval/handbook.md', import.meta.url), 'utf8');
    const smallBot = await createBot('Handbook', handbook);
    const random = seededRandom(7);
    const topics = ['damaged parcels', 'warranty claims', 'gift cards', 'dimmer switches', 'solar panels', 'invoices'];
    const places = ['Rotterdam', 'Lyon', 'Porto', 'Tallinn', 'Vienna', 'Aarhus'];
    const bigQuestions = Array.from(
      { length: CHAT_RUNS },
      () => `Who handles ${topics[Math.floor(random() * topics.length)]} in ${places[Math.floor(random() * places.length)]}?`,
    );
    const smallQuestions = [
      'How long is the warranty on lamps?', 'Do your prices include VAT?', 'How can I track my parcel?',
      'Is water damage covered by the warranty?', 'How do I make a warranty claim?',
    ];

    /** Streams one reply: ms to the first body byte and to the end. */
    const streamOnce = async (chatbotId: string, question: string) => {
      const start = performance.now();
      const response = await fetch(`${baseUrl}/chat`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ chatbotId, stream: true, messages: [{ role: 'user', content: question }] }),
      });
      if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}`);
      const reader = response.body.getReader();
      let firstByte: number | undefined;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        firstByte ??= performance.now() - start;
        bytes += value.length;
      }
      if (bytes === 0 || firstByte === undefined) throw new Error('empty stream');
      return { firstByte, complete: performance.now() - start };
    };
    const listOnce = async () => {
      const start = performance.now();
      const response = await fetch(`${baseUrl}/get-chatbots`, { headers });
      await response.text();
      if (response.status !== 200) throw new Error(`get-chatbots answered ${response.status}`);
      return performance.now() - start;
    };

    // Warm up connections and caches so that every series measures the steady state.
    for (let i = 0; i < 5; i += 1) {
      await listOnce();
      await streamOnce(smallBot, smallQuestions[0] as string);
      await streamOnce(bigBot, bigQuestions[0] as string);
    }
    const lists: number[] = [];
    const series = { small: { first: [] as number[], end: [] as number[], whole: [] as number[] }, big: { first: [] as number[], end: [] as number[], whole: [] as number[] } };
    for (let i = 0; i < CHAT_RUNS; i += 1) {
      lists.push(await listOnce());
      for (const [name, bot, question] of [
        ['small', smallBot, smallQuestions[i % smallQuestions.length] as string],
        ['big', bigBot, bigQuestions[i] as string],
      ] as const) {
        const streamed = await streamOnce(bot, question);
        series[name].first.push(streamed.firstByte);
        series[name].end.push(streamed.complete);
        series[name].whole.push((await timed(() => ask(bot, question))).ms);
      }
    }

    // ---- report ------------------------------------------------------------------------------
    const json = median(jsonRoundTrips);
    const tiny = median(tinyCreates);
    const list = median(lists);
    const rows: [string, number, string, number][] = [
      ['(a) create-chatbot, 10 MB source', median(bigCreates), 'JSON parse+stringify 10 MB', json],
      ['(a) first question (index build)', median(firstQuestions), 'JSON parse+stringify 10 MB', json],
      ['(a) train + first question', median(trainTotal), 'JSON parse+stringify 10 MB', json],
      ['(a) train + first question', median(trainTotal), 'create-chatbot, tiny source', tiny],
      ['(b) first streamed byte, 3 KB bot', median(series.small.first), 'GET /get-chatbots', list],
      ['(b) complete stream, 3 KB bot', median(series.small.end), 'GET /get-chatbots', list],
      ['(b) complete {text}, 3 KB bot', median(series.small.whole), 'GET /get-chatbots', list],
      ['(b) first streamed byte, 10 MB bot', median(series.big.first), 'GET /get-chatbots', list],
      ['(b) complete stream, 10 MB bot', median(series.big.end), 'GET /get-chatbots', list],
      ['(b) complete {text}, 10 MB bot', median(series.big.whole), 'GET /get-chatbots', list],
    ];
    const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
    const table = [
      ['measurement', 'median', 'baseline', 'baseline median', 'ratio'],
      ...rows.map(([name, value, baseline, base]) => [name, ms(value), baseline, ms(base), `${(value / base).toFixed(1)}x`]),
    ];
    const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] as string).length))) ?? [];
    const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column] as number)).join('  ');
    console.log(`\nSQLite file database, Node ${process.version}; (a) median of ${TRAIN_RUNS}, (b) median of ${CHAT_RUNS}`);
    console.log(line(table[0] as string[]));
    console.log(widths.map((width) => '-'.repeat(width)).join('  '));
    for (const row of table.slice(1)) console.log(line(row));
    console.log(`\ntotal bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
benchAnswers();
await benchRetrieval();
