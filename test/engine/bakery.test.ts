import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { engineAnswerer } from './eval/score.js';

// A German-Spanish bakery's FAQ in English, with the names of its bakes and its street as they
// are spelled, while customers type them on a phone without accents or ß ("roscon" for "roscón"):
// matched whatever the accents, and quoted as the material spells them.

const FAQ = [
  '# Panadería Müller – questions and answers',
  '## Seasonal bakes',
  'Our roscón de Reyes costs €24 and is baked to order from 2 January to 6 January.',
  'Stollen is sold from the first Sunday of Advent until Christmas Eve.',
  '## Our shop',
  'You find us at Königstraße 12, next to the market hall. We open at 7:00 every day but Monday.',
  '## Ordering',
  "Order cakes at least two days ahead by phone or in the shop. Crème brûlée tarts need three days' notice.",
].join('\n\n');

const engine = engineAnswerer();
const ask = (question: string, material = FAQ) => engine(material, { question });

beforeAll(() => loadWordVectors());

describe('a bakery whose material spells names with accents', () => {
  it.each([
    ['How much is the roscon?', 'Our roscón de Reyes costs €24'],
    ['How much is the roscón?', 'Our roscón de Reyes costs €24'],
    ['Where is Konigstrasse?', 'You find us at Königstraße 12'],
    ['How much notice do creme brulee tarts need?', "Crème brûlée tarts need three days' notice."],
  ])('answers %s, quoting the material as it is spelled', (question, answer) => {
    expect(ask(question)).toContain(answer);
  });

  it('finds a word asked with accents in a material written without them', () => {
    const plain = FAQ.replace('roscón', 'roscon');
    expect(ask('How much is the roscón?', plain)).toContain('Our roscon de Reyes costs €24');
  });
});
