import { beforeAll, describe, expect, it } from 'vitest';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { engineAnswerer, sourcesAnswerer } from './eval/score.js';

// A dental clinic's page as a new user pasted it into a fresh hub, headings on their own lines,
// with the owner's Q&A pair beside it. Its visitors' questions got wrong answers, or none.

const CLINIC = [
  'Fjord Dental Clinic',
  'Fjord Dental Clinic is at Bryggen 14, 5003 Bergen, on the second floor above the pharmacy.',
  'Opening hours',
  'Monday to Thursday 08:00 to 17:00. Friday 08:00 to 14:00. Closed at weekends.',
  'Treatments',
  'A check-up with cleaning costs 950 NOK. A filling costs from 1,200 NOK. Teeth whitening costs 3,500 NOK. ' +
    'Emergency appointments are kept free every morning for acute toothache.',
  'Insurance and payment',
  'We accept Visa, Mastercard and Vipps. Children under 18 are treated free of charge through the public dental service.',
  'Cancellation',
  'Cancel at least 24 hours before your appointment, or we charge 500 NOK.',
].join('\n\n');

const CANCELLING = 'Cancel at least 24 hours before your appointment, or we charge 500 NOK.';

const ask = sourcesAnswerer([
  { text: CLINIC, source: { id: 'src_page', title: 'Fjord Dental', type: 'text' } },
  {
    text: 'Do you have a toilet for patients?\nYes, the patient toilet is next to the waiting room.',
    source: { id: 'src_toilet', title: 'Do you have a toilet for patients?', type: 'qa' },
  },
]);

beforeAll(() => loadWordVectors());

describe('not keeping an appointment', () => {
  it.each(["What if I can't make my appointment?", 'What if I cannot make my appointment?', 'What if I miss my appointment?'])(
    'answers %s with the cancellation terms, not the emergency appointments',
    (question) => {
      // Only "appointment" was read: "make" said nothing, and the emergency sentence tied and came first.
      expect(ask(question)).toBe(CANCELLING);
    },
  );

  it.each(["I couldn't make my appointment", "I won't make it to my appointment", "What if I wouldn't make it to my appointment?"])(
    'answers %s with the cancellation terms: any modal not making it is not keeping the appointment',
    (question) => {
      // Only "can't make" and "cannot make" were read as not keeping it: "couldn't" and "won't" left "appointment" alone.
      expect(ask(question)).toBe(CANCELLING);
    },
  );

  it('does not read "didn\'t make an appointment" as cancelling: that is not having booked one', () => {
    expect(ask("I didn't make an appointment, can I still come?")).not.toBe(CANCELLING);
  });

  it('still answers cancelling asked in the material\'s own word', () => {
    expect(ask('I need to cancel my appointment')).toBe(CANCELLING);
  });
});

describe('a thing asked by a rarer word', () => {
  it.each(['Is there a loo I can use?', 'Is there a toilet?'])("answers %s with the owner's answer on the toilet", (question) => {
    // "loo" was read as a rare name the material lacks, and the question declined.
    expect(ask(question)).toBe('Yes, the patient toilet is next to the waiting room.');
  });

  it('still declines a loo where the material has no toilet', () => {
    expect(engineAnswerer()(CLINIC, { question: 'Is there a loo I can use?' })).toBe(NO_ANSWER);
  });
});
