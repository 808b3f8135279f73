import { describe, expect, it } from 'vitest';
import { mayStatePlace, placeMarks, statesPlace } from '../../src/engine/place-stated.js';
import { findWords, foundWord, foundWords } from '../../src/engine/text.js';

// The sentences training marks as stating where the business is, and the word-level look that
// spares most sentences the reading as a string: it may let through what states no place, never
// hold back what does.

const mayState = (sentence: string) => {
  const found = foundWords();
  findWords(sentence, found);
  const each = Uint8Array.from({ length: found.count }, (_, k) => placeMarks(foundWord(found, k)));
  return mayStatePlace({ count: found.count, each, all: each.reduce((all, marks) => all | marks, 0) });
};

const STATING = [
  'Harbor Bakery is at 12 Quay Street, Bergen.',
  'Visit 221B Baker St. any day.',
  'Nordlys Bike Repair is at Storgata 41, 0182 Oslo, next to the tram stop.',
  'The office is at Königstraße 12.',
  'Our depot: Karl Johans gate 5.',
  'Find the shop at Hauptstr. 7.',
  'We moved to Drottninggatan 3.',
  'Our gallery is at Rue de Rivoli 5.',
  'The studio is at 12 rue de Rivoli, Paris.',
  'It is at Praça do Comércio 8.',
  'Write to us: Kalverstraat 5, 1012 NX Amsterdam.',
  '10115 Berlin',
  'Our office: 20 Old Street, London EC1V 9HX.',
  'Head office: 500 Congress Avenue, Austin, TX 78701.',
  'We are located in the old town.',
  'Our little studio is situated above the bakery.',
  'Harbor Lamp Shop is based in Bergen.',
  'Address: Gaiety Quay Theatre, Merchant’s Quay, Cork.',
  'You find us at the harbour.',
];

describe('a sentence stating where the business is', () => {
  it.each(STATING)('is marked, and let through by its words: %s', (sentence) => {
    expect(statesPlace(sentence)).toBe(true);
    expect(mayState(sentence)).toBe(true);
  });

  it('is not looked for in a sentence whose words cannot state one, numbers and street-like words though it has', () => {
    for (const sentence of [
      'The billing department refunds warranty claims within 48 hours under reference B-1234.',
      'Returns take 3 to 5 working days.',
      'Take the second road on the left.',
    ]) {
      expect(statesPlace(sentence)).toBe(false);
      expect(mayState(sentence)).toBe(false);
    }
  });
});
