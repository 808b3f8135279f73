import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_2 } from './eval/score.js';

// The second held-out evaluation (test/engine/heldout2/): five documents of kinds neither other
// set has (gym membership terms as FAQ lines, hotel guest information, a SaaS pricing page, city
// waste-collection rules, a CLI README) and 160 questions, written and committed on 2026-11-26
// before the engine was run on them. The first held-out set had by then been reported after every
// change for many sessions, and changes kept or dropped partly by its score; this one estimates
// afresh how the offline responder does on material nobody tuned it for. Never tuned on. The
// floors sit just under what the engine measures.

// Measured first (the engine of 334fe79 and of e7da9a8 alike): 115/160; verbatim 24/24,
// paraphrase 19/45, similar 27/32, unanswerable 14/24, lead-in 6/8, follow-up 15/16, small talk
// 10/11 (110/160 without word vectors, 111/160 without any expansion, BM25 56/160). Then 117/160
// (paraphrase 21/45) once questions put with contractions ("what's", "can't") were no longer
// declined, a fault found by asking the hub as a user would, not from this set. 118/160
// (unanswerable 15/24, 31 wrong answers) two sessions later. 116/160 (paraphrase 19/45, 29 wrong)
// after the next (branch answers6: declining questions whose subject the material has no word
// for), decided on the development sets; the overall and paraphrase floors follow it down.
// 117/160 (paraphrase 18/45) after branch answers7 declined a section lacking the thing a yes/no
// question asks of (decided on dev2, +1); the paraphrase floor follows the answer it lost.
describeScoredSet('second held-out evaluation set', HELD_OUT_SET_2, {
  questions: 150,
  documents: 5,
  overall: 0.72,
  categories: {
    verbatim: 0.95,
    paraphrase: 0.4,
    similar: 0.84,
    unanswerable: 0.58,
    'small talk': 0.9,
    'follow-up': 0.93,
    'lead-in': 0.75,
  },
});
