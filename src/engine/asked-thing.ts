import { businessPlaceKind } from './lexicon.js';
import { isStopword } from './text.js';

// What a question asks about: for a yes/no question, whether something is there or offered ("Is
// there a free trial?", "Do you have gift cards?": the thing, named by its last word), or whether
// one can do something ("Can I track my order?": the verb); for "When will my refund arrive?",
// the thing before the verb. A material with no word for it cannot answer; a sentence sharing the
// question's other words ("Removing a user frees their seat", "you get an e-mail when your order
// leaves", "New teammates come on board…" for "arrive") is no answer to it.

/** "Do you have…", "does the hotel offer…": a business offering something, by the verbs that say so. */
const OFFERED = String.raw`(?:do|does) (?:you|u|they|we|it|the \S+) (?:have|offer|provide|sell|run|give|organise|organize|arrange|take|accept)`;
/** "Is there a…", "Do you have any…", "Does the hotel offer…", "Do you take…": what follows is the thing asked of. */
const THERE_OR_OFFERED = new RegExp(`^(?:(?:is|are) there|${OFFERED}) (?:a |an |any |some )?`);
/**
 * "What lamps do you sell?", "which kinds of cards does the shop take?": the words between name
 * the thing asked of, and the verb only says that it is offered.
 */
const WHICH_OFFERED = new RegExp(`^(?:what|which)(?: (?:kinds?|sorts?|types?) of)?( (?:\\S+ ){1,3})${OFFERED}(?= |$)`, 'd');
/** "What do you sell?", "what does the shop offer": what a business offers, all of it, with nothing named. */
const WHAT_OFFERED = new RegExp(`^(?:what|which) ${OFFERED}$`);
/** "When will…", "How long does…", "Where is…": the thing named next, before its verb, is what is asked of. */
const WH_OF_THING = /^(?:when|where|why|how(?: long| soon| often| much| many)?|what time) (?:will|would|does|do|did|is|are|can|should|shall) /;
/** Who may do what a question asks of ("When can I…", "How do you…"). */
const PERSONS = new Set(['i', 'you', 'u', 'we', 'they', 'it', 'he', 'she', 'someone', 'anyone']);
/** "Can I…", "Could we…": the verb that follows is what is asked. */
const CAN_ONE = /^(?:can|could|may) (?:i|we) /;
/** Verbs that say little of their own ("Can we take our pram?", "Can I get a refund?"): their object says what is asked. */
const LIGHT_VERBS = new Set(['take', 'bring', 'get', 'have', 'use', 'make', 'do', 'go', 'put', 'keep', 'come', 'give']);
/**
 * "Where can I leave the car?", "is there somewhere to put my bags?": a place is asked for a
 * thing, by a verb of putting it somewhere, which says no more than "where" does.
 */
const PLACE_FOR = /^(?:where (?:can|could|do|should|shall|may) (?:i|we|you) |(?:is|are) there (?:somewhere|anywhere|a place|any place|space|room) (?:i can |we can )?to )(?:leave|put|keep|store|take|bring|get|lock|drop)(?= )/;
/** Whether a verb (in its dictionary form) says little of its own, its object saying what is asked. */
export const isLightVerb = (word: string): boolean => LIGHT_VERBS.has(word);

/**
 * Words that end the name of the thing asked of ("a deposit for rentals", "parking at night"), and
 * words after it that say where or when it is had, not what it is ("Is there parking nearby?",
 * "Do you have tables available today?"): read as the thing, the material had to name them.
 */
const ENDS_THING = new Set([
  'for', 'on', 'in', 'at', 'with', 'to', 'from', 'by', 'during', 'if', 'when', 'while', 'near', 'after', 'before', 'over', 'under', 'of',
  'nearby', 'here', 'around', 'onsite', 'available', 'today', 'tonight', 'tomorrow',
]);

/**
 * The indexes among the question's words of those naming what it asks about, of which the
 * material must have one; none for a question of another form. A wh-question's thing is named by
 * all its words ("blood samples" is found by "blood tests"); a yes/no question's by its last.
 */
export function askedThing(tokens: string[]): number[] {
  const plain = tokens.join(' ');
  const can = CAN_ONE.exec(plain);
  if (can) {
    const verb = wordsIn(can[0]);
    const word = tokens[verb];
    if (word === undefined) return [];
    // "Can I pay with PayPal?" is answered by "We accept … PayPal", which has no word for paying.
    const withMeans = askedWithMeans(tokens);
    if (withMeans) return withMeans;
    return LIGHT_VERBS.has(word) || isStopword(word) ? listed(lastOfThing(tokens, verb + 1)) : [verb];
  }
  const there = THERE_OR_OFFERED.exec(plain);
  if (there) return listed(lastOfThing(tokens, wordsIn(there[0])));
  // "What lamps do you sell?" names none the material must have: its answer may name the ones
  // there are ("We accept Visa and PayPal"), not their kind.
  const wh = WH_OF_THING.exec(plain);
  return wh ? subjectBeforeVerb(tokens, wordsIn(wh[0])) : [];
}

const listed = (at: number | undefined) => (at === undefined ? [] : [at]);

/**
 * The words of the thing named from `from` on, before the verb that ends their run ("my refund
 * arrive", "the shop open on Sundays"). A run of one word ("it arrive") names nothing of its own.
 */
function subjectBeforeVerb(tokens: string[], from: number): number[] {
  // "How do I get my money back?" asks of what the asker does, not of a thing.
  if (PERSONS.has(tokens[from] as string)) return [];
  const verb = lastOfThing(tokens, from);
  const subject: number[] = [];
  for (let at = (verb ?? 0) - 1; at >= from && !isStopword(tokens[at] as string); at -= 1) subject.unshift(at);
  return subject;
}

/** The words after a verb that say by what means it is done ("pay over the phone", "book by email"). */
const MEANS = new Set(['by', 'over', 'via', 'through', 'using', 'with']);

/**
 * The indexes of a verb and the means a "Can I…?" question asks to do it by ("Can I pay over the
 * phone?": pay, phone), which an answer must name together: the material may have both, apart
 * ("We pay for the return shipping", "call 020 555 0100"), and say nothing of paying by phone.
 */
export function askedWithMeans(tokens: string[]): [number, number] | undefined {
  const verb = askedAbility(tokens);
  if (verb === undefined || !MEANS.has(tokens[verb + 1] as string)) return undefined;
  const means = lastOfThing(tokens, verb + 2);
  return means === undefined ? undefined : [verb, means];
}

/**
 * The index of the verb a "Can I…?" question asks whether one may do ("Can I cancel my plan?":
 * cancel), when it says something of its own; undefined for a light verb or another form.
 */
export function askedAbility(tokens: string[]): number | undefined {
  const can = CAN_ONE.exec(tokens.join(' '));
  if (!can) return undefined;
  const verb = wordsIn(can[0]);
  const word = tokens[verb];
  return word === undefined || LIGHT_VERBS.has(word) || isStopword(word) ? undefined : verb;
}

/**
 * A verb that says little of its own in a question asking of its object, and the object's words
 * (indexes among the question's): a sentence with the verb alone ("Delivery takes 2 to 4 days")
 * answers less of it than one naming the object. `whenLacked`: the verb says nothing, but only
 * where the material lacks it as a verb, as the verb of "What lamps do you sell?" does: a material
 * saying "We sell…" says what the question asks, while what word vectors put near "sell" or a
 * noun spelt as the verb ("Follow us for new designs and offers") is no more than the question's form.
 */
export type LightVerb = { verb: number; object: number[]; whenLacked: boolean };

/** The light verb of "Do you take PayPal?", "Can I get a refund?", "What lamps do you sell?"; undefined for none. */
export function lightVerbOfThing(tokens: string[]): LightVerb | undefined {
  const plain = tokens.join(' ');
  const can = CAN_ONE.exec(plain);
  const offered = THERE_OR_OFFERED.exec(plain);
  // "Can I get…": the word after the opening; "Do you take a…", "Does the hotel have…": the opening's verb.
  const verb = can ? wordsIn(can[0]) : offered ? tokens.slice(0, wordsIn(offered[0])).findIndex((word, i) => i > 1 && LIGHT_VERBS.has(word)) : -1;
  const object = verb >= 0 && LIGHT_VERBS.has(tokens[verb] as string) ? lastOfThing(tokens, verb + 1) : undefined;
  if (object !== undefined) return { verb, object: [object], whenLacked: false };
  const place = placeAsked(tokens);
  return place ? { verb: place.verb, object: [place.thing], whenLacked: false } : whichOffered(plain);
}

/** Verbs by which a business only has a thing for its customers: no one way of dealing in it. */
const HAVING = new Set(['have', 'offer', 'provide', 'give', 'take', 'accept']);
/**
 * "Do you sell…", "do they sell…": a business asked whether it sells a thing, which is one way of
 * dealing in it among others (servicing, renting, repairing it), and none of those.
 */
const SELLING = /^(?:do|does) (?:you|u|they) sell /;

/**
 * The verb and the thing of a question asking whether the business sells a thing ("Do you sell
 * bikes?": sell, bikes), as indexes among its words; undefined for another form.
 */
export function sellingAsked(tokens: string[]): { verb: number; thing: number } | undefined {
  const thing = SELLING.test(tokens.join(' ')) ? lastOfThing(tokens, 3) : undefined;
  return thing === undefined ? undefined : { verb: 2, thing };
}

/** Whether a verb (in its dictionary form) says only that a thing is had, or says little of its own ("have", "offer", "take"). */
export const saysOnlyHad = (word: string): boolean => HAVING.has(word) || LIGHT_VERBS.has(word);

/**
 * The verb of putting and the thing of a question asking where to put it ("Where can I leave the
 * car?": leave, car), as indexes among its words; undefined for another form.
 */
export function placeAsked(tokens: string[]): { verb: number; thing: number } | undefined {
  const place = PLACE_FOR.exec(tokens.join(' '));
  const thing = place ? lastOfThing(tokens, wordsIn(place[0])) : undefined;
  return place && thing !== undefined ? { verb: wordsIn(place[0]) - 1, thing } : undefined;
}

/**
 * The index of the verb of a question asking what a business offers, naming nothing ("What do you
 * sell?"): the verb says only that something is offered; undefined for another form.
 */
export function offeringAsked(tokens: string[]): number | undefined {
  return WHAT_OFFERED.test(tokens.join(' ')) ? tokens.length - 1 : undefined;
}

/**
 * The verb of a question asking which of something a business offers ("What lamps do you sell?",
 * "which kinds of cards does the shop take?"), where the words before it name the thing, and
 * those words (but stopwords); undefined for another form or no thing named.
 */
function whichOffered(plain: string): LightVerb | undefined {
  const which = WHICH_OFFERED.exec(plain);
  const named = which?.indices?.[1];
  if (!which || !named) return undefined;
  const from = wordsIn(plain.slice(0, named[0]));
  const object = plain
    .slice(named[0], named[1])
    .trim()
    .split(' ')
    .flatMap((word, k) => (isStopword(word) ? [] : [from + k]));
  return object.length > 0 ? { verb: wordsIn(which[0]) - 1, object, whenLacked: true } : undefined;
}

/** The business asked of as a person: "you", "u", "you guys". */
const YOU = String.raw`(?:you|u|ya|you guys|y all)`;
/** The business's place named by what it is: "your shop", "the main office", "ur studio". */
const BUSINESS = String.raw`(?<whose>your|ur|the) (?:(?:main|nearest|closest|new|local|physical) )?(?<business>\S+)`;
/** Words that say no more than "where" after the business: "located", "based", "exactly". */
const SITED = String.raw`(?: (?:located|situated|based))?(?: (?:exactly|now|today))?`;
/** The words naming a place itself: "your address", "the location". */
const PLACE_NOUN = String.raw`(?:(?:street|postal|physical|visiting|shop|store|office|business|full|exact) )?(?:address|location|postcode|post code|zip code|whereabouts|premises)`;
/**
 * Questions asking where the business itself is, the words of the question up to `rest` saying
 * only that: "Where are you (located)?", "Where is your shop?", "What is your address?", "How do I
 * find you?", "Are you based in Bergen?" (its "Bergen" is the rest).
 */
const PLACE_OF_BUSINESS = [
  String.raw`^(?:where|where['’]s)(?: (?:are|r))? ${YOU}${SITED}(?: at)?`,
  String.raw`^(?:where|where['’]s)(?: (?:is|are))? ${BUSINESS}${SITED}`,
  String.raw`^(?:(?:what|whats|what['’]s)(?: (?:is|are))? |(?:can|could) (?:i|we) (?:have|get) |tell me )?(?:your|ur|the) ${PLACE_NOUN}(?: of ${BUSINESS})?`,
  String.raw`^(?:where|how) (?:can|do|could|should|would|will) (?:i|we|one) (?:find|visit|locate|get to) (?:${YOU}|${BUSINESS})`,
  String.raw`^(?:are|r) ${YOU} (?:located|situated|based)`,
].map((form) => new RegExp(`${form}(?= (?:in|at|near|around) |$)`));

/**
 * A question asking where the business itself is: how many words it opens with that say so
 * ("Where are you located?": all four; "Are you based in Bergen?": three), and the word naming the
 * business by what it is ("shop" of "Where is the shop?"; `yours` when asked as "your shop").
 */
export type PlaceAsked = { words: number; business?: { word: string; yours: boolean } };

/**
 * What a question asking where the business itself is opens with, which the sentence stating its
 * address answers (place-stated.ts); undefined for a question asking something else, or where
 * another thing is ("Where is the tram stop?", "Where are your toilets?"). "The shop" must name a
 * place where people work or trade; "your hotel", a building or facility too.
 */
export function businessPlaceAsked(tokens: string[]): PlaceAsked | undefined {
  const plain = tokens.join(' ');
  for (const form of PLACE_OF_BUSINESS) {
    const found = form.exec(plain);
    const { business, whose } = found?.groups ?? {};
    const kind = business === undefined ? undefined : businessPlaceKind(business);
    if (!found || kind === 'other' || (kind === 'premises' && whose === 'the')) continue;
    return { words: wordsIn(found[0]), ...(business === undefined ? {} : { business: { word: business, yours: whose !== 'the' } }) };
  }
  return undefined;
}

/** Words that stand for a place or thing without naming it ("Is there somewhere to park?"): no thing of their own. */
const INDEFINITE = new Set(['somewhere', 'anywhere', 'everywhere', 'someplace', 'anyplace']);
/** Whether a word stands for a place without naming it: it asks "where", as a question's form does. */
export const isIndefinitePlace = (word: string): boolean => INDEFINITE.has(word);

/**
 * The words of the thing a question asks of before the one naming it, and that one, as indexes
 * among its words: the object of a "Can I…?" question's own verb ("Can I order a wedding cake?":
 * wedding, cake), or what "Is there…?", "Do you have…?" ask of ("Is there a student discount?").
 * Undefined for another form, a thing of one word, or several things ("bread and cakes"). A light
 * verb's object is the thing asked itself (askedThing), read whole.
 */
export function kindOfThingAsked(tokens: string[]): { kind: number[]; thing: number } | undefined {
  const plain = tokens.join(' ');
  const can = CAN_ONE.exec(plain);
  const there = THERE_OR_OFFERED.exec(plain);
  const ownVerb = can && !LIGHT_VERBS.has(tokens[wordsIn(can[0])] as string);
  let at = ownVerb ? wordsIn(can[0]) + 1 : there ? wordsIn(there[0]) : tokens.length;
  while (at < tokens.length && isStopword(tokens[at] as string) && !ENDS_THING.has(tokens[at] as string)) at += 1;
  const run: number[] = [];
  for (; at < tokens.length && !ENDS_THING.has(tokens[at] as string) && !isStopword(tokens[at] as string); at += 1) run.push(at);
  const thing = run.pop();
  // A run that the question goes on past ("order cakes online") or that ends in a verb's particle ("get my money back") names no thing.
  const ends = at === tokens.length || ENDS_THING.has(tokens[at] as string);
  if (thing === undefined || run.length === 0 || !ends || AFTER_OBJECT.has(tokens[thing] as string)) return undefined;
  return { kind: run, thing };
}

/** The particles of English's phrasal verbs that may stand after the verb's object ("get my money back"). */
const AFTER_OBJECT = new Set(['back', 'up', 'out', 'off', 'down', 'away', 'over', 'in', 'on']);

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
    if (word === 'and' || word === 'or' || INDEFINITE.has(word)) return undefined;
    if (ENDS_THING.has(word) || isStopword(word)) break;
    last = at;
  }
  return last;
}
