import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_4 } from './eval/score.js';

// The fourth held-out evaluation (test/engine/heldout4/): five documents of kinds no other set has
// (an employee handbook's leave policy in long paragraphs, a car-hire firm's rental terms with a
// charges table, a co-working space's house rules in nested lists, a smart lock's quick-start
// guide with a status-light table, a council's parking-permit FAQ lines) and 160 questions,
// written and committed before the engine was run on them, when every other set had been
// reported after changes. Never tuned on. The floors sit just under what the engine measures.

// Measured first (the engine of 41b9eb9): 98/160, 46 wrong answers; verbatim 22/24, paraphrase
// 10/45, similar 31/32, unanswerable 11/24, lead-in 6/8, follow-up 7/16, small talk 11/11. Then
// 99/160 (unanswerable 12/24) once "how long" is answered by a time (2026-11-26, reported).
// 102/160 (unanswerable 15/24, 40 wrong) after the next session (branch answers6). 105/160 after
// branch answers8, its changes decided on the development sets (total read, categories not).
describeScoredSet('fourth held-out evaluation set', HELD_OUT_SET_4, {
  questions: 150,
  documents: 5,
  overall: 0.61,
  categories: {
    verbatim: 0.9,
    paraphrase: 0.2,
    similar: 0.95,
    unanswerable: 0.62,
    'small talk': 0.9,
    'follow-up': 0.43,
    'lead-in': 0.74,
  },
});
