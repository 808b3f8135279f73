import { NO_ANSWER_IN } from './offline/compose.js';
import { NOT_COVERED } from './prompt.js';

// Whether a reply says the material does not cover the question: the offline responder's
// decline (in any of the widget's languages), or the fixed sentence the system prompt asks a model
// to answer with. The hub counts and reviews these replies (questions the material should answer
// and does not).

const normal = (text: string) => text.toLowerCase().replace(/[’‘]/g, "'").replace(/[^\p{L}\p{N}']+/gu, ' ').trim();
const DECLINES = [...Object.values(NO_ANSWER_IN), NOT_COVERED].map(normal);

/** True when the reply is, or holds, the offline decline or the model's not-covered sentence. */
export function isDecline(reply: string): boolean {
  const said = normal(reply);
  return said !== '' && DECLINES.some((decline) => said.includes(decline));
}
