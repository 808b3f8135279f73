import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { DEVELOPMENT_2, documentText, engineAnswerer } from './eval/score.js';

// "Where can I leave the car?" asks a place for a car: the verb of putting it somewhere says no
// more than "where". Counted in full, "leave" outweighed the car, and a sentence leaving anything
// else somewhere was quoted: the theatre's cloakroom, where bags "must be left", and the vet's cat
// waiting area "to the left of reception" (WordNet's "left" is also a form of "leave").

const engine = engineAnswerer();
const ask = (document: string, question: string) => engine(documentText(document, DEVELOPMENT_2.folder), { question });

beforeAll(() => loadWordVectors());

describe('a question asking where to leave a thing', () => {
  it('is answered by what the material says of the thing', () => {
    expect(ask('theatre-visitor-info.md', 'where can I leave the car?')).toContain('The nearest car park is the Lavitt');
  });

  it('is declined when the material has no word for the thing, rather than answered by what is left elsewhere', () => {
    // The vet's guide names no car: its parking answer ("four client parks") shares no word with the question.
    expect(ask('vet-client-guide.md', 'is there somewhere to leave the car?')).toBe(NO_ANSWER);
  });
});
