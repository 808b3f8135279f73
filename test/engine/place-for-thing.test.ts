import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { DEVELOPMENT_2, documentText, engineAnswerer } from './eval/score.js';

// "Where can I leave the car?" asks a place for a car: the verb of putting it somewhere says no
// more than "where". Counted in full, "leave" outweighed the car, and a sentence leaving anything
// else somewhere was quoted: the theatre's cloakroom, where bags "must be left", and the vet's cat
// waiting area "to the left of reception" (WordNet's "left" is also a form of "leave"). Where the
// material lacks the thing, it is where one does to it what English has a verb for: a car is parked.

const engine = engineAnswerer();
const ask = (document: string, question: string) => engine(documentText(document, DEVELOPMENT_2.folder), { question });

beforeAll(() => loadWordVectors());

describe('a question asking where to leave a thing', () => {
  it('is answered by what the material says of the thing', () => {
    expect(ask('theatre-visitor-info.md', 'where can I leave the car?')).toContain('The nearest car park is the Lavitt');
  });

  it('is answered by where one does to the thing what English has a verb for, where the material lacks the thing', () => {
    // The vet's guide names no car: its parking answer ("four client parks") shares no word with
    // the question, and "somewhere" counted as a word the material lacks. One parks a car.
    for (const question of ['is there somewhere to leave the car?', 'where can I leave my car?']) {
      expect(ask('vet-client-guide.md', question), question).toContain('There are four client parks behind the clinic');
    }
  });

  it('is declined when the material has no word for the thing nor a place for it, rather than answered by what is left elsewhere', () => {
    const guide = documentText('vet-client-guide.md', DEVELOPMENT_2.folder);
    const parking = guide.slice(guide.indexOf('Is there parking?'), guide.indexOf('## Vaccinations'));
    expect(parking).toContain('four client parks');
    expect(engine(guide.replace(parking, ''), { question: 'is there somewhere to leave the car?' })).toBe(NO_ANSWER);
  });
});
