import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { documentText, engineAnswerer } from './eval/score.js';

// A heading that is a question put as the visitor puts theirs is the owner's own wording of it.
// The GP practice's FAQ has "When will I get my results?" under "Tests and results": asked "When
// will I get my blood test results?", the outer heading, holding two of its words to one, quoted
// when blood tests are taken.

const engine = engineAnswerer();
const ask = (question: string) => engine(documentText('clinic-faq.md'), { question });

beforeAll(() => loadWordVectors());

describe('an FAQ heading put as the question is', () => {
  it('answers before a heading holding more of its words', () => {
    expect(ask('When will I get my blood test results?')).toContain('Most blood test results are ready within five working days');
  });

  it('leaves a question of another form to the heading that holds its words', () => {
    expect(ask('How are blood tests taken?')).toContain('Blood tests are taken at the practice on weekday mornings');
  });
});
