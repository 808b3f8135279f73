import { isStopword } from './text.js';

// What a yes/no question asks the material to say yes or no to: whether something is there or
// offered ("Is there a free trial?", "Do you have gift cards?": the thing, named by its last
// word), or whether one can do something ("Can I track my order?": the verb). A material with no
// word for it cannot say yes; a sentence sharing the question's other words ("Removing a user
// frees their seat", "you get an e-mail when your order leaves") is no answer to it.

/** "Is there a…", "Do you have any…", "Does the hotel offer…": what follows is the thing asked of. */
const THERE_OR_OFFERED =
  /^(?:(?:is|are) there|(?:do|does) (?:you|u|they|we|it|the \S+) (?:have|offer|provide|sell|run|give|organise|organize|arrange)) (?:a |an |any |some )?/;
/** "Can I…", "Could we…": the verb that follows is what is asked. */
const CAN_ONE = /^(?:can|could|may) (?:i|we) /;
/** Verbs that say little of their own ("Can we take our pram?", "Can I get a refund?"): their object says what is asked. */
const LIGHT_VERBS = new Set(['take', 'bring', 'get', 'have', 'use', 'make', 'do', 'go', 'put', 'keep', 'come', 'give']);
/** Words that end the name of the thing asked of ("a deposit for rentals", "parking at night"). */
const ENDS_THING = new Set(['for', 'on', 'in', 'at', 'with', 'to', 'from', 'by', 'during', 'if', 'when', 'while', 'near', 'after', 'before', 'over', 'under', 'of']);

/**
 * The index among the question's words of the one naming what it asks about, or undefined for a
 * question of another form.
 */
export function askedThing(tokens: string[]): number | undefined {
  const plain = tokens.join(' ');
  const can = CAN_ONE.exec(plain);
  if (can) {
    const verb = wordsIn(can[0]);
    const word = tokens[verb];
    if (word === undefined) return undefined;
    return LIGHT_VERBS.has(word) || isStopword(word) ? lastOfThing(tokens, verb + 1) : verb;
  }
  const there = THERE_OR_OFFERED.exec(plain);
  return there ? lastOfThing(tokens, wordsIn(there[0])) : undefined;
}

/** The words after a verb that say by what means it is done ("pay over the phone", "book by email"). */
const MEANS = new Set(['by', 'over', 'via', 'through', 'using', 'with']);

/**
 * The indexes of a verb and the means a "Can I…?" question asks to do it by ("Can I pay over the
 * phone?": pay, phone), which an answer must name together: the material may have both, apart
 * ("We pay for the return shipping", "call 020 555 0100"), and say nothing of paying by phone.
 */
export function askedWithMeans(tokens: string[]): [number, number] | undefined {
  const can = CAN_ONE.exec(tokens.join(' '));
  if (!can) return undefined;
  const verb = wordsIn(can[0]);
  const word = tokens[verb];
  if (word === undefined || LIGHT_VERBS.has(word) || isStopword(word) || !MEANS.has(tokens[verb + 1] as string)) return undefined;
  const means = lastOfThing(tokens, verb + 2);
  return means === undefined ? undefined : [verb, means];
}

/** How many words a matched beginning of the question holds. */
const wordsIn = (beginning: string) => beginning.trim().split(' ').length;

/**
 * The last word of the thing named from `from` on, past a determiner or possessive; undefined for
 * none, or for several things ("our buggy and car seat"), of which the material may name some.
 */
function lastOfThing(tokens: string[], from: number): number | undefined {
  let at = from;
  while (at < tokens.length && isStopword(tokens[at] as string)) at += 1;
  let last: number | undefined;
  for (; at < tokens.length; at += 1) {
    const word = tokens[at] as string;
    if (word === 'and' || word === 'or') return undefined;
    if (ENDS_THING.has(word) || isStopword(word)) break;
    last = at;
  }
  return last;
}
