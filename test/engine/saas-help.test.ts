import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { documentText, engineAnswerer } from './eval/score.js';

const MATERIALS = new URL('./materials/', import.meta.url);

// A software company's help centre, as in a walk-through where the offline responder answered
// questions about what the material never mentions with a sentence sharing a word with them.

const HELP = [
  '# Getting started',
  'Invite your teammates from Settings > Members. New teammates come on board with a guided tour of the workspace in their first week.',
  '# Seats',
  'Each paid plan includes a number of seats. Removing a user frees their seat for someone else.',
  '# Billing',
  'You can cancel at any time from Settings > Billing. Annual plans cancelled within 30 days of purchase get a full refund.',
  '# Support',
  'Email support@flowdesk.example; we reply within one business day.',
].join('\n\n');

const engine = engineAnswerer();
const ask = (question: string) => engine(HELP, { question });

beforeAll(() => loadWordVectors());

describe('a software help centre', () => {
  it.each([
    // "free" is in "frees their seat"; the trial, what is asked, is nowhere.
    'Is there a free trial?',
    'Do you offer a free trial?',
  ])('declines %s, which the material does not answer', (question) => {
    expect(ask(question)).toBe(NO_ANSWER);
  });

  it('declines when a refund arrives where the material says nothing of refunds, and answers where it does', () => {
    // "arrive" ~ "come" (WordNet) found "New teammates come on board…"; the refund is nowhere.
    const withoutRefunds = HELP.replace(/# Billing[^#]*/, '');
    expect(engine(withoutRefunds, { question: 'When will my refund arrive?' })).toBe(NO_ANSWER);
    expect(engine(documentText('help-centre.md', MATERIALS), { question: 'When will my refund arrive?' })).toContain(
      'Refunds reach your card within 5 to 10 business days.',
    );
  });

  it.each([
    ['How do I free up a seat?', 'Removing a user frees their seat for someone else.'],
    ['Can I get a refund?', 'Annual plans cancelled within 30 days of purchase get a full refund.'],
    ['Can I cancel?', 'You can cancel at any time from Settings > Billing.'],
  ])('answers %s', (question, answer) => {
    expect(ask(question)).toContain(answer);
  });
});
