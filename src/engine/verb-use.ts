// Whether a word of a sentence is used as a verb, told by the words before it. English spells
// many nouns as verbs ("offers", "sales", "designs"), and the index reads both as one term: a
// sentence saying what a business does ("We design and sell lamps") answers "What do you
// sell?", one naming offers ("Follow us for new designs and offers") does not answer "What do you
// offer?".

/**
 * Words after which the next is a verb: a subject pronoun, a relative one, an auxiliary, a modal,
 * "to", or an adverb that stands between a subject and its verb ("we also offer").
 */
const BEFORE_VERB = new Set(
  (
    'i we you u they he she it who we’re we\'re we’ll we\'ll we’ve we\'ve they’re they\'re ' +
    'to can could will would may might must shall should do does did don\'t don’t not never ' +
    'is are was were be been being also only now still already often always usually proudly happily'
  ).split(' '),
);
/** Words joining two verbs of one subject ("we design and sell"). */
const JOINING = new Set(['and', 'or']);

/**
 * Whether the at-th of a sentence's words (text.ts words) is used as a verb: after a word that a
 * verb follows, or joined by "and" or "or" to a verb so used.
 */
export function usedAsVerb(tokens: string[], at: number): boolean {
  for (let i = at; i > 0; i -= 2) {
    const before = tokens[i - 1] as string;
    if (BEFORE_VERB.has(before)) return true;
    if (!JOINING.has(before)) return false;
  }
  return false;
}

/** Words that stand between "we" and its verb ("we also rent…", "we can repair…"). */
const BETWEEN_WE_AND_VERB = new Set(['also', 'only', 'now', 'still', 'already', 'often', 'always', 'usually', 'can', 'will', 'do']);
/** Words opening a question put to the business, its verb after "you" ("Do you rent bikes?"). */
const ASKING_YOU = new Set(['do', 'does', 'can', 'could', 'will', 'would']);

/**
 * Whether the at-th of a sentence's words is a verb the business says of itself: after "we" ("We
 * service e-bikes", "we also rent…", "we design and sell"), or after "you" in a question put to it
 * (an owner's "Do you rent bikes?"). Not a customer's "You can return any lamp".
 */
export function saidOfBusiness(tokens: string[], at: number): boolean {
  let i = at;
  while (i > 1 && JOINING.has(tokens[i - 1] as string)) i -= 2;
  const before = tokens[i - 1];
  if (before === 'we') return true;
  if (BETWEEN_WE_AND_VERB.has(before as string) && tokens[i - 2] === 'we') return true;
  return before === 'you' && ASKING_YOU.has(tokens[i - 2] as string);
}
