import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_7 } from './eval/score.js';

// The seventh held-out evaluation (test/engine/heldout7/): five documents of businesses no other
// set has (a dog grooming salon's FAQ, a climbing centre's prices and rules, an allotment
// society's rules, a shared e-scooter rider guide, a maritime museum's visitor information) and
// 160 questions, written and committed before the engine was run on them, when the six other
// held-out sets' total had decided which changes were kept. Never tuned on. The floors sit just
// under what the engine measures.

// Measured first (the engine of 53ab181): 112/160; verbatim 22/24, paraphrase 14/45, similar
// 28/32, unanswerable 16/24, lead-in 7/8, follow-up 14/16, small talk 11/11.
describeScoredSet('seventh held-out evaluation set', HELD_OUT_SET_7, {
  questions: 160,
  documents: 5,
  overall: 0.69,
  categories: {
    verbatim: 0.9,
    paraphrase: 0.3,
    similar: 0.85,
    unanswerable: 0.65,
    'small talk': 0.95,
    'follow-up': 0.85,
    'lead-in': 0.85,
  },
});
