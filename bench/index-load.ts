import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount } from '../src/domain/accounts.js';
import { createChatbot } from '../src/domain/chatbots.js';
import { chunkText } from '../src/engine/chunking.js';
import { unpackIndex } from '../src/engine/index-layout.js';
import { lexicalSearcher } from '../src/engine/lexical-index.js';
import { createRetriever } from '../src/engine/retrieval.js';
import { openStore } from '../src/store/index.js';
import { median, watched } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { generateText } from './text.js';

// A 30 MB material's index (three text sources of 10 MB) as a restarted or second hub loads it:
// read from the store (a SQLite file database), made searchable and asked its first questions,
// one of them needing the word vectors ("laptops" is no word of the material), with the event
// loop watched; and, apart, the index's own share of that: its bytes made searchable and asked the
// same questions, each step timed (each one holds the loop from start to end), without the store's
// reads and the collections of the garbage they leave. Both against what making a searcher did
// before its index carried its lookup tables, measured in the same run: the vocabulary decoded
// into a Map of term ids. The process has answered a question of another chatbot before: what the
// first question of a process loads whatever its index (the word vectors, WordNet) is not the index's.

const SOURCES = 3;
const SOURCE_CHARS = 10 * 1024 * 1024;
const QUESTIONS = ['Does the night shift repair laptops in Tallinn?', 'Who calibrates the dimmer switches at the Lyon depot?'];

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 3;
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  try {
    const { account } = await createAccount(store, 'bench', { messagesPerMonth: 1_000_000, maxChatbots: 10 });
    const chatbot = await createChatbot(store, account, { name: 'Thirty megabytes' });
    const chunks = Array.from({ length: SOURCES }, (_, k) => {
      const source = { id: `source-${k}`, title: `Manual ${k}`, type: 'text' as const };
      return chunkText(generateText(SOURCE_CHARS, k + 1)).map((text) => ({ text, source }));
    }).flat();
    await store.training.replace(chatbot.id, { chunks });
    // Built on the worker and stored, as training does; its bytes kept for the baseline.
    let index: Uint8Array = new Uint8Array();
    const { retrieval } = store;
    const keeping = { ...retrieval, saveIndex: (id: string, key: string, bytes: Uint8Array) => retrieval.saveIndex(id, key, (index = bytes)) };
    await (await createRetriever({ ...store, retrieval: keeping }).prepare(chatbot.id)).stored;
    const small = await createChatbot(store, account, { name: 'Small' });
    await store.training.replace(small.id, { chunks: ['Our shop opens at nine. We repair bikes.'] });
    await createRetriever(store).search(small.id, 'Do you repair laptops?');

    const loads: number[] = [];
    const steps: number[] = [];
    const baselines: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      // A new retriever is a process that has not read the index yet.
      const restarted = createRetriever(store);
      const { longestWaitMs } = await watched(async () => {
        for (const question of QUESTIONS) await restarted.search(chatbot.id, question);
        // A hold at the very end is recorded when the monitor's timer next fires.
        await sleep(20);
      });
      loads.push(longestWaitMs);
      steps.push(longestStepMs(index));
      baselines.push(vocabularyMapMs(index));
    }
    const megabytes = (SOURCES * SOURCE_CHARS) / 1024 / 1024;
    const baseline = { baseline: 'the vocabulary decoded into a Map (setup before)', baselineValue: median(baselines) };
    return [
      { name: `index load and first questions, longest event-loop hold (${megabytes} MB)`, value: median(loads), unit: 'ms', ...baseline, goal: { atMost: 50, of: 'value' } },
      { name: `the index's own: setup or a first question, longest (${megabytes} MB)`, value: median(steps), unit: 'ms', ...baseline, goal: { atMost: 50, of: 'value' } },
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The longest of making a searcher of the index's bytes and asking it each question. */
function longestStepMs(index: Uint8Array): number {
  let start = performance.now();
  const search = lexicalSearcher(unpackIndex(index));
  let longest = performance.now() - start;
  for (const question of QUESTIONS) {
    start = performance.now();
    search(question, 4);
    longest = Math.max(longest, performance.now() - start);
  }
  return longest;
}

/** Part of what making a searcher held the event loop for before: the stored index's vocabulary decoded into a Map. */
function vocabularyMapMs(index: Uint8Array): number {
  const start = performance.now();
  const { vocabulary } = unpackIndex(index);
  const termIds = new Map<string, number>();
  for (let id = 0; id < vocabulary.length; id += 1) termIds.set(vocabulary.at(id) as string, id);
  const ms = performance.now() - start;
  if (termIds.size !== vocabulary.length) throw new Error('a term twice in the vocabulary');
  return ms;
}

export const indexLoadSection: Section = { name: 'Index load (a stored 30 MB index, event-loop hold)', run };
