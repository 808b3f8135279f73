import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { extractFile } from '../../src/sources/extract/index.js';
import { docxOf } from '../sources/extract/documents.js';
import { sourcesAnswerer } from './eval/score.js';

// A new owner's bakery as the console walk built it: a text on opening hours, a Q&A pair, and a
// DOCX menu, trained on the text extraction gives the engine. "Can I order a wedding cake?" was
// answered "- Gluten free on Fridays. 1. Order a day ahead.": the material never says the bakery
// makes wedding cakes, and the bullet answers nothing asked.

const HOURS = 'Harbor Bakery opens at seven in the morning on weekdays and at eight on Saturdays. Closed on Sundays.';
const MENU = { title: 'Menu', sections: [{ heading: 'Cakes', paragraphs: ['Our carrot cake costs 4 euros a slice.'], bullets: ['Gluten free on Fridays.'], steps: ['Order a day ahead.'] }] };

let ask: (question: string) => string;

beforeAll(async () => {
  await loadWordVectors();
  const menu = await extractFile(await docxOf(MENU));
  ask = sourcesAnswerer([
    { text: HOURS, source: { id: 'src_hours', title: 'Opening hours', type: 'text' } },
    { text: 'Do you have vegan bread?\nYes, our rye loaf is vegan.', source: { id: 'src_vegan', title: 'Do you have vegan bread?', type: 'qa' } },
    { text: menu.text, source: { id: 'src_menu', title: 'Menu', type: 'file' } },
  ]);
});

describe('a kind of thing the material never names', () => {
  it.each(['Can I order a wedding cake?', 'Can I order a birthday cake?'])(
    'declines %s, so that the owner sees it among the unanswered',
    (question) => {
      // The material names cakes, one kind of them, and nothing of weddings or birthdays.
      expect(ask(question)).toBe(NO_ANSWER);
    },
  );

  it('still answers of the kind it names, with the step telling one to order', () => {
    // "Order a day ahead." says one can order, and how: quoted with the carrot cake's sentence.
    expect(ask('Can I order a carrot cake?')).toBe('Our carrot cake costs 4 euros a slice.\n1. Order a day ahead.');
  });
});

describe('a numbered list after a bulleted one', () => {
  it.each(['How far ahead should I order a cake?', 'Do I need to order a cake ahead?'])('answers %s with the step alone, not the bullet before it', (question) => {
    expect(ask(question)).toBe('1. Order a day ahead.');
  });
});
