import { describe, expect, it } from 'vitest';
import { HELD_OUT_SET, documentText } from './eval/score.js';

// The held-out evaluation (test/engine/heldout/): five documents and their questions, written
// and committed before the engine was run on them, never tuned on.

describe('held-out evaluation set', () => {
  it('holds five documents of other kinds, 150 questions or more, every category', () => {
    const { questions, folder } = HELD_OUT_SET;
    expect(questions.length).toBeGreaterThanOrEqual(150);
    expect(new Set(questions.map((q) => q.document)).size).toBe(5);
    for (const category of ['verbatim', 'paraphrase', 'similar', 'unanswerable', 'small talk', 'follow-up', 'lead-in']) {
      expect(questions.filter((q) => q.category === category).length, category).toBeGreaterThanOrEqual(7);
    }
    // Every expected fragment of an answerable question is really in its document.
    for (const { document, expected, category } of questions) {
      if (expected === null || category === 'small talk') continue;
      for (const fragment of [expected].flat()) expect(documentText(document, folder), document).toContain(fragment);
    }
  });
});
