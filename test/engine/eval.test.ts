import { describe, expect, it } from 'vitest';
import { QUESTIONS, type Category } from './eval/questions.js';
import { bm25Answerer, documentText, engineAnswerer, evaluate } from './eval/score.js';

// How well the offline responder answers three realistic documents (a policy handbook with
// headings, a shop FAQ, a product manual), through the same index, search and composition as
// POST /chat. The floors sit a little below what the engine achieved when the set was written;
// falling under one is a regression. `npm run bench` prints the same scores next to plain BM25.

// Measured when written: 86/110 overall; 22/24, 21/31, 17/19, 10/19, 7/8, 9/9 by category.
const OVERALL_FLOOR = 0.75;
const CATEGORY_FLOORS: Record<Category, number> = {
  verbatim: 0.8,
  paraphrase: 0.6,
  similar: 0.8,
  unanswerable: 0.55,
  'small talk': 0.9,
  'follow-up': 0.7,
};

describe('offline evaluation set', () => {
  it('holds a realistic set: three documents, over 100 questions in every category', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(100);
    for (const category of Object.keys(CATEGORY_FLOORS)) {
      expect(QUESTIONS.filter((q) => q.category === category).length).toBeGreaterThanOrEqual(5);
    }
    // Every expected fragment of an answerable question is really in its document.
    for (const { document, expected, category } of QUESTIONS) {
      if (expected !== null && category !== 'small talk') expect(documentText(document)).toContain(expected);
    }
  });

  it(`answers at least ${OVERALL_FLOOR * 100}% right, each category above its floor, well above plain BM25`, () => {
    const report = evaluate(engineAnswerer());
    const baseline = evaluate(bm25Answerer());
    const rate = ({ hits, total }: { hits: number; total: number }) => hits / total;
    console.log(`offline eval: ${report.overall.hits}/${report.overall.total}; BM25 baseline ${baseline.overall.hits}/${baseline.overall.total}`);
    if (report.misses.length > 0) console.log(`offline eval misses:\n${report.misses.join('\n')}`);
    expect(rate(report.overall)).toBeGreaterThanOrEqual(OVERALL_FLOOR);
    for (const [category, floor] of Object.entries(CATEGORY_FLOORS) as [Category, number][]) {
      const score = report.byCategory.get(category) ?? { hits: 0, total: 1 };
      expect(rate(score), category).toBeGreaterThanOrEqual(floor);
    }
    expect(rate(report.overall)).toBeGreaterThan(rate(baseline.overall) + 0.2);
  });
});
