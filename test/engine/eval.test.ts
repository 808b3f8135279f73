import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { HELD_OUT, QUESTIONS, type Category } from './eval/questions.js';
import { bm25Answerer, documentText, engineAnswerer, evaluate } from './eval/score.js';

// How well the offline responder answers the development set's five documents (a policy
// handbook with headings, a shop FAQ, a product manual, a GP practice's patient FAQ and a ferry
// FAQ of the shapes issue #27 names), through the same index, search and composition as POST
// /chat. The floors sit a little below what the engine achieves; falling under one is a
// regression. `npm run bench` prints the same scores next to plain BM25, next to the engine
// without its WordNet expansion and without word vectors, and the held-out set's (heldout.test.ts).

// Measured: 159/176 overall; verbatim 32/33, paraphrase 37/44, similar 25/28, unanswerable 25/29,
// follow-up 20/22, small talk 17/17, lead-in 3/3; the clinic's document 26/31 (it was held out
// from tuning until issue #27, whose held-out set is test/engine/heldout/). Then 160/176
// (unanswerable 26/29) once a price asked is answered by a price or declined (2026-11-26), and
// 161/176 (14 wrong) once questions whose subject the material has no word for are declined.
// 164/176 (verbatim 33/33, follow-up 21/22; 9 wrong) after branch answers8 (2026-11-27).
const OVERALL_FLOOR = 0.88;
const HELD_OUT_FLOOR = 0.8;
const CATEGORY_FLOORS: Record<Category, number> = {
  verbatim: 0.9,
  paraphrase: 0.8,
  similar: 0.85,
  unanswerable: 0.82,
  'small talk': 0.95,
  'follow-up': 0.86,
  'lead-in': 0.95,
};

beforeAll(() => loadWordVectors());

describe('offline evaluation set', () => {
  it('holds a realistic set: five documents, over 100 questions, 3 or more in every category, 25 on the clinic', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(QUESTIONS.map((q) => q.document)).size).toBe(5);
    expect(QUESTIONS.filter((q) => q.document === HELD_OUT).length).toBeGreaterThanOrEqual(25);
    for (const category of Object.keys(CATEGORY_FLOORS)) {
      expect(QUESTIONS.filter((q) => q.category === category).length).toBeGreaterThanOrEqual(3);
    }
    // Every expected fragment of an answerable question is really in its document.
    for (const { document, expected, category } of QUESTIONS) {
      if (expected !== null && category !== 'small talk') for (const fragment of [expected].flat()) expect(documentText(document)).toContain(fragment);
    }
  });

  it(`answers at least ${OVERALL_FLOOR * 100}% right, each category above its floor, well above plain BM25`, () => {
    const report = evaluate(engineAnswerer());
    const baseline = evaluate(bm25Answerer());
    const rate = ({ hits, total }: { hits: number; total: number }) => hits / total;
    console.log(
      `offline eval: ${report.overall.hits}/${report.overall.total}, held out ${report.heldOut.hits}/${report.heldOut.total}; ` +
        `BM25 baseline ${baseline.overall.hits}/${baseline.overall.total}`,
    );
    if (report.misses.length > 0) console.log(`offline eval misses:\n${report.misses.join('\n')}`);
    expect(rate(report.overall)).toBeGreaterThanOrEqual(OVERALL_FLOOR);
    expect(rate(report.heldOut)).toBeGreaterThanOrEqual(HELD_OUT_FLOOR);
    for (const [category, floor] of Object.entries(CATEGORY_FLOORS) as [Category, number][]) {
      const score = report.byCategory.get(category) ?? { hits: 0, total: 1 };
      expect(rate(score), category).toBeGreaterThanOrEqual(floor);
    }
    expect(rate(report.overall)).toBeGreaterThan(rate(baseline.overall) + 0.2);
  });
});
