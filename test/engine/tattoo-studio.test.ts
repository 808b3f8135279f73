import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { engineAnswerer } from './eval/score.js';

// A tattoo studio's page of headings and paragraphs, written as its owner would, and questions
// its visitors ask, answered through the engine as a hub trains and answers. Each test is one
// that went wrong.

const STUDIO = readFileSync(new URL('./materials/tattoo-studio.md', import.meta.url), 'utf8');
const engine = engineAnswerer();
const ask = (question: string) => engine(STUDIO, { question });

beforeAll(() => loadWordVectors());

describe('a tattoo studio’s visitors', () => {
  it.each(['Is there parking nearby?', 'Is there a car park nearby?', 'Do you have parking nearby?'])(
    'answers %s by the car park: where a thing is had is not what it is',
    (question) => {
      // "nearby" was read as the thing asked, which the material never names: declined.
      expect(ask(question)).toBe('The nearest car park is Crown Point on Meadow Lane.');
    },
  );

  it.each(['How much does a tattoo cost?', 'What do your tattoos cost?'])('answers %s from the price list, which need not name the studio’s trade', (question) => {
    // "tattoo" was the thing asked, which the price list never names: declined.
    const prices = STUDIO.slice(STUDIO.indexOf('## Prices'), STUDIO.indexOf('## Deposits'));
    const answer = ask(question);
    expect(answer).not.toBe(NO_ANSWER);
    expect(prices).toContain(answer);
  });

  it('still asks a section to name a thing other than the trade, or to state what is asked of the trade', () => {
    // "take" of "We do not take cheques." states no time.
    for (const question of ['How long does a tattoo take?', 'How much does a tattoo sleeve cost?', 'Is there a free trial?']) expect(ask(question), question).toBe(NO_ANSWER);
  });

  it.each(['Can I reschedule my appointment?', 'Can I reschedule?'])('answers %s by moving the appointment', (question) => {
    // WordNet has no word for rescheduling the material uses: the question was declined.
    expect(ask(question)).toBe("You can move your appointment once with at least 48 hours' notice and keep your deposit.");
  });

  it.each([
    ['What is your hourly rate?', 'Small pieces are priced per design; larger work is charged at £120 an hour.'],
    ['What are your rates?', 'Our minimum charge is £60. Small pieces are priced per design; larger work is charged at £120 an hour. Full-day sessions cost £700.'],
  ])('answers %s by the price, not by a sentence that only names the rate', (question, answer) => {
    // "touch-ups are charged at our hourly rate" was quoted: it holds the question's words and states no price.
    expect(ask(question)).toBe(answer);
  });

  it.each(['Can I get my deposit back?', 'Do I get my deposit back if I cancel?'])('answers %s by the deposit’s refund', (question) => {
    // "…keep your deposit." was quoted: getting money back is what the material calls a refund.
    expect(ask(question)).toBe('Deposits are non-refundable.');
  });

  it.each(['How old do I have to be?', 'How old do you need to be?', 'How old must I be?'])('answers %s from the section on age, as when the question names a tattoo', (question) => {
    // Naming nothing but the form "how old", the question had no word to search by: declined.
    const age = STUDIO.slice(STUDIO.indexOf('## Age and ID'), STUDIO.indexOf('## Before your appointment'));
    const answer = ask(question);
    expect(answer).toContain('You must be 18 or over to get a tattoo');
    expect(age).toContain(answer);
  });

  it('still leaves "How old are you?" unanswered from the material on ages', () => {
    expect(ask('How old are you?')).not.toContain('18');
  });
});
