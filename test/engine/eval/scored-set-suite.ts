import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../../src/engine/workers/training-jobs.js';
import type { Category } from './questions.js';
import { documentText, engineAnswerer, evaluate, type QuestionSet } from './score.js';

/** What a question set must hold and the floors its score must stay above (just under what the engine measured). */
export type SetFloors = { questions: number; documents: number; overall: number; categories: Record<Category, number> };

/**
 * The tests of a question set beside the first development set's (eval.test.ts): its shape (every
 * category, every expected fragment really in its document) and its score above the floors;
 * falling under one is a regression.
 */
export function describeScoredSet(name: string, set: QuestionSet, floors: SetFloors): void {
  beforeAll(() => loadWordVectors());

  describe(name, () => {
    it(`holds ${floors.documents} documents, ${floors.questions} questions or more, every category`, () => {
      const { questions, folder } = set;
      expect(questions.length).toBeGreaterThanOrEqual(floors.questions);
      expect(new Set(questions.map((q) => q.document)).size).toBe(floors.documents);
      for (const category of Object.keys(floors.categories)) {
        expect(questions.filter((q) => q.category === category).length, category).toBeGreaterThanOrEqual(7);
      }
      // Every expected fragment of an answerable question is really in its document.
      for (const { document, expected, category } of questions) {
        if (expected === null || category === 'small talk') continue;
        for (const fragment of [expected].flat()) expect(documentText(document, folder), document).toContain(fragment);
      }
    });

    it(`answers at least ${floors.overall * 100}% right, each category above its floor`, () => {
      const report = evaluate(engineAnswerer(), set);
      const rate = ({ hits, total }: { hits: number; total: number }) => hits / total;
      const categories = [...report.byCategory].map(([category, { hits, total }]) => `${category} ${hits}/${total}`);
      console.log(`${name}: ${report.overall.hits}/${report.overall.total}; ${categories.join(', ')}`);
      expect(rate(report.overall)).toBeGreaterThanOrEqual(floors.overall);
      for (const [category, floor] of Object.entries(floors.categories) as [Category, number][]) {
        const score = report.byCategory.get(category) ?? { hits: 0, total: 1 };
        expect(rate(score), category).toBeGreaterThanOrEqual(floor);
      }
    });
  });
}
