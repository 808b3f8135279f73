import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount } from '../src/domain/accounts.js';
import { createChatbot } from '../src/domain/chatbots.js';
import { addQaSource, addTextSource } from '../src/domain/sources.js';
import { createRetriever } from '../src/engine/retrieval.js';
import { DEFAULT_READING_THREADS } from '../src/engine/workers/read-in-pieces.js';
import { chunkOffThread, loadWordVectors } from '../src/engine/workers/training-jobs.js';
import { openStore } from '../src/store/index.js';
import { median, watched } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { generateText } from './text.js';

// Training from sources in the hub's own process, as POST …/sources does it: a 10 MB text source
// added and made answerable (its chunks kept, the material written, the index built; storing the
// index for other processes follows, untimed),
// against JSON.parse of the same request body in the same run; then a Q&A added beside it, which
// chunks the Q&A alone. And the event loop's longest wait meanwhile (the work that is not the
// store's short writes runs on the training worker thread), against its longest wait while the
// process idles as long: on a busy machine the process waits for a core too.

const SOURCE_CHARS = 10 * 1024 * 1024;

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 3;
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  try {
    const { account } = await createAccount(store, 'bench', { messagesPerMonth: 1_000_000_000, maxChatbots: 1000 });
    const retriever = createRetriever(store);
    // The worker starts and loads its vectors once per process: not part of a training's time.
    await Promise.all([loadWordVectors(), chunkOffThread('Warm up.')]);
    const body = JSON.stringify({ type: 'text', title: 'Handbook', text: generateText(SOURCE_CHARS) });

    const parses: number[] = [];
    const adds: { ms: number; longestWaitMs: number }[] = [];
    const changes: { ms: number; longestWaitMs: number }[] = [];
    const idles: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const chatbot = await createChatbot(store, account, { name: `Bench ${i}` });
      const start = performance.now();
      const input = JSON.parse(body) as { title: string; text: string };
      parses.push(performance.now() - start);
      // Answerable once prepared; the index is stored for other processes after, not timed.
      let stored = Promise.resolve();
      adds.push(await watched(async () => {
        await addTextSource(store, account, chatbot.id, input);
        ({ stored } = await retriever.prepare(chatbot.id));
      }));
      await stored;
      changes.push(await watched(async () => {
        await addQaSource(store, account, chatbot.id, { question: 'When do you open?', answer: 'At nine.' });
        ({ stored } = await retriever.prepare(chatbot.id));
      }));
      await stored;
      idles.push((await watched(() => sleep((adds.at(-1)?.ms ?? 0) + (changes.at(-1)?.ms ?? 0)))).longestWaitMs);
    }
    const parseMs = median(parses);
    return [
      { name: 'add a 10 MB text source, answerable', value: median(adds.map(({ ms }) => ms)), unit: 'ms', baseline: 'JSON.parse of its body', baselineValue: parseMs, goal: { atMost: 10 } },
      { name: 'add a Q&A beside it, answerable', value: median(changes.map(({ ms }) => ms)), unit: 'ms', baseline: 'JSON.parse of the 10 MB body', baselineValue: parseMs },
      {
        name: 'longest event loop wait meanwhile',
        value: Math.max(...[...adds, ...changes].map(({ longestWaitMs }) => longestWaitMs)),
        unit: 'ms',
        baseline: 'longest wait, idle as long',
        baselineValue: Math.max(...idles),
        goal: { atMost: 50, of: 'value' },
      },
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// Named with its reading threads (one a core, up to four): a large source is read in that many
// pieces at once, so the figures differ with the machine's cores.
export const sourcesTrainingSection: Section = {
  name: `Training from sources (a ${SOURCE_CHARS / 1024 / 1024} MB text, in process, ${DEFAULT_READING_THREADS} reading threads)`,
  run,
};
