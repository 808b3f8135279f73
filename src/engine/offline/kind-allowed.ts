import { namedKindsOf } from '../lexicon.js';
import { splitSentences } from '../structure.js';
import { isStopword, stem, words } from '../text.js';

// A question whether one may bring a thing, answered by a sentence allowing only a kind of it:
// "Can I bring my dog?" on a museum's "Assistance dogs are welcome." is a no for a pet, and
// quoted alone it read as a yes. The reply says so before the quote.

/** "Can I…", "Are dogs allowed?", "Is my dog welcome?", "Do you allow dogs?": a question asking leave. */
const ASKS_LEAVE =
  /^(?:(?:can|could|may) (?:i|we|my|our)\b|(?:are|is)\b.*\b(?:allowed|welcome|permitted)$|(?:do|does) (?:you|the \S+) (?:allow|permit|welcome|accept)\b)/;
/** "Assistance dogs are welcome", "Only small dogs are allowed": a sentence giving a kind of a thing (two words) leave. */
const KIND_ALLOWED = /^(?:only )?(\S+) (\S+) are (?:(?:also|always|very) )?(?:welcome|allowed|permitted)\b/;
/** Words before a thing that say how many of it, not which kind ("All dogs are welcome"). */
const HOW_MANY = new Set(['all', 'both', 'most', 'many', 'other']);

/**
 * The answer, opened by saying that only the kind it allows is allowed, when the question asks
 * leave for the thing without naming that kind ("my dog", "dogs") and the answer names the thing
 * only as that kind; the answer itself otherwise. A kind the question names in other words ("my
 * guide dog" of "Assistance dogs") is the one allowed.
 */
export function withKindAllowed(question: string, answer: string): string {
  const asked = words(question);
  if (!ASKS_LEAVE.test(asked.join(' '))) return answer;
  const allowed = answer
    .split('\n')
    .flatMap(splitSentences)
    .map((sentence) => KIND_ALLOWED.exec(words(sentence).join(' ')))
    .find((match) => match !== null);
  if (!allowed) return answer;
  const [, kind = '', thing = ''] = allowed;
  const at = asked.findIndex((word) => stem(word) === stem(thing));
  if (at < 0 || isStopword(kind) || HOW_MANY.has(kind) || asked.some((word) => stem(word) === stem(kind))) return answer;
  if (namedKindsOf(asked[at - 1] ?? '', asked[at]).some((name) => stem(name) === stem(kind))) return answer;
  return namesOnlyTheKind(answer, kind, thing) ? `Only ${kind} ${thing} are allowed: ${answer}` : answer;
}

/** Whether every mention of the thing in the answer is of the kind ("Dogs are not allowed; assistance dogs are welcome." is not). */
function namesOnlyTheKind(answer: string, kind: string, thing: string): boolean {
  const said = words(answer);
  return said.every((word, i) => stem(word) !== stem(thing) || said[i - 1] === kind);
}
