import { describeScoredSet } from './eval/scored-set-suite.js';
import { HELD_OUT_SET_5 } from './eval/score.js';

// The fifth held-out evaluation (test/engine/heldout5/): five documents of businesses no other set
// has (a university's halls of residence guide in long paragraphs, a driving school's FAQ lines, a
// self-storage firm's terms with a price table, a farm campsite's site rules in nested lists, a
// robot lawn mower's quick-start guide with an error-code table) and 160 questions, written and
// committed before the engine was run on them, when the four other held-out sets' total had
// decided which changes were kept. Never tuned on. The floors sit just under what the engine measures.

// Measured first (the engine of fb8b83c): 122/160, 29 wrong answers; verbatim 23/24, paraphrase
// 22/45, similar 31/32, unanswerable 14/24, lead-in 8/8, follow-up 13/16, small talk 11/11.
// Then 125/160 (unanswerable 18/24, follow-up 12/16, 25 wrong) after the same session's changes,
// decided on the development sets (declining questions whose subject the material has no word
// for); the follow-up floor follows the one follow-up it lost. 126/160 (paraphrase 20/45,
// unanswerable 21/24) after branch answers7 declined a section lacking the thing a yes/no question
// asks of (decided on dev2, +1); the paraphrase floor follows the two answers it lost. 127/160
// after branch answers8, its changes decided on the development sets (total read, categories not).
describeScoredSet('fifth held-out evaluation set', HELD_OUT_SET_5, {
  questions: 160,
  documents: 5,
  overall: 0.78,
  categories: {
    verbatim: 0.95,
    paraphrase: 0.44,
    similar: 0.96,
    unanswerable: 0.75,
    'small talk': 0.95,
    'follow-up': 0.75,
    'lead-in': 0.9,
  },
});
