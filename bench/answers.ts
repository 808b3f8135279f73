import { performance } from 'node:perf_hooks';
import { chunkText } from '../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher } from '../src/engine/lexical-index.js';
import { loadWordVectors } from '../src/engine/workers/training-jobs.js';
import {
  bm25Answerer,
  DEVELOPMENT,
  DEVELOPMENT_2,
  engineAnswerer,
  evaluate,
  HELD_OUT_SET,
  HELD_OUT_SET_2,
  HELD_OUT_SET_3,
  HELD_OUT_SET_4,
  HELD_OUT_SET_5,
  HELD_OUT_SET_6,
  HELD_OUT_SET_7,
  HELD_OUT_SET_8,
  HELD_OUT_SET_9,
  HELD_OUT_SET_10,
  type QuestionSet,
  type Score,
} from '../test/engine/eval/score.js';
import { generateText } from './text.js';

// The offline responder's quality and search cost, for `npm run bench`:
//  - the two development sets (test/engine/eval/ and dev2/, tuned on) and the ten held-out
//    sets (test/engine/heldout/ to heldout10/, never tuned on), each scored per
//    category: the engine, the engine without word vectors, without any expansion of the
//    question (WordNet and vectors), and plain BM25 top-sentence retrieval, run in the same process;
//  - the time per search on 3 KB, 1 MB and 10 MB of material, as ratios to the 3 KB search
//    (the index is built first and not timed: training builds it).

const SEARCHES = 2_000;
const QUESTIONS = [
  'Who calibrates the dimmer switches in Tallinn?', 'Which team refunds gift cards?',
  'When are solar panels restocked at the Aarhus hub?', 'Who handles damaged parcels in Porto?',
];

function searchMicroseconds(chars: number): number {
  const chunks = chunkText(generateText(chars)).map((text, seq) => ({ seq, text }));
  const search = lexicalSearcher(buildLexicalIndex(chunks));
  for (let i = 0; i < 200; i += 1) search(QUESTIONS[i % QUESTIONS.length] as string, 4);
  const start = performance.now();
  for (let i = 0; i < SEARCHES; i += 1) search(QUESTIONS[i % QUESTIONS.length] as string, 4);
  return ((performance.now() - start) * 1_000) / SEARCHES;
}

function scoreTable(title: string, set: QuestionSet): void {
  const reports = [engineAnswerer(), engineAnswerer({ vectors: false }), engineAnswerer({ expand: false }), bm25Answerer()].map(
    (answerer) => evaluate(answerer, set),
  );
  const percent = ({ hits, total }: Score) => `${((100 * hits) / total).toFixed(0)}% (${hits}/${total})`;
  const row = (label: string, scores: (Score | undefined)[]) =>
    console.log(`${label.padEnd(14)}${scores.map((score) => percent(score ?? { hits: 0, total: 1 }).padEnd(16)).join('')}`);
  console.log(`\n${title}`);
  console.log(`${'category'.padEnd(14)}${'offline'.padEnd(16)}${'no vectors'.padEnd(16)}${'no expansion'.padEnd(16)}BM25`);
  for (const category of reports[0]?.byCategory.keys() ?? []) {
    row(category, reports.map((report) => report.byCategory.get(category)));
  }
  row('overall', reports.map((report) => report.overall));
}

export async function benchAnswers(): Promise<void> {
  await loadWordVectors();
  scoreTable('offline responder on the development set (tuned on)', DEVELOPMENT);
  scoreTable('offline responder on the second development set (tuned on)', DEVELOPMENT_2);
  scoreTable('offline responder on the held-out set (never tuned on)', HELD_OUT_SET);
  scoreTable('offline responder on the second held-out set (written 2026-11-26, never tuned on)', HELD_OUT_SET_2);
  scoreTable('offline responder on the third held-out set (written a session later, never tuned on)', HELD_OUT_SET_3);
  scoreTable('offline responder on the fourth held-out set (written two sessions after the third, never tuned on)', HELD_OUT_SET_4);
  scoreTable('offline responder on the fifth held-out set (written after the fourth had decided changes, never tuned on)', HELD_OUT_SET_5);
  scoreTable('offline responder on the sixth held-out set (written after the fifth had decided changes, never tuned on)', HELD_OUT_SET_6);
  scoreTable('offline responder on the seventh held-out set (written after the sixth had decided changes, never tuned on)', HELD_OUT_SET_7);
  scoreTable('offline responder on the eighth held-out set (written after the seventh had decided changes, never tuned on)', HELD_OUT_SET_8);
  scoreTable('offline responder on the ninth held-out set (written after the eighth had decided changes, never tuned on)', HELD_OUT_SET_9);
  scoreTable('offline responder on the tenth held-out set (written after the ninth had decided changes, never tuned on)', HELD_OUT_SET_10);

  const small = searchMicroseconds(3 * 1024);
  console.log(`\nsearch cost (mean of ${SEARCHES}), ratio to the 3 KB material`);
  console.log(`3 KB: ${small.toFixed(1)} µs`);
  for (const [label, chars] of [['1 MB', 1024 * 1024], ['10 MB', 10 * 1024 * 1024]] as const) {
    const cost = searchMicroseconds(chars);
    console.log(`${label}: ${cost.toFixed(1)} µs, ${(cost / small).toFixed(2)}x`);
  }
}
