import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_10 } from './eval/score.js';

// The tenth held-out evaluation (test/engine/heldout10/): five documents of businesses no other
// set has (a physiotherapy practice's patient information, a plant nursery and garden centre's
// guide, an independent cinema's visitor information, a marina's visitor and berthing guide, an
// architects' practice's IT service desk guide for staff) and 160 questions, written and
// committed before the engine was run on them, when the nine other held-out sets had all been
// reported after changes. Never tuned on. The floors sit just under what the engine measures.

// Measured first (the engine of 5000d08): 104/160; verbatim 24/24, paraphrase 8/45, similar
// 27/32, unanswerable 20/24, lead-in 6/8, follow-up 9/16, small talk 10/11.
describeScoredSet('tenth held-out evaluation set', HELD_OUT_SET_10, {
  questions: 160,
  documents: 5,
  overall: 0.64,
  categories: {
    verbatim: 0.95,
    paraphrase: 0.15,
    similar: 0.8,
    unanswerable: 0.8,
    'small talk': 0.9,
    'follow-up': 0.55,
    'lead-in': 0.7,
  },
});
