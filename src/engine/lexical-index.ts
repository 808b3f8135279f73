import type { Chunk, SourceRef } from '../store/port.js';
import { mergeIndexParts, readIndexPart } from './index-parts.js';
import type { LexicalIndex, SearchableIndex } from './index-shape.js';
import { brandsOf, broaderNouns, derivedForms, distinctKinds, isCommon, isParaphrased, lemmas, mayNameAThing, meantByBack, namedKindsOf, placingVerbs, synonyms } from './lexicon.js';
import { PLACE_TERM } from './place-stated.js';
import { ASKS_PRICE, asksPriceByForm, asksRate, CHARGE_WORDS, PAYING_WORDS, PRICE_WORDS } from './price-asked.js';
import { withoutLeadIn } from './question.js';
import { questionLikeness, questionTerms, SAME_QUESTION } from './question-similarity.js';
import { joinSentences } from './structure.js';
import { sameHashes, type StringList } from './string-table.js';
import { termsOnlyInSpelledAddresses } from './spelled-addresses.js';
import { termReader, type TermReader } from './term-lookups.js';
import { addressesNamed, compoundFinder, isStopword, stem, terms, words } from './text.js';
import { askedAbility, askedThing, askedWithMeans, businessPlaceAsked, kindOfThingAsked, saysOnlyHad, sellingAsked, type PlaceAsked, isIndefinitePlace, isLightVerb, lightVerbOfThing, offeringAsked, placeAsked } from './asked-thing.js';
import { saidOfBusiness, usedAsVerb } from './verb-use.js';
import { similarity, stemOf, wordOf, wordRow, wordVectors, type WordVectors } from './word-vectors.js';

// The lexical index of one material version: built once from the chunks, then queried. It is
// plain data (index-shape.ts). Training does all the reading: the
// material's sections (heading or FAQ question as key), their sentences and each sentence's
// terms, and postings from term to sentence and to section key. A query only looks terms up.

/**
 * A sentence of a passage with the weight of the question it carries by its own words, and the
 * weight of those the section's key does not carry (absent: none): what singles out a row of a
 * table headed by the rest of the question ("What is the API rate limit on Pro?").
 */
export type PassageSentence = { text: string; weight: number; beyondKey?: number };

/** A retrieved section: its text for a model, and what the offline responder quotes from. */
export type Passage = {
  text: string;
  score: number;
  seq: number;
  /** The heading or question the section sits under ('' for none). */
  key: string;
  /** The share of the question's weight the section covers (key and sentences), 0–1. */
  coverage: number;
  /** The share its key alone covers: near 1 when the question asks what the heading names. */
  keyCoverage: number;
  /**
   * The share of the question's own words it covers by those words themselves (as written, their
   * base forms, synonyms or compounds), leaving out terms only word vectors put near a word: 0
   * when every word it covers is a guess ("allowed" ~ "take"), or when it covers only the words
   * a follow-up leans on ("What about a bird?" after "Can I bring my dog?"). A follow-up with no
   * words of its own ("How much is it?") is judged by those it leans on.
   */
  ownWordsCoverage: number;
  /** Question words it covers only by another kind of thing that word vectors put near them ("cats" by "dogs"). */
  otherKindWords: string[];
  /**
   * The share of its key's terms the question asks, by its own words or words near them of the
   * same kind: for a Q&A pair, how much of the pair's question is asked.
   */
  keyAsked: number;
  /** The section's sentences (a window of a long one), in reading order. */
  sentences: PassageSentence[];
  /** Question words the material lacks and English rarely uses, but as a name (a product, not "nicked"): it is not about them. */
  unknownWords: string[];
  /**
   * The section lacks what an answer must name: one of two words the question asks together
   * (asked-thing.ts askedWithMeans), or the thing it asks of (askedThing), which the material has
   * elsewhere: "Is there a free trial?" is not answered by "Delivery is free…".
   */
  lacksAsked: boolean;
  /**
   * The section leaves unstated the amount the question's form asks for, and does not answer it:
   * the question asks what something costs and none of the sentences states a price, nor that it
   * is free; or it asks how long and they state figures, none of them a time or length.
   */
  unstated: boolean;
  /**
   * The sections next to this one (in reading order), handed to a model with it while the
   * passages stay short; no part of what the offline responder quotes.
   */
  around?: { before: string[]; after: string[] };
  /** What the section was read from; absent for material trained before sources. A `qa` one's text is `${question}\n${answer}`. */
  source?: { id: string; title: string; url?: string; type: 'text' | 'file' | 'website' | 'qa' };
};

/** A question, with the earlier conversation as context for follow-ups ("and on weekends?"). */
export type Query = string | { question: string; context?: string };

/** `around`: also hand each passage the sections beside it (for a model; the offline responder reads none). */
export type LexicalSearcher = (query: Query, limit: number, options?: { around?: boolean }) => Passage[];

/** The index of the chunks: each source's (each page's) part read on its own, then merged (index-parts.ts). */
export function buildLexicalIndex(chunks: Chunk[]): LexicalIndex {
  return mergeIndexParts(runsBySource(chunks).map(({ source, texts }) => readIndexPart(source, texts)));
}

/** Consecutive chunks of one source, with the source as JSON (undefined for chunks without one). */
export function runsBySource(chunks: Pick<Chunk, 'text' | 'source'>[]): { source: string | undefined; texts: string[] }[] {
  const runs: { source: string | undefined; texts: string[] }[] = [];
  let ref: SourceRef | undefined;
  let source: string | undefined;
  for (const chunk of chunks) {
    // A source's chunks often share its object: written as JSON once, not once a chunk.
    if (chunk.source !== ref) {
      ref = chunk.source;
      source = ref && JSON.stringify(ref);
    }
    const last = runs.at(-1);
    if (last && last.source === source) last.texts.push(chunk.text);
    else runs.push({ source, texts: [chunk.text] });
  }
  return runs;
}

/**
 * The source a section was read from, if the material names one: each read from its JSON once,
 * for the index's life, and shared (frozen) by the passages that name it.
 */
function sourceReader(index: SearchableIndex): (section: number) => Readonly<SourceRef> | undefined {
  const read: Readonly<SourceRef>[] = [];
  return (section) => {
    const k = index.sectionSource[section] ?? -1;
    return k < 0 ? undefined : (read[k] ??= Object.freeze(JSON.parse(index.sources.at(k) as string) as SourceRef));
  };
}

/** The sources (as JSON) that are Q&A pairs, by their index. */
function qaSourcesOf(sources: StringList): Set<number> {
  const qa = new Set<number>();
  for (let k = 0; k < sources.length; k += 1) if ((JSON.parse(sources.at(k) as string) as SourceRef).type === 'qa') qa.add(k);
  return qa;
}

// ---- search -----------------------------------------------------------------------------------

/** How much a synonym's match counts against the word's own. */
const SYNONYM_FACTOR = 0.7;
/** How much a broader kind's match counts (lexicon.ts broaderNouns), less by a fifth a level up. */
const BROADER_FACTOR = 0.6;
const BROADER_DECAY = 0.8;
/**
 * Word vectors bridge a question word the material lacks, WordNet's synonyms included: a term
 * of the material this similar to it (cosine) stands for it, counting more the closer it is
 * ("processor" ~ "cpu" 0.78). Vectors also place related words close ("car" ~ "bike" 0.63,
 * "open" ~ "closed" 0.64), hence the high floor. Calibrated on the development set.
 */
const VECTOR_FLOOR = 0.7;
const VECTOR_FACTOR = 0.8;
/**
 * A missing word no term of the material comes this close to is foreign to it ("cash" in a
 * bike shop's FAQ): it weighs like a rare word the material lacks, and the question is declined.
 */
const FOREIGN = 0.55;
/**
 * How much the earlier conversation counts against the question itself. A short question that
 * refers back to it ("How much does it cost?" after asking about delivery) is about what was
 * asked before, which then counts in full; one that names one new thing ("And on Saturday?")
 * keeps to it; one that stands on its own ("And how long do refunds take?") may have changed
 * the subject, and the earlier question only breaks ties.
 */
const CONTEXT_FACTOR = 0.5;
const STANDALONE_CONTEXT_FACTOR = 0.1;
/** The particles of English's phrasal verbs that may stand after the verb's object, and how far after the verb. */
const PARTICLES = new Set(['back', 'up', 'out', 'off', 'down', 'away', 'over']);
const PARTICLE_REACH = 4;
/** The verbs saying what a thing is: "my tyre is flat". */
const COPULAS = new Set(['is', 'are', 'was', 'were']);
/**
 * The words before a verb's object: "miss my appointment" is one expression of the table of
 * paraphrases (lexicon.ts), as "miss appointments" is, and its object is read on its own too,
 * telling one booking's terms from another's. Not WordNet's: those are idioms written together
 * ("take place").
 */
const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their', 'this', 'that']);
/** The words opening a phrase that says which thing is meant, between it and what it is said to be: "the tyre on my bike is flat". */
const QUALIFYING = new Set(['on', 'of', 'in', 'at', 'for', 'from', 'with']);
/** How far past the thing such a phrase may end: "the tyre on my son's new e-bike is flat". */
const QUALIFYING_REACH = 7;
/**
 * Verbs so general that the words word vectors put near them are other general words ("take" ~
 * "order", "every", "leave", "must"): a material lacking one is not searched for those.
 */
const VAGUE_VERBS = new Set(['take', 'get', 'have', 'make', 'do', 'give', 'put', 'keep']);
/** Whether the word, or one of its dictionary forms ("comes", "got"), passes `test`. */
const inAnyForm = (test: (word: string) => boolean) => (word: string) => test(word) || lemmas(word).some(test);
const isVagueVerb = inAnyForm((word) => VAGUE_VERBS.has(word));
/** A light verb in any of its forms ("comes", "got"). */
const saysLittle = inAnyForm(isLightVerb);
/** Words by which a question points back at the earlier one's subject. */
const REFERS_BACK = new Set(['it', 'its', 'they', 'them', 'their', 'that', 'this', 'those', 'these']);
/** How much the earlier conversation's words count when choosing sentences within a section. */
const CONTEXT_TIE = 0.2;
/** Weight of a question word the material lacks but English knows ("last week"): a detail. */
const MISSING_KNOWN_WEIGHT = 1.8;
/** Keeps the weights of a tiny material's terms from all tending to zero. */
const SMOOTHING = 10;
/** Sentences looked at per query, whatever the material's size: the cost bound of a search. */
const CANDIDATE_BUDGET = 160;
/** Sentences of a long section handed on around its best one. */
const WINDOW = 16;
/**
 * The characters of passage text a search hands on when its passages are short: 800 tokens at
 * about four characters a token. Surroundings are sought this many sections away at most, which
 * bounds the search's cost on a large material.
 */
const CONTEXT_CHARS = 3_200;
const SURROUNDING_SECTIONS = 20;

/**
 * "How long", "how big", "what time": the question's form, asking for an amount (a measure's
 * adjective is the form's, not the thing asked about), which the answer states in numbers.
 */
const ASKS_AMOUNT = /^(?:how (?:long|much|many|often|soon|far|quickly|fast|big|large|small|heavy|old|tall|wide|high|deep|late|early)|what time)$/;
/** One must be so: a requirement, not what someone or something is ("How old are you?"). */
const REQUIRED = /\b(?:have|has|need|needs|got) to be\b|\b(?:must|should) (?:i |you |we |they |he |she |one )?be\b/;
/**
 * "How old do I have to be?" asks the age one must be, and names nothing else: it asks of an age
 * ("Age and ID"), where the material says one. Not "How old are you?".
 */
const asksAgeRequired = (plain: string): boolean => /\bhow old\b/.test(plain) && REQUIRED.test(plain);
/** Whether a question's words ask for an amount at the i-th word (its form's second). */
const asksAmountAt = (tokens: string[], i: number) =>
  (tokens[i - 1] === 'how' || tokens[i - 1] === 'what') && ASKS_AMOUNT.test(`${tokens[i - 1]} ${tokens[i]}`);
/**
 * "How long does it take?": the verb of a question asking for a duration is the form's too, yet
 * an answer often holds it ("Installation takes about 30 minutes"), so it counts, but less than
 * what the question names: "How long do refunds take?" is about refunds, not "Upgrades take effect".
 * (ASKS_DURATION, below, tells such a question.)
 */
const DURATION_VERB = /^(?:take|takes|took|taking)$/;
/** Less, not far less: at 0.6 a heading naming the rest ("Repairs") outweighs "takes two days" and its opening is quoted. */
const DURATION_VERB_FACTOR = 0.8;
/** A light verb before the thing asked of ("Do you take PayPal?") counts half: the thing says what is asked. */
const LIGHT_VERB_FACTOR = 0.5;
/** What a sentence answering a question that asks for an amount holds: a number. */
const STATES_AMOUNT = /\d/;
/** "How long does delivery take?", "how soon…": a time is asked (or, of a thing, a length). */
const ASKS_DURATION = /\bhow (?:long|soon|quickly|fast)\b/;
/** What a sentence answering it holds: a number of time or length units, in figures or words, or a time said in words ("next day"). */
const STATES_DURATION =
  /\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|few|several|couple of)(?:[\s-]+(?:working|business|calendar|full|more))?[\s-]+(?:second|minute|min|hour|hr|day|night|week|month|year|yr)s?\b|\b(?:same|next)[\s-]day\b|\bovernight\b|\bimmediately\b|\binstantly\b|\b(?:right|straight) away\b|\bwhile you wait\b|\d ?(?:h|hrs?|mins?|cm|mm|m|km|metres?|meters?|inch(?:es)?|feet|ft)\b/i;
const ASKS_PRICE_WORD = /\b(?:costs?|price[sd]?|fees?|charges?|charged|cheap(?:er|est)?|expensive)\b/;
const ASKS_OTHER_THAN_PRICE = /\b(?:when|where|who|why|which)\b|\bhow (?!much\b)/;
/**
 * "What does it cost?", "is there a fee for…?", "how much is…?" (not "how much does it weigh?"),
 * and no other question word ("when are fees taken?"): a price is asked, which an answer states.
 */
const asksAPrice = (plain: string) => (ASKS_PRICE_WORD.test(plain) || asksPriceByForm(plain) || asksRate(plain)) && !ASKS_OTHER_THAN_PRICE.test(plain);
/** The words naming a price, as terms: each stands for the other in a question asking one ("What does it cost?": "The price is…"). */
const PRICE_STEMS = new Set(PRICE_WORDS.map((word) => stem(word)));
/** The words of what a thing costs, as terms: no guess for paying, but in a question asking a price. */
const CHARGE_STEMS = new Set(CHARGE_WORDS.map((word) => stem(word)));
const RATE = stem('rate');
/** A word of paying, in any of its forms ("paid", "payments"). */
const isPaying = inAnyForm((word) => (PAYING_WORDS as readonly string[]).includes(word));
/** What a sentence answering a price holds: an amount of money or a share, or that it is free (or not charged). */
const STATES_PRICE =
  /\p{Sc}|\d ?(?:%|percent|per cent)|\b(?:nok|sek|dkk|isk|eur|usd|gbp|nzd|aud|cad|chf|jpy|cny|inr|zar|pln|czk|huf|brl|mxn|sgd|hkd|kr) ?\d|\d ?(?:nok|sek|dkk|isk|eur|usd|gbp|nzd|aud|cad|chf|jpy|cny|inr|zar|pln|czk|huf|brl|mxn|sgd|hkd|kr)\b|\b(?:euros?|dollars?|pounds?|cents?|pence|kron[aeo]r?|francs?|yen|rupees?|free|included|nothing)\b|\b(?:no|not|never|don't|doesn't|won't) (?:charge|cost|fee)/iu;
/** "What is your phone number?", "How do I contact support?", "who do I ring?": contact details are asked. */
const ASKS_CONTACT =
  /\b(?:phone|telephone|mobile) (?:number|no)\b|\bcontact (?:you|us|support|someone|the team|customer service)\b|\b(?:contact|reach|call|phone|ring|email|e mail) (?:you|support)\b|\b(?:your|the) (?:phone|telephone|email|e mail|number|contact)\b|\be?mail address\b|\bget in touch\b|\bwho (?:do|should|can) i (?:call|ring|contact|phone)\b|\bwhat number\b/;
/** What a sentence answering such a question holds: a phone number or an e-mail address. */
const STATES_CONTACT = /\+?\d[\d\s()./-]{5,}\d|[\w.+-]+@[\w-]+\.\w/;
/**
 * What a sentence answering "Can I cancel…?" says: that one can or may do it ("You can cancel at
 * any time…"), or tells one to ("Order a day ahead.", a step "1. Cancel in your account"), rather
 * than something else of it ("Annual plans cancelled within 30 days…").
 */
const statesAbility = (verb: string) => new RegExp(`\\b(?:can|may)\\s+(?:\\w+\\s+){0,2}?${stem(verb).replace(/\W/g, '')}|${tellsToDo(verb).source}`, 'i');
/** What opens a sentence telling one to do a thing, before its verb: a list's marker, "please", "just". */
const TELLS_TO = String.raw`^\s*(?:(?:[-*•]|\d{1,3}[.)])\s+)?(?:(?:please|just|simply)\s+)?`;
/** A sentence telling one to do what a "Can I…?" question asks of the verb ("Order a day ahead."). */
const tellsToDo = (verb: string) => new RegExp(`${TELLS_TO}${verb.replace(/\W/g, '')}\\b`, 'i');
/** "Phone number", "what number", "e-mail address": the question's form, which the number or address stated answers, not words the answer must hold. */
const CONTACT_FORM = /^(?:phone|telephone|mobile|contact|fax|what|which) (?:number|no)$|^e?mail address$/;
/** "Do you take cards?", "what payment does the clinic take": what a business takes, it accepts (WordNet's commonest "take" is to get hold of). */
const TAKES_AS_ACCEPTS = /^(?:(?:do|does) (?:you|u|they|it)|\S+ (?:do|does)) take$/;
/** The means of getting in touch, each standing for the others in a question asking for contact details ("your email?": "write to …"). */
const CONTACT_MEANS = new Set(['phone', 'telephone', 'call', 'ring', 'email', 'mail', 'write', 'contact']);
/** A sentence this close to the best one's weight is quoted with it (offline/compose.ts). */
export const CLOSE_TO_BEST = 0.8;
/** What stating what such a question asks (a number, contact details) adds to a sentence's score: a tie-break. */
const STATED_BONUS = 0.3;
/**
 * Within the section found, what stating it adds to a sentence's weight: more than the words of
 * an earlier question bring ("How much is that?" after "Can I take my bike?": "Bicycles cost NOK
 * 750", not "Pack your bicycle in a bike box").
 */
const STATED_FOCUS = 1;

/**
 * A question word's weight and the terms standing for it; `guessed`, those only its word vectors
 * put near it, and `otherKinds`, those of them naming another kind of thing (lexicon.ts).
 */
type Concept = {
  word: string;
  weight: number;
  context: boolean;
  ids: Map<number, number>;
  guessed?: Set<number>;
  otherKinds?: Set<number>;
  unknown?: string;
};

/** A question as read: its own concepts, those it implies (tie-breaks), the earlier conversation, and what its form asks an answer to state. */
/** `toldTo`: a sentence telling one to do what a "Can I…?" question asks (tellsToDo). */
type Reading = {
  asked: Concept[];
  implied: Concept[];
  together: number[];
  thing: number[];
  context: string;
  plain: string;
  refersBack: boolean;
  stated: RegExp | undefined;
  toldTo: RegExp | undefined;
};

/**
 * `expand: false` leaves out the question's base forms, synonyms and phrases (WordNet) and word
 * vectors; `vectors: false` the word vectors alone: to measure what they gain.
 */
export type SearchOptions = { expand?: boolean; vectors?: boolean };

/**
 * The concepts with a duration's verb ("How long do refunds take?") counting less, when the
 * question names something else; alone ("How long does it take?") it is what the question has.
 */
function withDurationVerbLighter(found: Concept[], tokens: string[]): Concept[] {
  if (!ASKS_DURATION.test(tokens.join(' '))) return found;
  const isVerb = (concept: Concept) => DURATION_VERB.test(concept.word);
  if (!found.some((concept) => !isVerb(concept))) return found;
  return found.map((concept) => (isVerb(concept) ? { ...concept, weight: concept.weight * DURATION_VERB_FACTOR } : concept));
}

export function lexicalSearcher(index: SearchableIndex, { expand = true, vectors = true }: SearchOptions = {}): LexicalSearcher {
  const reader = termReader(index.vocabulary, index.lookups, index.postingStart.length - 1);
  const { idOf, compounds } = reader;
  const has = (term: string) => idOf(term) >= 0;
  const findCompound = compoundFinder(compounds);
  const documents = index.sentences.length + index.keys.length;
  const hiddenTerms = new Map<number, ReadonlySet<number> | undefined>();
  /** The terms only a sentence's addresses written out in words hold, found once a sentence. */
  const hiddenIn: HiddenTerms = (sentence) => {
    if (hiddenTerms.has(sentence)) return hiddenTerms.get(sentence);
    const terms = termsOnlyInSpelledAddresses(index.sentences.at(sentence) as string).map(idOf);
    const found = terms.length > 0 ? new Set(terms) : undefined;
    hiddenTerms.set(sentence, found);
    return found;
  };
  /** How many sentences, and how many keys, hold a term, by id (none for -1, a term the index lacks). */
  const sentencesWith = (id: number) => (id < 0 ? 0 : (index.postingStart[id + 1] as number) - (index.postingStart[id] as number));
  const keysWith = (id: number) => (id < 0 ? 0 : (index.keyPostingStart[id + 1] as number) - (index.keyPostingStart[id] as number));
  const idf = (id: number) => Math.log(1 + (documents + SMOOTHING) / Math.max(1, sentencesWith(id) + keysWith(id)));
  const missingUnknownWeight = Math.log(1 + documents + SMOOTHING) + 1;
  const neighbours = vectorNeighbours(reader);
  const sourceOf = sourceReader(index);
  // The first section's key: the material's title where it heads its opening.
  const name = businessName(index.keys.at(0) ?? '', idOf, sentencesWith);

  /**
   * Whether a question's word is the business's trade as its name says it ("tattoo" of "Inkwell
   * Tattoo Studio"), not the name's own word: what every section is about, which a section stating
   * what the question asks of it need not name ("How much does a tattoo cost?" by the price list).
   */
  function isTrade(concept: Concept): boolean {
    return name !== undefined && !name.own.has(concept.word) && name.ids.has(idOf(stem(concept.word)));
  }

  /**
   * How the business's name is read for a question (Naming): undefined where the material has no
   * name, where none of the question's words is a word of it, or where the question names the
   * business by its own word ("What is Nordlys?"), asking of it by name.
   */
  function namingFor(asked: Concept[], all: Concept[]): Naming | undefined {
    if (!name || asked.some((concept) => name.own.has(concept.word))) return undefined;
    if (!all.some((concept) => [...concept.ids.keys()].some((id) => name.ids.has(id)))) return undefined;
    return { name: name.text, table: answerTable(answersOf(all, (_, id) => !name.ids.has(id))) };
  }

  /** The informative words of a text, each with the index terms standing for it. */
  function concepts(text: string, context: boolean, contextFactor = CONTEXT_FACTOR): Concept[] {
    const found: Concept[] = [];
    const tokens = words(text);
    const plain = tokens.join(' ');
    const asksContact = expand && ASKS_CONTACT.test(plain);
    const asksPrice = expand && asksAPrice(plain);
    const asksRates = asksPrice && asksRate(plain);
    // Particles read with their verb, a few words on.
    const readWithVerb = new Set<number>();
    for (let i = 0; i < tokens.length; i += 1) {
      const word = tokens[i] as string;
      if (asksAmountAt(tokens, i) || readWithVerb.has(i) || (expand && namesWhichThingIsSaid(tokens, i))) continue;
      if (CONTACT_FORM.test(`${tokens[i - 1]} ${word}`) || isIndefinitePlace(word)) continue;
      const partner = expand ? phrasePartner(tokens, i) : undefined;
      const phrase = partner !== undefined;
      const form = expansion(partner?.expression ?? word);
      if (partner?.at === i + 1) i += 1;
      else if (phrase) for (const at of partner.readWith ?? [partner.at]) readWithVerb.add(at);
      else if (form.own.length === 0) continue;
      const ids = new Map<number, number>();
      if (!phrase) for (const term of form.own) standsFor(ids, idOf(term), 1);
      for (const term of expand ? form.lemmas : []) standsFor(ids, idOf(term), 1);
      for (const term of expand ? form.synonyms : []) standsFor(ids, idOf(term), SYNONYM_FACTOR);
      if (asksContact && CONTACT_MEANS.has(word)) {
        for (const means of CONTACT_MEANS) standsFor(ids, idOf(stem(means)), SYNONYM_FACTOR);
      }
      if (asksPrice && PRICE_STEMS.has(stem(word))) for (const price of PRICE_STEMS) standsFor(ids, idOf(price), SYNONYM_FACTOR);
      // The business's rate is what it charges for an hour or a day's work: any word of a price stands for it.
      if (asksRates && stem(word) === RATE) for (const charge of CHARGE_STEMS) standsFor(ids, idOf(charge), SYNONYM_FACTOR);
      if (expand && TAKES_AS_ACCEPTS.test(tokens.slice(Math.max(0, i - 2), i + 1).join(' '))) standsFor(ids, idOf(stem('accept')), SYNONYM_FACTOR);
      // Only words the material lacks are read as their kinds ("parrots" as birds) or brands, as by vectors.
      const missing = ids.size === 0;
      for (const [kind, level] of expand && !phrase && missing ? broaderNouns(word) : []) {
        standsFor(ids, idOf(stem(kind)), BROADER_FACTOR * BROADER_DECAY ** (level - 1));
      }
      for (const brand of expand && !phrase && missing ? brandsOf(word) : []) standsFor(ids, idOf(stem(brand)), SYNONYM_FACTOR);
      for (const meant of expand && word === 'back' ? meantByBack(tokens[i - 1]) : []) standsFor(ids, idOf(stem(meant)), 1);
      // A kind named by two words ("guide dog") is read as the material's name for it even where the
      // material has the first word for something else ("a guided tour").
      for (const kind of expand && !phrase ? namedKindsOf(word, tokens[i + 1]) : []) standsFor(ids, idOf(stem(kind)), SYNONYM_FACTOR);
      // The terms vectors add come after the kinds' in the map: those are the guesses.
      const known = ids.size;
      const vectorsSay = expand && vectors && !phrase && missing && !isVagueVerb(word) ? neighbours(word) : undefined;
      // Paying is not its price: a price is what a question asking how one pays does not ask.
      const priceIsNoGuess = !asksPrice && isPaying(word);
      for (const [term, factor] of vectorsSay?.near ?? []) if (!(priceIsNoGuess && CHARGE_STEMS.has(term))) standsFor(ids, idOf(term), factor);
      const guessed = ids.size > known ? new Set([...ids.keys()].slice(known)) : undefined;
      const otherKinds = guessed && new Set(vectorsSay?.near.filter(([, , otherKind]) => otherKind).map(([term]) => idOf(term)));
      // A compound of the material ("e-bikes") is what "electric" means before "bikes", and
      // what "ebikes" is written together.
      const compound = findCompound(word, tokens[i + 1], form.own.every(has));
      if (compound) standsFor(ids, idOf(compound), 1);
      const factor = context ? contextFactor : 1;
      const foreign = ids.size === 0 && vectorsSay !== undefined && vectorsSay.best < FOREIGN;
      const unknown = ids.size === 0 && !/^\d+$/.test(word) && form.rareName;
      let strongest = -Infinity;
      for (const [id, f] of ids) strongest = Math.max(strongest, idf(id) * f);
      const weight = ids.size > 0 ? strongest : unknown || foreign ? missingUnknownWeight : MISSING_KNOWN_WEIGHT;
      found.push({ word, weight: weight * factor, context, ids, ...(guessed ? { guessed, otherKinds } : {}), ...(unknown ? { unknown: word } : {}) });
    }
    return withDurationVerbLighter(found, tokens);
  }

  /**
   * The concepts of a question asking where the business is (asked-thing.ts businessPlaceAsked):
   * a sentence stating the place (PLACE_TERM, place-stated.ts), not one merely holding the word
   * ("Update your billing address…", "the phone's location"), then the words after its opening
   * ("in Bergen"). A material stating none cannot answer: "address" counts as a word it never
   * names. "The bakery" may be something else the material names (a bakery next door), and counts
   * as asked where the material has the word; "your shop" is the business, and only breaks ties.
   */
  function askedForPlace(place: PlaceAsked, tokens: string[]): Concept[] {
    const id = idOf(PLACE_TERM);
    const address: Concept =
      id >= 0
        ? { word: 'address', weight: idf(id), context: false, ids: new Map([[id, 1]]) }
        : { word: 'address', weight: missingUnknownWeight, context: false, ids: new Map(), unknown: 'address' };
    const named = place.business && !place.business.yours ? concepts(place.business.word, false).filter((c) => ownTerms(c).length > 0) : [];
    return [address, ...named, ...concepts(tokens.slice(place.words).join(' '), false)];
  }

  /**
   * A two-word expression ("bring back") is one idea when English has it as one, and stands for
   * its meaning (~ return), not for its words, when the material has a word for that meaning;
   * otherwise ("phone number" ~ number) its words are read one by one.
   */
  function isPhrase(pair: Expansion): boolean {
    return pair.known && !pair.own.every(has) && [...pair.lemmas, ...pair.synonyms].some((term) => has(term) && !pair.own.includes(term));
  }

  /**
   * The word that makes one expression with the i-th, and the expression: the next, a verb's
   * object past its determiner ("miss my appointment"), what a thing is said to be ("my tyre is
   * flat" is a flat tyre), or a verb's particle a few words on, past its object ("take the lamp
   * back", "pick my dog up"); undefined for none. `readWith`: the
   * words read with the expression, where not just the partner: a phrase saying whose thing it is
   * ("the tyre on my bike is flat" is a flat tyre, not a bike), or none for a verb's object.
   */
  function phrasePartner(tokens: string[], i: number): { at: number; expression: string; readWith?: number[] } | undefined {
    const word = tokens[i] as string;
    const next = tokens[i + 1];
    if (next !== undefined && isPhrase(expansion(`${word} ${next}`))) return { at: i + 1, expression: `${word} ${next}` };
    const object = tokens[i + 2];
    const withObject = `${word} ${object}`;
    if (object !== undefined && DETERMINERS.has(next as string) && isParaphrased(withObject) && isPhrase(expansion(withObject))) {
      return { at: i + 2, expression: withObject, readWith: [] };
    }
    const said = saidPhrase(tokens, i);
    if (said !== undefined) return { at: said, expression: `${tokens[said]} ${word}`, readWith: Array.from({ length: said - i }, (_, k) => i + 1 + k) };
    for (let j = i + 2; j < tokens.length && j <= i + PARTICLE_REACH; j += 1) {
      const expression = `${word} ${tokens[j]}`;
      if (PARTICLES.has(tokens[j] as string)) return isPhrase(expansion(expression)) ? { at: j, expression } : undefined;
    }
    return undefined;
  }

  /** Where the word said of the i-th thing is, when the two make one expression ("my tyre is flat": a flat tyre); undefined for none. */
  function saidPhrase(tokens: string[], i: number): number | undefined {
    const said = saidToBe(tokens, i);
    return said !== undefined && isPhrase(expansion(`${tokens[said]} ${tokens[i]}`)) ? said : undefined;
  }

  /**
   * Whether the i-th word is a noun before the thing said to be something, saying which thing it
   * is as a phrase after it would ("my bike tyre is flat", as "the tyre on my bike is flat"): read
   * with the expression, not as a word asked of its own, which outweighed it and drew a sentence
   * on e-bikes beside the one on punctures.
   */
  function namesWhichThingIsSaid(tokens: string[], i: number): boolean {
    const thing = i + 1;
    return thing < tokens.length && !isStopword(tokens[i] as string) && !isStopword(tokens[thing] as string) && saidPhrase(tokens, thing) !== undefined;
  }

  /**
   * Where the word said of the i-th thing is ("flat" of "my tyre is flat"), past a phrase saying
   * which thing it is ("the tyre on my bike is flat"); undefined for none.
   */
  function saidToBe(tokens: string[], i: number): number | undefined {
    const next = tokens[i + 1] as string;
    const copula = COPULAS.has(next)
      ? i + 1
      : QUALIFYING.has(next)
        ? tokens.findIndex((token, j) => j > i + 1 && j <= i + QUALIFYING_REACH && COPULAS.has(token))
        : -1;
    return copula >= 0 && copula + 1 < tokens.length ? copula + 1 : undefined;
  }

  /**
   * A place asked for a thing the material lacks ("is there somewhere to leave the car?") is where
   * one does to it what English has a verb for (lexicon.ts placingVerbs): the material's "parking"
   * and "client parks" stand for the car, as its synonyms would. Where it has no such word either,
   * nor any near the thing, a place for anything else is no answer ("to the left of reception" for
   * "leave"), and the question is declined.
   */
  function placedByItsVerb(asked: Concept[], tokens: string[]): void {
    const place = placeAsked(tokens);
    const thing = place && asked.find((c) => c.word === tokens[place.thing]);
    if (!thing || ownTerms(thing).length > 0) return;
    const near = thing.ids.size;
    for (const verb of placingVerbs(thing.word)) {
      for (const term of [verb, ...derivedForms(verb)]) standsFor(thing.ids, idOf(stem(term)), SYNONYM_FACTOR);
    }
    if (thing.ids.size > near) {
      thing.weight = Math.max(...[...thing.ids].map(([id, factor]) => idf(id) * factor));
      delete thing.unknown;
    } else if (near === 0) {
      thing.unknown = thing.word;
    }
  }

  /**
   * Whether a sentence or key of the material holding one of the terms `ids` passes `test`,
   * looking at as many of each term's sentences as a search looks at.
   */
  function anyHolding(ids: number[], test: (tokens: string[]) => boolean): boolean {
    const passes = (text: string) => test(words(text));
    for (const id of ids) {
      const start = index.postingStart[id] as number;
      const end = Math.min(index.postingStart[id + 1] as number, start + CANDIDATE_BUDGET);
      for (let k = start; k < end; k += 1) if (passes(index.sentences.at(index.postings[k] as number) as string)) return true;
      const keyStart = index.keyPostingStart[id] as number;
      const keyEnd = Math.min(index.keyPostingStart[id + 1] as number, keyStart + CANDIDATE_BUDGET);
      for (let k = keyStart; k < keyEnd; k += 1) if (passes(index.keys.at(index.keyPostings[k] as number) as string)) return true;
    }
    return false;
  }

  /** Whether a sentence or key of the material uses a word of one of the terms `ids` as a verb (verb-use.ts). */
  function saidAsVerb(ids: number[]): boolean {
    return anyHolding(ids, (tokens) => tokens.some((word, at) => ids.includes(idOf(stem(word))) && usedAsVerb(tokens, at)));
  }

  /**
   * Whether a sentence or key of the material holding one of the terms `ids` says the business
   * deals in it by a verb of its own (verb-use.ts saidOfBusiness) that says more than having it
   * ("We service e-bikes", an owner's "Do you rent bikes?").
   */
  function dealtInOtherwise(ids: number[]): boolean {
    const dealing = (word: string) => !isStopword(word) && !saysOnlyHad(word) && !lemmas(word).some(saysOnlyHad);
    return anyHolding(ids, (tokens) => tokens.some((word, at) => saidOfBusiness(tokens, at) && dealing(word)));
  }

  // The sources that are Q&A pairs, by their index in `sources`: read on the first follow-up.
  let qaSources: Set<number> | undefined;
  /** Whether a Q&A pair's question, under a key holding one of the asked words, is the question asked. */
  function ownersQuestion(question: string, asked: Concept[]): boolean {
    qaSources ??= qaSourcesOf(index.sources);
    const terms = questionTerms(question);
    for (const concept of asked) {
      for (const id of concept.ids.keys()) {
        for (let k = index.keyPostingStart[id] as number; k < (index.keyPostingStart[id + 1] as number); k += 1) {
          const section = index.keyPostings[k] as number;
          if (!qaSources.has(index.sectionSource[section] as number)) continue;
          if (questionLikeness(terms, questionTerms(index.keys.at(section) as string)) >= SAME_QUESTION) return true;
        }
      }
    }
    return false;
  }

  /** The best `limit` passages for the question as read, leaning on the earlier one or standing on its own. */
  function passagesFor({ asked, implied, together, thing, context, plain, refersBack, stated, toldTo }: Reading, leans: boolean, limit: number): Passage[] {
    const contextFactor = refersBack ? 1 : leans ? CONTEXT_FACTOR : STANDALONE_CONTEXT_FACTOR;
    const all = [...asked, ...implied, ...concepts(context, asked.length > 0, contextFactor)];
    // One that leans is judged with the words it leans on; one that stands on its own is judged
    // alone, so that the context cannot answer for it. An implied word only breaks ties.
    const isImplied = (c: number) => c >= asked.length && c < asked.length + implied.length;
    const judged = all.map((concept, c) => !isImplied(c) && (leans || !concept.context));
    const total = all.reduce((a, concept, c) => a + (judged[c] ? concept.weight : 0), 0);
    if (total === 0) return [];
    // The question's own words: a follow-up's earlier ones only when it has none ("How much is it?").
    const ownJudged = asked.length > 0 ? all.map((_, c) => c < asked.length) : judged;
    const ownTotal = all.reduce((a, concept, c) => a + (ownJudged[c] ? concept.weight : 0), 0);
    const unknownWords = asked.flatMap((concept) => concept.unknown ?? []);

    const answers = answersOf(all, () => true);
    const answered = answerTable(answers);

    // Candidates: the sentences and keys holding the rarest terms first, within a fixed budget.
    const ids = [...answers.keys()].sort((a, b) => idf(b) - idf(a));
    const perTerm = Math.max(16, Math.floor(CANDIDATE_BUDGET / Math.max(1, ids.length)));
    const candidateSentences = new Set<number>();
    const candidateSections = new Set<number>();
    for (const id of ids) {
      const start = index.postingStart[id] as number;
      const end = Math.min(index.postingStart[id + 1] as number, start + perTerm);
      for (let k = start; k < end; k += 1) candidateSentences.add(index.postings[k] as number);
      const keyStart = index.keyPostingStart[id] as number;
      const keyEnd = Math.min(index.keyPostingStart[id + 1] as number, keyStart + perTerm);
      for (let k = keyStart; k < keyEnd; k += 1) candidateSections.add(index.keyPostings[k] as number);
    }

    const scoring = sectionScoring(index, answered, all.length, stated, questionForm(plain), namingFor(asked, all), hiddenIn);
    // Most questions use no word vectors and lean on nothing: then these are the terms that answer.
    const ownWords = all.some((concept) => concept.guessed) ? answerTable(answersOf(all, (concept, id) => !concept.guessed?.has(id))) : answered;
    const sameKind = all.some((concept, c) => !judged[c] || concept.otherKinds?.size)
      ? answerTable(answersOf(all, (concept, id, c) => judged[c] === true && !concept.otherKinds?.has(id)))
      : answered;
    for (const sentence of candidateSentences) {
      scoring.consider(index.sentenceSection[sentence] as number, sentence, scoring.sentenceCover(sentence));
    }
    for (const section of candidateSections) {
      if (!scoring.best.has(section)) scoring.consider(section, index.sectionStart[section] as number, scoring.sentenceCover(-1));
    }

    // A section stating what the question's form asks of the business's trade need not name it.
    const ofTrade = stated !== undefined && stated !== STATES_CONTACT && thing.length > 0 && thing.every((c) => isTrade(all[c] as Concept));
    const statesOfTrade = (sentences: PassageSentence[]) => ofTrade && sentences.some((sentence) => stated.test(sentence.text));
    const passages = bestSections(scoring.best, limit).map(([section, { score, sentence }]): Passage => {
      const first = index.sectionStart[section] as number;
      const end = index.sectionStart[section + 1] as number;
      const from = Math.max(first, Math.min(sentence - Math.floor(WINDOW / 3), end - WINDOW));
      const to = Math.min(end, from + WINDOW);
      const key = scoring.keyCover(section);
      const covered = Float64Array.from(key);
      const sentences: PassageSentence[] = [];
      // The sentences saying something of what is asked: all of them under a key that does.
      const ofAsked: PassageSentence[] = [];
      const keyHolds = sumOf(key) > 0;
      for (let s = from; s < to; s += 1) {
        const own = scoring.sentenceCover(s);
        mergeInto(covered, own);
        const text = index.sentences.at(s) as string;
        const sentence = { text, weight: focusOf(own, all) + (stated?.test(text) ? STATED_FOCUS : 0), beyondKey: beyondKeyOf(own, key, all) };
        sentences.push(sentence);
        if (keyHolds || sumOf(own) > 0) ofAsked.push(sentence);
      }
      if (stated === STATES_DURATION) statedFirst(sentences, stated);
      if (toldTo) alongsideBest(sentences, toldTo);
      const coverBy = (table: AnswerTable) => (table === answered ? covered : sectionCover(index, table, section, from, to, all.length, hiddenIn));
      const coveredByOwnWords = coverBy(ownWords);
      const coveredBySameKind = coverBy(sameKind);
      const heading = index.keys.at(section) as string;
      const body = joinSentences(sentences.map((s) => s.text));
      const passage: Passage = {
        text: heading ? `${heading}\n${body}` : body,
        score,
        seq: section,
        key: heading,
        coverage: Math.min(1, sumOf(covered, judged) / total),
        keyCoverage: Math.min(1, sumOf(key, judged) / total),
        ownWordsCoverage: Math.min(1, sumOf(coveredByOwnWords, ownJudged) / ownTotal),
        otherKindWords: coveredBySameKind === covered ? [] : otherKindWords(all, judged, covered, coveredBySameKind),
        keyAsked: answeredShare(sameKind, index.keyTermStart, index.keyTerms, section),
        sentences,
        unknownWords,
        lacksAsked: together.some((c) => covered[c] === 0) || (thing.length > 0 && thing.every((c) => covered[c] === 0) && !statesOfTrade(sentences)),
        unstated: amountMissing(sentences, ofAsked, stated),
      };
      const source = sourceOf(section);
      return source ? { source, ...passage } : passage;
    });
    return passages;
  }

  return (query, limit, { around = true } = {}) => {
    const { question: message, context: earlier = '' } = typeof query === 'string' ? { question: query } : query;
    // Addresses read as the material's are (addressesNamed): "Is info@shop.example your email?" asks of an e-mail address.
    const question = addressesNamed(withoutLeadIn(message));
    const context = addressesNamed(withoutLeadIn(earlier));
    const tokens = words(question);
    const plain = tokens.join(' ');
    const place = expand ? businessPlaceAsked(tokens) : undefined;
    const read = place ? askedForPlace(place, tokens) : concepts(question, false);
    // Naming nothing, one standing alone asks the age its form does; one after another leans on it.
    const asked = expand && read.length === 0 && context === '' && asksAgeRequired(plain) ? concepts('age', false) : read;
    if (expand) placedByItsVerb(asked, tokens);
    // The words naming what the question asks of, as concepts (by index).
    const thing = askedThing(tokens)
      .map((at) => asked.findIndex((c) => c.word === tokens[at]))
      .filter((c) => c >= 0);
    markAskedThingMissing(asked, thing);
    markKindUnnamed(asked, tokens);
    markOfferingLacked(asked, tokens, saidAsVerb);
    markSellingLacked(asked, tokens, dealtInOtherwise);
    lightenVerbOfThing(asked, tokens, saidAsVerb);
    const together = askedTogether(asked, tokens);
    // "When…?" asks for a time, which the answer states in numbers as an amount.
    const asksAmount = tokens.includes('when') || tokens.some((_, i) => asksAmountAt(tokens, i));
    // What a sentence answering the question's form holds: contact details, a price, a time, or a number.
    const asksContact = ASKS_CONTACT.test(plain);
    const statedByForm = asksContact
      ? STATES_CONTACT
      : asksAPrice(plain)
        ? STATES_PRICE
        : ASKS_DURATION.test(plain)
          ? STATES_DURATION
          : asksAmount
            ? STATES_AMOUNT
            : undefined;
    // "Can I order…?": a sentence saying one can, or telling one to.
    const ability = statedByForm ? undefined : askedAbility(tokens);
    const able = ability === undefined ? undefined : (tokens[ability] as string);
    const stated = statedByForm ?? (able === undefined ? undefined : statesAbility(able));
    const toldTo = able === undefined ? undefined : tellsToDo(able);
    // A light verb says nothing of its own: "Do they come with a warranty?" names one thing.
    const named = asked.filter((concept) => !saysLittle(concept.word));
    const refersBack = named.length <= 1 && tokens.some((word) => REFERS_BACK.has(word));
    // A question of one word ("How much is it?", "And on Saturday?") leans on the earlier one,
    // unless it asks for contact details ("What's your email address?") or where the business is,
    // or the owner wrote it as a question of its own (a Q&A pair's): those are no follow-ups.
    const leans = refersBack || (asked.length <= 1 && !asksContact && !place && !ownersQuestion(question, asked));
    // A price asked by the form alone (price-asked.ts) is implied, and so is the business a place
    // is asked of as "your shop": counting as an earlier question that stands apart counts, they
    // only break ties (a price list wins over a sentence that merely names the thing: "how much is
    // a cargo bike?"; "Our shop on 12 Harbour Street…" over another address).
    const implied = [
      ...(ASKS_PRICE.test(plain) ? concepts('price', true, STANDALONE_CONTEXT_FACTOR) : []),
      ...(place?.business?.yours ? concepts(place.business.word, true, STANDALONE_CONTEXT_FACTOR) : []),
    ];
    const reading: Reading = { asked, implied, together, thing, context, plain, refersBack, stated, toldTo };
    let passages = passagesFor(reading, leans, limit);
    // A follow-up naming one thing of its own that the material holds, but no section of the
    // earlier subject does ("How far do you deliver?" after a question on the warranty), has
    // changed the subject. One the material lacks ("What if I get 45?") still asks of the earlier.
    const [own] = asked;
    if (leans && !refersBack && own?.ids.size && passages[0]?.ownWordsCoverage === 0) passages = passagesFor(reading, false, limit);
    return around ? withSurroundings(passages, index) : passages;
  };
}

// What follows runs for every term of every candidate sentence: plain loops and flat arrays, as
// a callback or a Map lookup per element costs more than the arithmetic, and functions of the
// module or methods rather than closures made per search (under tsx, which keeps functions' names,
// each closure made costs a defineProperty, about 0.3 µs).

/**
 * Term id → the one question word it answers, with the weight it brings: a word of the text
 * answers one word of the question, the one it matches best ("room" is not also "study"). Of the
 * terms standing for a word, those `counts` says.
 */
function answersOf(concepts: Concept[], counts: (concept: Concept, id: number, c: number) => boolean): Map<number, [number, number]> {
  const answers = new Map<number, [number, number]>();
  concepts.forEach((concept, c) => {
    const strongest = Math.max(...concept.ids.values());
    for (const [id, factor] of concept.ids) {
      if (!counts(concept, id, c)) continue;
      const weight = (concept.weight * factor) / strongest;
      if ((answers.get(id)?.[1] ?? 0) < weight) answers.set(id, [c, weight]);
    }
  });
  return answers;
}

/** Counts a term (an id, -1 for a term the index lacks) for a word at `factor`, unless it counts as much already. */
function standsFor(ids: Map<number, number>, id: number, factor: number): void {
  if (id >= 0 && (ids.get(id) ?? 0) < factor) ids.set(id, factor);
}

/**
 * The terms that answer a question's words, as an open-addressing table (linear probing, at most
 * a quarter full): each slot the term id (-1 for none), the word it answers and its weight. Most
 * terms of a sentence answer nothing, and are told so by a slot or two.
 */
type AnswerTable = { ids: number[]; concept: number[]; weight: number[]; mask: number };
/** The terms a sentence holds that are no words of it (spelled-addresses.ts), by sentence; undefined for none. */
type HiddenTerms = (sentence: number) => ReadonlySet<number> | undefined;

function answerTable(answers: Map<number, [number, number]>): AnswerTable {
  let capacity = 4;
  while (capacity < 4 * answers.size) capacity *= 2;
  const table: AnswerTable = {
    ids: new Array<number>(capacity).fill(-1),
    concept: new Array<number>(capacity).fill(0),
    weight: new Array<number>(capacity).fill(0),
    mask: capacity - 1,
  };
  for (const [id, [concept, weight]] of answers) {
    let slot = slotOf(table, id);
    while (table.ids[slot] !== -1) slot = (slot + 1) & table.mask;
    table.ids[slot] = id;
    table.concept[slot] = concept;
    table.weight[slot] = weight;
  }
  return table;
}

/** Where a term's probe starts: Fibonacci hashing, as term ids come in runs. */
const slotOf = (table: AnswerTable, id: number) => (Math.imul(id, 0x9e3779b1) >>> 16) & table.mask;

/** Raises each question word's weight in `into` to what the item's terms (`values` from `start[item]`) answer of it. */
function coverInto(table: AnswerTable, start: Int32Array, values: Int32Array, item: number, into: Float64Array, hidden?: ReadonlySet<number>): Float64Array {
  const { ids, concept, weight, mask } = table;
  for (let k = start[item] as number; k < (start[item + 1] as number); k += 1) {
    const id = values[k] as number;
    if (hidden?.has(id)) continue;
    for (let slot = slotOf(table, id); ids[slot] !== -1; slot = (slot + 1) & mask) {
      if (ids[slot] !== id) continue;
      const c = concept[slot] as number;
      if ((into[c] as number) < (weight[slot] as number)) into[c] = weight[slot] as number;
      break;
    }
  }
  return into;
}

/** The words judged that a section covers (`covered`) but not by terms of their own kind (`bySameKind`). */
function otherKindWords(concepts: Concept[], judged: boolean[], covered: Float64Array, bySameKind: Float64Array): string[] {
  const found: string[] = [];
  for (let c = 0; c < concepts.length; c += 1) {
    if (judged[c] && (covered[c] as number) > 0 && bySameKind[c] === 0) found.push((concepts[c] as Concept).word);
  }
  return found;
}

/** What a section's key and its sentences `from` up to `to` hold of the question's words, by the terms of `table`. */
function sectionCover(index: SearchableIndex, table: AnswerTable, section: number, from: number, to: number, words: number, hidden: HiddenTerms): Float64Array {
  const covered = coverInto(table, index.keyTermStart, index.keyTerms, section, new Float64Array(words));
  for (let s = from; s < to; s += 1) coverInto(table, index.sentenceTermStart, index.sentenceTerms, s, covered, hidden(s));
  return covered;
}

/** The share of an item's distinct terms (`values` from `start[item]`) that answer some question word; 0 for none. */
function answeredShare(table: AnswerTable, start: Int32Array, values: Int32Array, item: number): number {
  const first = start[item] as number;
  const end = start[item + 1] as number;
  let answering = 0;
  for (let k = first; k < end; k += 1) {
    const id = values[k] as number;
    for (let slot = slotOf(table, id); table.ids[slot] !== -1; slot = (slot + 1) & table.mask) {
      if (table.ids[slot] !== id) continue;
      answering += 1;
      break;
    }
  }
  return end > first ? answering / (end - first) : 0;
}

/**
 * The business's name as the material's title gives it, and the terms answering a question's
 * words but the name's: in the title and in a sentence naming the business ("Nordlys Bike Repair
 * is at Storgata 41") the name's "bike" says nothing of bikes, nor its "repair" of repairs.
 */
type Naming = { name: string; table: AnswerTable };

/**
 * A question's scoring of sections: what a section's key and a sentence hold of its words (a
 * sentence's in one array, overwritten by the next), and each section's best sentence so far.
 */
function sectionScoring(
  index: SearchableIndex,
  answered: AnswerTable,
  words: number,
  stated: RegExp | undefined,
  form: string | undefined,
  naming: Naming | undefined,
  hidden: HiddenTerms,
) {
  /** The terms answering in a sentence: not the name's where the sentence holds the name whole. */
  const namedSentences = new Map<number, boolean>();
  const sentenceTable = (sentence: number) => {
    if (!naming) return answered;
    let named = namedSentences.get(sentence);
    if (named === undefined) {
      named = (index.sentences.at(sentence) as string).includes(naming.name);
      namedSentences.set(sentence, named);
    }
    return named ? naming.table : answered;
  };
  const keyCovers = new Map<number, Float64Array>();
  const putAlike = new Map<number, boolean>();
  /** Whether a section's key is a question put as the question is (SAME_FORM_KEY). */
  const keyPutAlike = (section: number): boolean => {
    let alike = putAlike.get(section);
    if (alike === undefined) {
      const key = (index.keys.at(section) as string).split('›').at(-1)?.trim() ?? '';
      alike = key.endsWith('?') && questionForm(key) === form;
      putAlike.set(section, alike);
    }
    return alike;
  };
  // A section without a key (most of a plain text's) shares one cover of nothing.
  const noKey = new Float64Array(words);
  const own = new Float64Array(words);
  const joint = new Float64Array(words);
  const best = new Map<number, Best>();
  return {
    best,
    keyCover(section: number): Float64Array {
      if (index.keyTermStart[section] === index.keyTermStart[section + 1]) return noKey;
      let weights = keyCovers.get(section);
      if (!weights) {
        // The first section's key is the title the name was read from.
        weights = coverInto(naming && section === 0 ? naming.table : answered, index.keyTermStart, index.keyTerms, section, new Float64Array(words));
        keyCovers.set(section, weights);
      }
      return weights;
    },
    /** What sentence `sentence` holds (nothing for -1). */
    sentenceCover(sentence: number): Float64Array {
      for (let c = 0; c < words; c += 1) own[c] = 0;
      return sentence < 0 ? own : coverInto(sentenceTable(sentence), index.sentenceTermStart, index.sentenceTerms, sentence, own, hidden(sentence));
    },
    /**
     * A section scores by its best sentence together with its key; a heading, the material's own
     * statement of what its section is about, counts a little extra, and more when it is a
     * question put as the question is.
     */
    consider(section: number, sentence: number, ownWeights: Float64Array): void {
      const key = this.keyCover(section);
      joint.set(key);
      mergeInto(joint, ownWeights);
      // A question asking "how much" is answered by a sentence stating a number; one asking how
      // to get in touch, by one stating a phone number or an e-mail address.
      const states = stated?.test(index.sentences.at(sentence) as string) ? STATED_BONUS : 0;
      const keyWeight = sumOf(key);
      const keyFactor = form !== undefined && keyWeight > 0 && keyPutAlike(section) ? 0.15 + SAME_FORM_KEY : 0.15;
      const score = sumOf(joint) + keyFactor * keyWeight + 0.05 * sumOf(ownWeights) + states;
      const previous = best.get(section);
      if (!previous || score > previous.score) best.set(section, { score, sentence });
    },
  };
}

/**
 * The words naming what a question asks of (asked-thing.ts), when nothing in the material stands
 * for any of them, count as ones the material never names: the question is declined.
 */
function markAskedThingMissing(asked: Concept[], thing: number[]): void {
  const naming = thing.map((c) => asked[c] as Concept);
  if (naming.length === 0 || !naming.every((c) => c.ids.size === 0 && !/^\d+$/.test(c.word))) return;
  for (const concept of naming) concept.unknown = concept.word;
}

/**
 * "Can I order a wedding cake?" of a material that has cakes and no word for weddings, not even
 * one word vectors put near it, asks of a kind of cake it never names: the noun saying which kind
 * counts as a word the material never names, and the question is declined (and listed among the
 * unanswered for the owner), not answered by what the material says of its other cakes ("Order a
 * day ahead."). A word saying what the thing is like ("a large cake") names no kind.
 */
function markKindUnnamed(asked: Concept[], tokens: string[]): void {
  const kindOf = kindOfThingAsked(tokens);
  const thing = kindOf && asked.find((c) => c.word === tokens[kindOf.thing]);
  if (!kindOf || !thing || ownTerms(thing).length === 0) return;
  for (const at of kindOf.kind) {
    const kind = asked.find((c) => c.word === tokens[at]);
    if (kind && kind.ids.size === 0 && !/^\d+$/.test(kind.word) && mayNameAThing(kind.word)) kind.unknown = kind.word;
  }
}

/**
 * "What do you sell?" asks what a business offers by a verb that says only that: a material saying
 * "We sell…" answers it, but where the material lacks the verb, what word vectors put near it
 * ("offers" for "sell") is no answer, nor a noun spelt as the verb ("Follow us for new designs and
 * offers" for "What do you offer?"): the question is declined.
 */
function markOfferingLacked(asked: Concept[], tokens: string[], saidAsVerb: (ids: number[]) => boolean): void {
  const at = offeringAsked(tokens);
  const verb = at === undefined ? undefined : asked.find((c) => c.word === tokens[at]);
  if (verb && !saidAsVerb(ownTerms(verb))) verb.unknown = verb.word;
}

/**
 * "Do you sell bikes?" of a material where nothing stands for selling (not even a guess of word
 * vectors), yet which says how the business does deal in bikes ("We service e-bikes", the owner's
 * "Do you rent bikes?"): servicing or renting a thing is not selling it, and "sell" counts as a
 * word the material never names. A material that only has the thing ("Our collection has table
 * lamps") still answers by it.
 */
function markSellingLacked(asked: Concept[], tokens: string[], dealtInOtherwise: (ids: number[]) => boolean): void {
  const selling = sellingAsked(tokens);
  const verb = selling && asked.find((c) => c.word === tokens[selling.verb]);
  const thing = selling && asked.find((c) => c.word === tokens[selling.thing]);
  if (verb && thing && verb.ids.size === 0 && dealtInOtherwise(ownTerms(thing))) verb.unknown = verb.word;
}

/**
 * The light verb of a question asking of its object counts less than the object, whether the
 * material has the object or not: where it lacks it, the verb alone is no answer either ("Where
 * can I leave the car?" of a vet's guide saying "leave water out overnight"). An offering verb
 * ("What lamps do you sell?") counts nothing where the material does not use it as a verb: it is
 * then only the question's form, and a sentence with a noun spelt alike ("new designs and offers")
 * answers nothing of "What products do you offer?".
 */
function lightenVerbOfThing(asked: Concept[], tokens: string[], saidAsVerb: (ids: number[]) => boolean): void {
  const light = lightVerbOfThing(tokens);
  if (!light) return;
  const verb = asked.find((c) => c.word === tokens[light.verb]);
  // A particle read with its verb ("bring … back") is no object.
  const objectAsked = light.object.some((at) => asked.some((c) => c.word === tokens[at]));
  if (!verb || !objectAsked) return;
  if (!light.whenLacked) verb.weight *= LIGHT_VERB_FACTOR;
  else if (!saidAsVerb(ownTerms(verb))) verb.weight = 0;
}

/** The terms standing for a concept's word by the word itself, its forms or synonyms: not those word vectors put near it. */
const ownTerms = (concept: Concept) => [...concept.ids.keys()].filter((id) => !concept.guessed?.has(id));

/** The concepts (by index) of a verb and the means it is asked to be done by, when the material has both. */
function askedTogether(asked: Concept[], tokens: string[]): number[] {
  const pair = askedWithMeans(tokens);
  const found = pair?.map((at) => asked.findIndex((c) => c.word === tokens[at])) ?? [];
  return found.length === 2 && found.every((c) => c >= 0 && (asked[c] as Concept).ids.size > 0) ? found : [];
}

/** The weights' sum, of the judged words alone when `judged` is given. */
function sumOf(weights: Float64Array, judged?: boolean[]): number {
  let sum = 0;
  for (let c = 0; c < weights.length; c += 1) if (!judged || judged[c]) sum += weights[c] as number;
  return sum;
}

function mergeInto(into: Float64Array, from: Float64Array): void {
  for (let c = 0; c < from.length; c += 1) if ((into[c] as number) < (from[c] as number)) into[c] = from[c] as number;
}

/**
 * Within the section found, the sentence holding what the question itself asks is the answer:
 * the earlier question's words only break ties ("And on Saturdays?" after the weekday hours).
 */
function focusOf(weights: Float64Array, concepts: Concept[]): number {
  let focus = 0;
  for (let c = 0; c < weights.length; c += 1) focus += concepts[c]?.context ? CONTEXT_TIE * (weights[c] as number) : (weights[c] as number);
  return focus;
}

/**
 * Whether a section's sentences leave the amount a question asks unstated: a price, when none of
 * those saying something of what is asked states one (nor that it is free): "A free touch-up…"
 * under "Touch-ups" does not state the hourly rate its next sentence names; a time, when they
 * state figures of other kinds and none of time ("Delivery is free over €60" to "How long does
 * delivery take?"), which read as the answer and are not. Sentences with no figure at all may say it in words, and are judged by them.
 */
function amountMissing(sentences: PassageSentence[], ofAsked: PassageSentence[], stated: RegExp | undefined): boolean {
  const states = (pattern: RegExp) => sentences.some((sentence) => pattern.test(sentence.text));
  if (stated === STATES_PRICE) return !ofAsked.some((sentence) => STATES_PRICE.test(sentence.text));
  return stated === STATES_DURATION && !states(STATES_DURATION) && states(STATES_AMOUNT);
}

/**
 * Within the section found, a sentence stating a time is the answer to "how long", before any
 * that only shares the question's words ("Orders arrive within three to five working days." over
 * "Delivery is free over €60."): it weighs as much more as the weightiest one does.
 */
function statedFirst(sentences: PassageSentence[], stated: RegExp): void {
  const strongest = Math.max(0, ...sentences.map((sentence) => sentence.weight));
  for (const sentence of sentences) if (stated.test(sentence.text)) sentence.weight += strongest;
}

/**
 * Within the section found, a sentence telling one to do what "Can I…?" asks is part of the
 * answer with the best one: "Can I order a carrot cake?" is answered by the carrot cake's
 * sentence and "1. Order a day ahead.", not the first alone. It weighs just close enough to the
 * weightiest to be quoted with it, never before another sentence as close.
 */
function alongsideBest(sentences: PassageSentence[], toldTo: RegExp): void {
  const strongest = Math.max(0, ...sentences.map((sentence) => sentence.weight));
  for (const sentence of sentences) if (toldTo.test(sentence.text)) sentence.weight = Math.max(sentence.weight, strongest * CLOSE_TO_BEST);
}

/** The weight of the question's own words a sentence covers that its section's key does not. */
function beyondKeyOf(sentence: Float64Array, key: Float64Array, concepts: Concept[]): number {
  let beyond = 0;
  for (let c = 0; c < sentence.length; c += 1) if (key[c] === 0 && !concepts[c]?.context) beyond += sentence[c] as number;
  return beyond;
}

/**
 * A heading that is a question put as the question asked is, by its question word (and for "how",
 * the word after: "how long" is not "how do"), is the owner's own wording of it: its words count
 * this much more than a heading's do. "When will I get my results?" answers "When will I get my
 * blood test results?" before "Tests and results", which holds more of its words.
 */
const SAME_FORM_KEY = 0.25;
const QUESTION_WORDS = new Set(['when', 'where', 'how', 'what', 'who', 'why', 'which']);

/** The words a question is put with ("when", "how long", "how do"); undefined for a question without a question word first. */
function questionForm(question: string): string | undefined {
  const [first, second] = words(question);
  if (first === undefined || !QUESTION_WORDS.has(first)) return undefined;
  return first === 'how' ? `how ${second ?? ''}` : first;
}

/** Where a title ends and what it says of the material begins: "Riverbend Vets: Client Guide". */
const TITLE_END = /\s*(?:[:|–—]|\s-\s)/;

/**
 * The business's name, the material's title (its first heading) up to what it says of the
 * material, when a word of it is one English does not commonly use ("Nordlys Bike Repair",
 * "Riverbend Vets", not "Opening hours"): its terms' ids, and those words (its own), but for one
 * the material uses in more sentences than the name's rarest ("bike" of a shop whose text says
 * "City bikes rent for…" names bikes, not the shop); undefined for none. `sentencesWith`: how
 * many sentences hold a term, by id.
 */
function businessName(
  title: string,
  idOf: (term: string) => number,
  sentencesWith: (id: number) => number,
): { text: string; ids: Set<number>; own: Set<string> } | undefined {
  // A question heading the first section (an FAQ's) is no title.
  const text = title.includes('?') || title.includes('›') ? '' : (title.split(TITLE_END)[0]?.trim() ?? '');
  const rare = words(text).filter((word) => !/^\d+$/.test(word) && !isStopword(word) && !isCommon(word));
  const uses = (word: string) => sentencesWith(idOf(stem(word)));
  const fewest = Math.min(...rare.map(uses));
  const own = new Set(rare.filter((word) => uses(word) <= fewest));
  if (words(text).length < 2 || own.size === 0) return undefined;
  return { text, ids: new Set(terms(text).map(idOf).filter((id) => id >= 0)), own };
}

/** A section's best sentence and its score. */
type Best = { score: number; sentence: number };

/**
 * The `limit` best sections, best first, the earlier section first among equals: what sorting
 * them all would put first, kept in a short list as they come.
 */
function bestSections(best: Map<number, Best>, limit: number): [number, Best][] {
  const top: [number, Best][] = [];
  for (const entry of best) {
    const [section, { score }] = entry;
    let at = top.length;
    for (; at > 0; at -= 1) {
      const [other, { score: otherScore }] = top[at - 1] as [number, Best];
      if (score < otherScore || (score === otherScore && section > other)) break;
    }
    if (at >= limit) continue;
    top.splice(at, 0, entry);
    if (top.length > limit) top.pop();
  }
  return top;
}

/** A section's text for a model: its key, then its sentences with their line breaks. */
function sectionText(index: SearchableIndex, section: number): string {
  const key = index.keys.at(section) as string;
  // Read one by one: a stored index's sentences are decoded as they are read (index-layout.ts).
  const sentences: string[] = [];
  for (let s = index.sectionStart[section] as number; s < (index.sectionStart[section + 1] as number); s += 1) {
    sentences.push(index.sentences.at(s) as string);
  }
  const body = joinSentences(sentences);
  return key ? `${key}\n${body}` : body;
}

/**
 * The passages with the sections around them (`around`, for a model), the best passage's
 * first, while all of them stay within CONTEXT_CHARS: the answer to a question is often beside
 * the words it shares with the text (the entry after the one a follow-up names, the paragraph
 * under a heading the question shares no word with).
 */
function withSurroundings(passages: Passage[], index: SearchableIndex): Passage[] {
  const used = new Set(passages.map((passage) => passage.seq));
  let room = CONTEXT_CHARS - passages.reduce((sum, passage) => sum + passage.text.length, 0);
  const grown = passages.map((passage) => ({ before: [] as string[], after: [] as string[], passage }));
  for (let distance = 1; distance <= SURROUNDING_SECTIONS && room > 0; distance += 1) {
    for (const entry of grown) {
      for (const section of [entry.passage.seq + distance, entry.passage.seq - distance]) {
        if (section < 0 || section >= index.keys.length || used.has(section)) continue;
        const text = sectionText(index, section);
        if (text.length + 2 > room) continue;
        used.add(section);
        room -= text.length + 2;
        if (section > entry.passage.seq) entry.after.push(text);
        else entry.before.unshift(text);
      }
    }
  }
  return grown.map(({ before, after, passage }) => (before.length + after.length === 0 ? passage : { ...passage, around: { before, after } }));
}

/**
 * The terms of a vocabulary near a question word by its vector, with the weight each brings and
 * whether it names another kind of thing (lexicon.ts), and how close the closest comes (1 for a
 * word without a vector: nothing is known against it); remembered per word for the index's life.
 * Undefined until the vectors are loaded.
 */
type Near = { near: [term: string, weight: number, otherKind: boolean][]; best: number };

function vectorNeighbours(terms: TermReader): (word: string) => Near | undefined {
  const found = new Map<string, Near>();
  let withVectors: TermRows | undefined;
  let vectorsSeen: WordVectors | undefined;
  return (word) => {
    const vectors = wordVectors();
    if (!vectors) return undefined;
    if (vectors !== vectorsSeen) {
      vectorsSeen = vectors;
      withVectors = termRows(vectors, terms);
      found.clear();
    }
    let entry = found.get(word);
    if (!entry) {
      const near: Near['near'] = [];
      let best = 1;
      const row = wordRow(vectors, word) ?? lemmas(word).map((lemma) => wordRow(vectors, lemma)).find((r) => r !== undefined);
      if (row !== undefined) {
        const { ids, rows } = withVectors as TermRows;
        const own = terms.idOf(stem(word));
        best = -1;
        for (let k = 0; k < ids.length; k += 1) {
          if (ids[k] === own) continue;
          const cosine = similarity(vectors, row, rows[k] as number);
          best = Math.max(best, cosine);
          if (cosine < VECTOR_FLOOR) continue;
          near.push([terms.termOf(ids[k] as number), VECTOR_FACTOR * cosine, distinctKinds(word, wordOf(vectors, rows[k] as number))]);
        }
      }
      entry = { near, best };
      if (found.size >= EXPANSIONS_KEPT) found.clear();
      found.set(word, entry);
    }
    return entry;
  };
}

/** The terms with a vector, ascending, and each one's row. */
type TermRows = { ids: Int32Array; rows: Int32Array };

/**
 * Each stem of the vectors found among the terms by the hash both hold: bounded by the vectors'
 * 100,000 words whatever the material's size, and only a pair whose hashes agree is decoded to
 * compare.
 */
function termRows(vectors: WordVectors, terms: TermReader): TermRows {
  const rowOf = new Int32Array(terms.size).fill(-1);
  let count = 0;
  const candidates = sameHashes(vectors.stems, terms.table);
  for (let k = 0; k < candidates.length; k += 2) {
    const row = candidates[k] as number;
    const id = candidates[k + 1] as number;
    if (terms.termOf(id) !== stemOf(vectors, row)) continue;
    rowOf[id] = row;
    count += 1;
  }
  const ids = new Int32Array(count);
  const rows = new Int32Array(count);
  for (let id = 0, k = 0; id < terms.size; id += 1) {
    if ((rowOf[id] as number) < 0) continue;
    ids[k] = id;
    rows[k] = rowOf[id] as number;
    k += 1;
  }
  return { ids, rows };
}

/**
 * `rareName`: English rarely uses the word, and may use it to name a thing ("skateboard", or a
 * word it does not know at all): a material lacking it is not about it. A rare word English uses
 * only to say something of a thing ("nicked", "upfront", "spayed") names nothing the material
 * must have, and counts as a detail it lacks.
 */
type Expansion = { own: string[]; lemmas: string[]; synonyms: string[]; known: boolean; rareName: boolean };

const EXPANSIONS_KEPT = 20_000;
const expansions = new Map<string, Expansion>();

/**
 * A word's (or two-word phrase's) terms, its base forms' and its synonyms' stems, and whether
 * English knows it. A pure function of the word, so it is remembered across queries and indexes.
 */
function expansion(form: string): Expansion {
  let found = expansions.get(form);
  if (!found) {
    if (expansions.size >= EXPANSIONS_KEPT) expansions.clear();
    // A stopword among them is another word spelled alike ("US" of "USA" is the text's "us"), and
    // would stand for what shares its stem ("use").
    const single = (list: string[]) => [...new Set(list.filter((word) => !word.includes(' ') && !isStopword(word)).map(stem))];
    // A possessive ("kid's") is read as its word.
    const word = form.replace(/['’]s$/, '');
    const known = lemmas(word);
    const others = synonyms(word);
    found = {
      own: terms(form),
      lemmas: single(known),
      // A form derived from the word ("month" → "monthly") stands for it as a synonym does. A
      // letter alone has none: WordNet's are its other readings ("x" → ten, "c" → vitamin), guesses.
      synonyms: word.length > 1 ? single([...others, ...derivedForms(word)]) : [],
      // An expression WordNet lacks is known by its paraphrases ("flat tyre").
      known: known.length > 0 || others.length > 0,
      rareName: !isCommon(word) && (known.length === 0 || mayNameAThing(word)),
    };
    expansions.set(form, found);
  }
  return found;
}
