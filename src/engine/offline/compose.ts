import { CLOSE_TO_BEST, type Passage, type PassageSentence } from '../lexical-index.js';
import { withoutLeadIn } from '../question.js';
import { SAME_QUESTION } from '../question-similarity.js';
import type { Language } from '../../settings/languages.js';
import type { GivenDetails, ResponderInput } from '../responder.js';
import { isListItem, isTableRow, joinSentences, keyHeading, keyTitle } from '../structure.js';
import { withKindAllowed } from './kind-allowed.js';
import { questionLanguage, type AskedOnlyLanguage } from './question-language.js';
import { SOCIAL_REPLIES_IN } from './social-replies.js';
import { words } from '../text.js';

// The offline responder's answer, composed from the training text alone: no model, no keys,
// the same answer every time for the same material and question. Retrieval has already read
// the material and weighed each sentence against the question; this picks what to quote.

export const NO_ANSWER =
  "I'm sorry, I couldn't find an answer to that in the material I was trained on. " +
  'Could you rephrase the question, or ask about something else?';

/**
 * NO_ANSWER in each language the widget speaks (its window's register: tú, Sie, vous, tu, je),
 * and in those it is only asked in (question-language.ts), said to the one asking (du, você).
 */
export const NO_ANSWER_IN: Record<Language | AskedOnlyLanguage, string> = {
  en: NO_ANSWER,
  es: 'Lo siento, no he encontrado una respuesta a eso en el material con el que me entrenaron. ¿Puedes reformular la pregunta o preguntar otra cosa?',
  de: 'Entschuldigung, dazu habe ich in dem Material, mit dem ich trainiert wurde, keine Antwort gefunden. Können Sie die Frage anders stellen oder etwas anderes fragen?',
  fr: 'Désolé, je n’ai pas trouvé de réponse à cela dans les documents sur lesquels j’ai été entraîné. Pouvez-vous reformuler la question, ou demander autre chose ?',
  it: 'Mi dispiace, non ho trovato una risposta a questo nel materiale su cui sono stato addestrato. Puoi riformulare la domanda o chiedere qualcos’altro?',
  nl: 'Sorry, ik kon daar geen antwoord op vinden in het materiaal waarmee ik ben getraind. Kun je de vraag anders stellen, of iets anders vragen?',
  nb: 'Beklager, jeg fant ikke noe svar på det i materialet jeg er trent på. Kan du stille spørsmålet på en annen måte, eller spørre om noe annet?',
  sv: 'Tyvärr hittade jag inget svar på det i materialet jag har tränats på. Kan du formulera om frågan eller fråga om något annat?',
  da: 'Beklager, jeg kunne ikke finde et svar på det i det materiale, jeg er trænet på. Kan du omformulere spørgsmålet eller spørge om noget andet?',
  pt: 'Desculpe, não encontrei uma resposta para isso no material com que fui treinado. Pode reformular a pergunta ou perguntar outra coisa?',
};

/** The share of the question's weight the best section must cover to be quoted at all. */
const MIN_COVERAGE = 0.46;
const MAX_SPECIFIC_SENTENCES = 2;
const MAX_BROAD_SENTENCES = 3;
const MAX_ANSWER_CHARS = 800;
/** An answer this short ("Yes.", "Of course.") is quoted with the sentence that explains it. */
const TERSE_WORDS = 3;
/** A sentence that goes on about the one before ("We keep them for 90 days.") belongs to its answer. */
const GOES_ON = /^(?:\S+\s+){0,3}(?:they|them|it|this|these|those)\b/i;

// The words of small talk. A message is small talk when all its words are of these (and it is
// short); its kind is the strongest one. English like the rest of the offline responder, and the
// greetings, thanks and goodbyes of Spanish, German, Norwegian, Swedish, Danish and Portuguese: a
// visitor's "Hola", "Danke" or "Tusen takk" was declined, recorded as a question the chatbot could
// not answer, and counted towards a handoff. Read by words(), as a message is, so that "adiós"
// and "tschüss" are matched as "adios" and "tschuss".
const GREETING = new Set(
  words(
    'hi hello hey hiya howdy greetings morning afternoon evening yo ' +
      'hola buenas buenos buen día días tardes noches hallo servus moin guten tag morgen abend hei hej heisann hallå olá oi bom boa noite',
  ),
);
const THANKS = new Set(words('thanks thank thx cheers ty appreciate appreciated gracias muchas mil danke dankeschön vielen dank takk tack tak obrigado obrigada'));
const GOODBYE = new Set(
  words('bye goodbye byebye later cya farewell night care adiós chao chau hasta luego pronto tschüss tschüs tschau wiedersehen bis bald auf hadet farvel hejdå adjø adeus tchau'),
);
/**
 * Goodbyes of words that are no goodbye alone ("Ha det", "Ha det bra", "Hej då", "Vi ses"), read
 * as "bye": "det", "då" and "ses" are words of any question, and "Ha det" was declined.
 */
const GOODBYE_PHRASES = /\b(?:ha det(?: bra| godt)?|hej da|vi ses)\b/g;
/** Words that go with small talk without making it any other kind ("ok thanks, bye for now"). */
const FILLER = new Set(
  words(
    'ok okay so very much a lot many great awesome perfect cool nice brilliant excellent super fine good ' +
      "got it that that's thats is all i needed wanted need helps helped helpful you for your help the info " +
      "information this see take now have day really there everyone everything else no nothing done i'm im " +
      'vale sí perfecto genial eso es todo nada más schön super gut sehr das ist alles tusen mange så mycket muito',
  ),
);
/** A request for an overview rather than one fact. */
const BROAD = /\b(?:tell me (?:more )?about|explain|describe|overview of|information (?:on|about)|details (?:on|about)|more about)\b/i;
/** A key covering this much of the question is what the question asks about: quote its opening. */
const KEY_ANSWERS = 0.7;
/** A Q&A pair's question covering this much of the question asked is that question. */
const QA_MATCH = 0.5;
/** A passage scoring this share of the best's, covering this much more of the question, is quoted instead (bestQuoted). */
const NEAR_SCORE = 0.9;
const MUCH_MORE = 0.3;
/** How close behind a section leaving the asked amount unstated one stating it must score to be quoted instead. */
const STATING_NEAR = 0.7;
const IDENTITY =
  /\b(?:who|what) are you\b|\byour name\b|\bwho(?:m)? (?:am i|i am) (?:talking|speaking|chatting) (?:to|with)\b|\bare you (?:a |an )?(?:bot|robot|human|person|real|ai|machine|chatbot)\b|\bam i (?:talking|speaking|chatting) (?:to|with) (?:a |an )?(?:bot|robot|human|person|real|machine)\b/i;
const WELLBEING = /^(?:(?:hi|hello|hey)(?: there)?[\s,!]*)?how(?: are you|'s it going| is it going| are things)(?: doing| today)?$/i;
const SMALL_TALK_WORDS = 8;
/**
 * A request for help that asks nothing yet, an announced question, a check that someone is there,
 * or what the chatbot can do: answered with an offer to help, not with material ("Can you help
 * me?" shares "help" with a "Help Center" heading) nor with thanks.
 */
const OFFERS_HELP = [
  /^(?:(?:hi|hello|hey) )?(?:can|could|would|will) (?:you|someone|somebody|anyone) (?:please )?help(?: me| us)?(?: please| out)?$/,
  /^(?:(?:hi|hello|hey) )?(?:i|we) (?:need|want|would like) (?:some )?help(?: please)?$/,
  /^(?:please )?help(?: me)?(?: please)?$/,
  /^(?:(?:hi|hello|hey) )?(?:i|we) (?:have|got|ve got) (?:a|one|another|some|a few)(?: quick| small)? questions?$/,
  /^(?:can|could|may) i ask (?:you )?(?:a|something|some)(?: quick)?(?: questions?)?$/,
  /^(?:(?:hi|hello|hey) )?(?:are you there|is (?:anyone|anybody|someone|somebody) there|anyone there)$/,
  /^(?:what can you do|what can you help (?:me )?with|how can you help(?: me)?|what do you do)$/,
];

export function composeAnswer(input: ResponderInput): string {
  const question = [...input.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const answer =
    smallTalk(question, input) ??
    thanksForDetails(question, input) ??
    ownersAnswer(input.passages) ??
    withKindAllowed(question, quote(input.passages, BROAD.test(withoutLeadIn(question))));
  // A visitor asking in another language, or reading the widget in one, is told so in it; answers are the material's words.
  const language = questionLanguage(question) ?? input.lang;
  return answer === NO_ANSWER && language ? NO_ANSWER_IN[language] : answer;
}

/**
 * The answer of a Q&A pair whose question is the one asked (in other words, too), as its owner
 * wrote it and alone: it overrides whatever other passages say. The pair's question must cover
 * the question asked and be asked as much in turn ("What do I need to bring?" is not "Can I
 * bring my dog?", nor is "Can I bring my cat?"), and hold some of the question's own words: "What
 * about a bird?" after "Can I bring my dog?" is not the dog's question either.
 */
function ownersAnswer(passages: Passage[]): string | undefined {
  const pair = passages.find(
    (passage) =>
      passage.source?.type === 'qa' &&
      passage.keyCoverage >= QA_MATCH &&
      passage.keyAsked >= SAME_QUESTION &&
      !restsOnGuesses(passage) &&
      passage.coverage >= MIN_COVERAGE &&
      passage.unknownWords.length === 0,
  );
  return pair && pairAnswer(pair);
}

/** A Q&A pair's answer as its owner wrote it: the passage's text after the question. */
function pairAnswer(pair: Passage): string {
  return pair.text.slice(pair.text.indexOf('\n') + 1).trim();
}

/**
 * Whether the passage leaves the price or time asked unstated, and is no answer. A section under
 * the very question asked (an FAQ's "How much does shipping cost?" answered "It depends on the
 * weight") is the owner's answer all the same.
 */
function leavesAskedUnstated(passage: Passage): boolean {
  return passage.unstated && !(passage.key.endsWith('?') && passage.keyCoverage >= KEY_ANSWERS);
}

/**
 * A Q&A pair's answer is written for its question, and often leaves its subject to it ("Yes, we
 * take all cards.", "Yes, dogs are welcome."): another question gets it only when some word of
 * the question itself is in the pair, not when word vectors alone put its words near the pair's
 * ("Are cats allowed?": "allowed" ~ "take"), nor when they put a question word near another kind
 * of thing ("Can I bring my cat?": "cat" ~ "dog").
 */
function isPairOfAnother(passage: Passage): boolean {
  return passage.source?.type === 'qa' && restsOnGuesses(passage);
}

/** Whether a passage covers none of the question's own words itself, or one only by another kind of thing. */
function restsOnGuesses(passage: Passage): boolean {
  return passage.ownWordsCoverage === 0 || passage.otherKindWords.length > 0;
}

/** A short social reply in the chatbot's name to greetings, thanks, goodbyes and "who are you?", in the person's language. */
function smallTalk(question: string, input: ResponderInput): string | undefined {
  const name = input.settings.styles.displayName || input.chatbotName;
  const replies = SOCIAL_REPLIES_IN[input.lang ?? 'en'];
  const said = words(words(question).join(' ').replace(GOODBYE_PHRASES, 'bye'));
  const plain = said.join(' ');
  if (said.length === 0 || said.length > SMALL_TALK_WORDS) return undefined;
  if (IDENTITY.test(plain) && said.length <= 6) return replies.identity(name);
  if (WELLBEING.test(plain)) return replies.wellbeing(name);
  if (OFFERS_HELP.some((pattern) => pattern.test(plain))) return replies.offersHelp(name);
  const social = said.every((w) => GREETING.has(w) || THANKS.has(w) || GOODBYE.has(w) || FILLER.has(w));
  if (!social) return undefined;
  if (said.some((w) => GOODBYE.has(w))) return replies.goodbye(name);
  if (said.some((w) => THANKS.has(w)) || !said.some((w) => GREETING.has(w))) return replies.welcome;
  return input.settings.initialMessages[0] || replies.hello(name);
}

/** Whether a message only gives the details found in it ("I'm Ada Lovelace, ada@example.com"), asking nothing. */
export function givesOnlyDetails(message: string, given: GivenDetails | undefined): boolean {
  if (!given || (!given.email && !given.phone && !given.name)) return false;
  let rest = message;
  for (const detail of [given.email, given.phone, given.name]) if (detail) rest = rest.replace(detail, ' ');
  const remaining = words(rest).filter((w) => !/^(?:i'?m|i|am|my|name|is|this|it|email|phone|number|and|me|at|call|here|s|you|can|reach|on)$/.test(w));
  return !rest.includes('?') && remaining.length <= 2;
}

/** A message that only gives contact details is thanked, by name when it gives one. */
function thanksForDetails(question: string, input: ResponderInput): string | undefined {
  const given = input.given;
  if (!given || !givesOnlyDetails(question, given)) return undefined;
  const replies = SOCIAL_REPLIES_IN[input.lang ?? 'en'];
  const reach = given.email ?? given.phone;
  const thanked = replies.thanked(given.name?.split(' ')[0]);
  return `${thanked} ${reach ? replies.reachAt(reach) : replies.niceToMeet}`;
}

/** What the best section says, or the sections beside it alike (parallelSections), or NO_ANSWER. */
function quote(passages: Passage[], broad: boolean): string {
  const best = statingInstead(passages, bestQuoted(passages));
  // A question about something the material never names ("HomeKit", "the CEO") is not answered
  // by what it shares with the rest of the question.
  if (!best || best.coverage < MIN_COVERAGE || best.unknownWords.length > 0 || best.lacksAsked || leavesAskedUnstated(best) || isPairOfAnother(best)) {
    return NO_ANSWER;
  }
  // A pair's answer is one answer: a sentence of it alone may say the opposite ("Not yet: … PayPal
  // is planned for 2027." quoted as "PayPal is planned for 2027.").
  if (best.source?.type === 'qa') return pairAnswer(best);
  const sections = parallelSections(passages, best);
  if (sections.length <= 1) return quotedText(best, broad);
  const quoted = sections.flatMap((passage) => {
    const text = quotedText(passage, broad);
    return text === NO_ANSWER ? [] : [`${keyTitle(passage.key)}: ${text}`];
  });
  return quoted.length > 1 ? withinLength(quoted).join('\n') : quotedText(best, broad);
}

/** The texts from the first while their length stays within MAX_ANSWER_CHARS (the first whatever its length). */
function withinLength(texts: string[]): string[] {
  const kept: string[] = [];
  let length = 0;
  for (const text of texts) {
    if (kept.length > 0 && length + text.length > MAX_ANSWER_CHARS) break;
    kept.push(text);
    length += text.length + 1;
  }
  return kept;
}

/**
 * The best passage with the sections beside it under the same heading that the question asks
 * alike, in reading order: "When are you open?" asks the "Summer season" and the "Winter season"
 * under "Opening hours" as much, and names neither. Sections keyed by titles, not questions.
 * Asked alike, they cover the same share of the question, by their keys as much; their scores
 * need only be close, as each season's hours are worded its own way ("Our hours are shorter in
 * winter: …" scores above "Open daily from 8:00 to 20:00." for "What are your opening hours?").
 * A question naming one ("…in winter?") covers the other less, which is left out.
 */
function parallelSections(passages: Passage[], best: Passage): Passage[] {
  const parent = keyHeading(best.key);
  if (parent === undefined || best.key.endsWith('?')) return [best];
  const alike = passages.filter(
    (passage) =>
      passage.score >= best.score * CLOSE_TO_BEST &&
      passage.coverage === best.coverage &&
      passage.keyCoverage === best.keyCoverage &&
      passage.source?.type !== 'qa' &&
      !passage.lacksAsked &&
      !leavesAskedUnstated(passage) &&
      !passage.key.endsWith('?') &&
      keyHeading(passage.key) === parent,
  );
  return alike.sort((a, b) => a.seq - b.seq);
}

/**
 * The best sentence or sentences of a section, in reading order. A section whose heading
 * answers the question ("What is your returns policy?") gives its opening sentences; otherwise
 * the sentences carrying the question's words, with the one after a terse or list-opening answer.
 */
function quotedText(best: Passage, broad: boolean): string {
  const sentences = best.sentences.filter((sentence) => !sentence.text.endsWith('?'));
  const top = Math.max(0, ...sentences.map((sentence) => sentence.weight));
  let picked: PassageSentence[];
  const rows = best.keyCoverage >= KEY_ANSWERS ? rowsAsked(sentences) : undefined;
  if (rows) {
    picked = rows;
  } else if (top === 0 || best.keyCoverage >= KEY_ANSWERS) {
    picked = sentences.slice(0, MAX_BROAD_SENTENCES);
  } else if (broad) {
    const first = sentences.findIndex((sentence) => sentence.weight === top);
    picked = sentences.slice(first, first + MAX_BROAD_SENTENCES);
  } else {
    // The weightiest of those close to the best, in the text's order.
    const weightiest = new Set(
      sentences
        .filter((sentence) => sentence.weight >= top * CLOSE_TO_BEST)
        .sort((a, b) => b.weight - a.weight)
        .slice(0, MAX_SPECIFIC_SENTENCES),
    );
    picked = sentences.filter((sentence) => weightiest.has(sentence));
    const last = picked.at(-1) as PassageSentence;
    const next = sentences[sentences.indexOf(last) + 1];
    const terse = picked.length === 1 && words(last.text).length <= TERSE_WORDS;
    if (next && (last.text.endsWith(':') || terse || (picked.length === 1 && GOES_ON.test(next.text.trim())))) picked.push(next);
  }
  const chosen = withinLength(withWholeLists(picked, sentences).map((sentence) => sentence.text));
  return chosen.length > 0 ? joinSentences(chosen) : NO_ANSWER;
}

/**
 * The rows of a table or items of a list under a heading that answers the question, singled out
 * by what the question names beyond the heading: "What is the API rate limit on Pro?" is the Pro
 * row of the table headed "API rate limits", not the table's opening. At most two, not all.
 */
function rowsAsked(sentences: PassageSentence[]): PassageSentence[] | undefined {
  const beyond = Math.max(0, ...sentences.map((sentence) => sentence.beyondKey ?? 0));
  if (beyond === 0) return undefined;
  const rows = sentences.filter((sentence) => (sentence.beyondKey ?? 0) >= beyond * CLOSE_TO_BEST);
  const singled = rows.length <= MAX_SPECIFIC_SENTENCES && rows.length < sentences.length;
  return singled && rows.every((row) => isListItem(row.text) || isTableRow(row.text)) ? rows : undefined;
}

/**
 * A section that names what is asked and leaves its price or time unstated ("touch-ups are
 * charged at our hourly rate") gives way to one close behind it that states it ("larger work is
 * charged at £120 an hour").
 */
function statingInstead(passages: Passage[], best: Passage | undefined): Passage | undefined {
  if (!best || !leavesAskedUnstated(best)) return best;
  return (
    passages.find(
      (passage) => !leavesAskedUnstated(passage) && !passage.lacksAsked && passage.score >= STATING_NEAR * best.score && passage.ownWordsCoverage > 0,
    ) ?? best
  );
}

/**
 * The passage to quote: the best, of those scored alike the one covering most of the question (a
 * section scores by its best sentence: "How fast do you reply to emails?" scores the same in one
 * that mentions e-mail once as in the one whose next sentence is "We answer within a day"), then
 * the one whose heading is most what is asked ("What to pack" over "Family Information Pack"). One
 * scoring nearly as well that covers much more of the question by as much of its own words is
 * quoted instead: "How much does whitening cost?" finds a section headed "Teeth whitening", whose
 * aftercare sentence holds only "whitening", just above the price table's row for it. And
 * not one that covers the question only by words that word vectors put near the question's,
 * where another covers more of it, some by the question's own words: a key and sentences matched
 * by guesses ("come along" ~ "bring", "travel") can outscore the section that names what is asked
 * ("Can my dog come along?": "Dogs travel free on a lead.").
 */
function bestQuoted(passages: Passage[]): Passage | undefined {
  const best = passages.reduce<Passage | undefined>(
    (chosen, passage) =>
      chosen && passage.score === chosen.score && (passage.coverage > chosen.coverage || (passage.coverage === chosen.coverage && passage.keyAsked > chosen.keyAsked))
        ? passage
        : chosen,
    passages[0],
  );
  const fuller =
    best &&
    passages.find(
      (passage) => passage.score >= NEAR_SCORE * best.score && passage.coverage >= best.coverage + MUCH_MORE && passage.ownWordsCoverage >= best.ownWordsCoverage,
    );
  if (fuller) return fuller;
  if (!best || best.ownWordsCoverage > 0) return best;
  return passages.find((passage) => passage.ownWordsCoverage > 0 && passage.coverage > best.coverage) ?? best;
}

/**
 * The picked sentences with every list they touch whole: a list item is never an answer alone,
 * nor the sentence that opens a list ("We share it with:"). A list is quoted from its opening.
 */
function withWholeLists(picked: PassageSentence[], sentences: PassageSentence[]): PassageSentence[] {
  const chosen = new Set<number>();
  const item = (i: number) => i >= 0 && i < sentences.length && isListItem((sentences[i] as PassageSentence).text);
  // A numbered list right after a bulleted one is another list: "1. Order a day ahead." is quoted without "- Gluten free on Fridays.".
  const sameList = (i: number, j: number) => item(j) && isNumbered(sentences[i] as PassageSentence) === isNumbered(sentences[j] as PassageSentence);
  for (const sentence of picked) {
    const at = sentences.indexOf(sentence);
    chosen.add(at);
    const opensList = sentence.text.endsWith(':') && item(at + 1);
    if (!opensList && !item(at)) continue;
    let start = opensList ? at + 1 : at;
    let end = start;
    while (sameList(start, start - 1)) start -= 1;
    while (sameList(end, end + 1)) end += 1;
    if (start > 0 && (sentences[start - 1] as PassageSentence).text.endsWith(':')) start -= 1;
    for (let i = start; i <= end; i += 1) chosen.add(i);
  }
  return [...chosen].sort((a, b) => a - b).map((i) => sentences[i] as PassageSentence);
}

/** Whether a list item is numbered ("1. Order a day ahead."), not bulleted. */
function isNumbered(item: PassageSentence): boolean {
  return /^\d/.test(item.text.trimStart());
}
