import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createAccount } from '../src/domain/accounts.js';
import { createChatEngine } from '../src/engine/index.js';
import { buildLexicalIndex, lexicalSearcher } from '../src/engine/lexical-index.js';
import { createRetriever } from '../src/engine/retrieval.js';
import { API_PREFIX, createApp } from '../src/http/app.js';
import { openStore } from '../src/store/index.js';
import { generateText } from './text.js';

// Retrieval's lifecycle on a 10 MB source, through a real hub on a SQLite file database:
//  - training (POST /create-chatbot: chunking and the index build, in the worker), timed while a
//    client sends GET /healthz back to back: its worst and p99 latency meanwhile, against the same
//    probe on an idle hub (the baseline). "Before" is the build done on the event loop, as it was.
//  - cold start: a new process's first question (stored index read and prepared) against the
//    full build from the chunks;
//  - the cache: the bytes the cache counts for the bot, and the heap it actually takes.

const SOURCE_CHARS = 10 * 1024 * 1024;
const IDLE_PROBES = 200;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

/** Sends GET /healthz back to back until `until` settles; answers every latency. */
async function probeWhile(url: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) latencies.push((await timed(() => fetch(url).then((res) => res.text()))).ms);
  return latencies;
}

export async function benchRetrieval(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-retrieval-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  const { apiKey } = await createAccount(store, 'bench', { messagesPerMonth: 1_000_000, maxChatbots: 100 });
  const engine = createChatEngine(store);
  const server = createServer(createApp({ store, logger: pino({ level: 'silent' }), engine }).callback());
  // Longer than the pauses between measurements, so the probe's kept-alive socket stays open.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const healthz = `${origin}/healthz`;
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const rows: [string, string][] = [];

  try {
    const source = generateText(SOURCE_CHARS);
    const body = JSON.stringify({ chatbotName: 'Ten megabytes', sourceText: source });
    const idle = await probeWhile(healthz, timed(async () => {
      for (let i = 0; i < IDLE_PROBES; i += 1) await fetch(healthz).then((res) => res.text());
    }));
    rows.push(['/healthz idle: p99 / worst (baseline)', `${ms(percentile(idle, 99))} / ${ms(Math.max(...idle))}`]);

    // Training: the create request chunks, stores and indexes the source before it answers.
    const training = timed(() => fetch(`${origin}${API_PREFIX}/create-chatbot`, { method: 'POST', headers, body }).then((res) => res.json()));
    const duringTraining = await probeWhile(healthz, training);
    const { chatbotId } = (await training).value as { chatbotId: string };
    rows.push(['training 10 MB (POST /create-chatbot, with the index)', ms((await training).ms)]);
    rows.push(['/healthz meanwhile: p99 / worst', `${ms(percentile(duringTraining, 99))} / ${ms(Math.max(...duringTraining))}`]);

    const material = await store.training.material(chatbotId);
    const onLoop = await timed(() => lexicalSearcher(buildLexicalIndex(material.chunks)));
    rows.push(['before: build on the event loop (= the stall)', ms(onLoop.ms)]);

    // Cold start: a new process (a new retriever) finds the stored index.
    const heapBefore = process.memoryUsage().heapUsed;
    const restarted = createRetriever(store);
    const coldStart = timed(() => restarted.search(chatbotId, 'Who calibrates the dimmer switches in Tallinn?'));
    const duringColdStart = await probeWhile(healthz, coldStart);
    rows.push(['cold start: first question, stored index', ms((await coldStart).ms)]);
    rows.push(['/healthz meanwhile: p99 / worst', `${ms(percentile(duringColdStart, 99))} / ${ms(Math.max(...duringColdStart))}`]);
    const nothingStored = { ...store.retrieval, index: async () => undefined, saveIndex: async () => {} };
    const rebuilt = await timed(() =>
      createRetriever({ ...store, retrieval: nothingStored }).search(chatbotId, 'Who calibrates the dimmer switches?'),
    );
    rows.push(['cold start without a stored index (full build)', ms(rebuilt.ms)]);
    const warm = await timed(() => restarted.search(chatbotId, 'Who calibrates the dimmer switches in Tallinn?'));
    rows.push(['warm: a question, index cached', ms(warm.ms)]);
    rows.push(['cache: bytes counted for the 10 MB bot (INDEX_CACHE_MB)', mb(restarted.cachedBytes())]);
    rows.push(['cache: heap growth with it loaded (approximate)', mb(process.memoryUsage().heapUsed - heapBefore)]);

    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`\nretrieval lifecycle, 10 MB source, SQLite file database, Node ${process.version}`);
    for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
  } finally {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
