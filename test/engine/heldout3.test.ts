import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_3 } from './eval/score.js';

// The third held-out evaluation (test/engine/heldout3/): five documents of kinds no other set has
// (a dental practice's FAQ lines, a library's borrowing rules with a table, a music festival's
// guide in nested lists, a university course page, a home-insurance summary in long paragraphs)
// and 160 questions, written and committed before the engine was run on them, a session after
// the second set, which had been reported after that session's changes. Never tuned on. The
// floors sit just under what the engine measures.

// Measured first (the engine of 395fb1b): 113/160; verbatim 23/24, paraphrase 17/45, similar
// 31/32, unanswerable 11/24, lead-in 7/8, follow-up 14/16, small talk 10/11. Then 116/160
// (paraphrase 20/45) after that session's changes, decided on the two development sets; 117/160
// (32 wrong answers) after the next session's; 119/160 (paraphrase 19/45, unanswerable 14/24, 26
// wrong) after the one after (branch answers6).
describeScoredSet('third held-out evaluation set', HELD_OUT_SET_3, {
  questions: 150,
  documents: 5,
  overall: 0.72,
  categories: {
    verbatim: 0.95,
    paraphrase: 0.42,
    similar: 0.96,
    unanswerable: 0.58,
    'small talk': 0.9,
    'follow-up': 0.87,
    'lead-in': 0.87,
  },
});
