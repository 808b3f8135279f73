import { DEVELOPMENT_2 } from './eval/score.js';
import { describeScoredSet } from './eval/scored-set-suite.js';

// The second development set (test/engine/dev2/): five documents (an airline's baggage policy, a
// bank's account fees with two tables, a theatre's visitor information in long paragraphs, a
// vet's client guide as FAQ lines, a summer camp's pack) and 160 questions put as customers type
// them: in lower case, without a question mark, behind "hi, quick one:". Written before the
// engine was run on it, and tuned on beside the first, so that a change must help on more kinds
// of material to be kept. The floors sit just under what the engine measures.

// Measured first (the engine of 395fb1b): 93/160; verbatim 22/24, paraphrase 10/45, similar
// 26/32, unanswerable 9/24, follow-up 9/16, lead-in 7/8, small talk 10/11; 51 of the misses were
// wrong answers rather than the no-answer reply. Then 102/160 (paraphrase 11/45, follow-up 13/16,
// verbatim 24/24, small talk 11/11, similar 27/32; 42 wrong answers) after the changes it led to.
// Then 107/160 (paraphrase 15/45, unanswerable 10/24; 39 wrong answers) a session later. Then
// 108/160 (follow-up 14/16) once "how long" is answered by a time (2026-11-26). Then 111/160
// (unanswerable 13/24, 32 wrong) once questions whose subject the material has no word for are declined.
// 114/160 (paraphrase 17/45; 29 wrong) after branch answers8 (2026-11-27). 115/160 (paraphrase
// 18/45) after branch answers9, once an e-mail address reads as one. 118/160 (paraphrase 21/45; 31
// wrong) after branch answers10: a place for a car is parking, and a rare word that names nothing
// ("nicked", "upfront") no longer declines the question.
describeScoredSet('second development set', DEVELOPMENT_2, {
  questions: 150,
  documents: 5,
  overall: 0.72,
  categories: {
    verbatim: 0.95,
    paraphrase: 0.24,
    similar: 0.84,
    unanswerable: 0.54,
    'small talk': 0.95,
    'follow-up': 0.87,
    'lead-in': 0.87,
  },
});
