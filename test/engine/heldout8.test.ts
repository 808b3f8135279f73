import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_8 } from './eval/score.js';

// The eighth held-out evaluation (test/engine/heldout8/): five documents of businesses no other
// set has (a Spanish language school's FAQ, a pottery studio's classes and rules, a kayak and
// canoe hire's terms, an escape-room company's booking information, a community pharmacy's
// services) and 160 questions, written and committed before the engine was run on them, when the
// seven other held-out sets' total had decided which changes were kept. Never tuned on. The
// floors sit just under what the engine measures.

// Measured first (the engine of d83b443): 122/160; verbatim 23/24, paraphrase 21/45, similar
// 29/32, unanswerable 20/24, lead-in 6/8, follow-up 14/16, small talk 9/11.
describeScoredSet('eighth held-out evaluation set', HELD_OUT_SET_8, {
  questions: 160,
  documents: 5,
  overall: 0.75,
  categories: {
    verbatim: 0.95,
    paraphrase: 0.45,
    similar: 0.9,
    unanswerable: 0.8,
    'small talk': 0.8,
    'follow-up': 0.85,
    'lead-in': 0.7,
  },
});
