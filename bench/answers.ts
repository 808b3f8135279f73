import { performance } from 'node:perf_hooks';
import { chunkText } from '../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher } from '../src/engine/lexical-index.js';
import { bm25Answerer, engineAnswerer, evaluate } from '../test/engine/eval/score.js';
import { generateText } from './text.js';

// The offline responder's quality and search cost, for `npm run bench`:
//  - the evaluation set (test/engine/eval/) scored per category, next to plain BM25 top-sentence
//    retrieval run in the same process;
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

export function benchAnswers(): void {
  const ours = evaluate(engineAnswerer());
  const baseline = evaluate(bm25Answerer());
  const percent = ({ hits, total }: { hits: number; total: number }) => `${((100 * hits) / total).toFixed(0)}% (${hits}/${total})`;
  console.log('\noffline responder on the evaluation set, against plain BM25 top-sentence retrieval');
  console.log(`${'category'.padEnd(14)}${'offline'.padEnd(16)}BM25`);
  for (const [category, score] of ours.byCategory) {
    console.log(`${category.padEnd(14)}${percent(score).padEnd(16)}${percent(baseline.byCategory.get(category) ?? { hits: 0, total: 1 })}`);
  }
  console.log(`${'overall'.padEnd(14)}${percent(ours.overall).padEnd(16)}${percent(baseline.overall)}`);

  const small = searchMicroseconds(3 * 1024);
  console.log(`\nsearch cost (mean of ${SEARCHES}), ratio to the 3 KB material`);
  console.log(`3 KB: ${small.toFixed(1)} µs`);
  for (const [label, chars] of [['1 MB', 1024 * 1024], ['10 MB', 10 * 1024 * 1024]] as const) {
    const cost = searchMicroseconds(chars);
    console.log(`${label}: ${cost.toFixed(1)} µs, ${(cost / small).toFixed(2)}x`);
  }
}
