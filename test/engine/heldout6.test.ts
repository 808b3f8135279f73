import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_6 } from './eval/score.js';

// The sixth held-out evaluation (test/engine/heldout6/): five documents of businesses no other set
// has (a removals firm's FAQ, a ski hire shop's prices and conditions, a council swimming pool's
// visitor information, a bread maker's user guide, a wedding barn's terms of hire) and 160
// questions, written and committed before the engine was run on them, when the five other
// held-out sets' total had decided which changes were kept. Never tuned on. The floors sit just
// under what the engine measures.

// Measured first (the engine of 9d0e18a): 116/160; verbatim 22/24, paraphrase 21/45, similar
// 29/32, unanswerable 17/24, lead-in 8/8, follow-up 8/16, small talk 11/11. Then 118/160
// (paraphrase 22/45, unanswerable 18/24) after the same session's changes, decided on the
// development sets.
describeScoredSet('sixth held-out evaluation set', HELD_OUT_SET_6, {
  questions: 160,
  documents: 5,
  overall: 0.72,
  categories: {
    verbatim: 0.9,
    paraphrase: 0.46,
    similar: 0.9,
    unanswerable: 0.7,
    'small talk': 0.95,
    'follow-up': 0.5,
    'lead-in': 0.9,
  },
});
