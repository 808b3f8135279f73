import type { Passage, PassageSentence } from '../lexical-index.js';
import type { GivenDetails, ResponderInput } from '../responder.js';
import { words } from '../text.js';

// The offline responder's answer, composed from the training text alone: no model, no keys,
// the same answer every time for the same material and question. Retrieval has already read
// the material and weighed each sentence against the question; this picks what to quote.

export const NO_ANSWER =
  "I'm sorry, I couldn't find an answer to that in the material I was trained on. " +
  'Could you rephrase the question, or ask about something else?';

/** The share of the question's weight the best section must cover to be quoted at all. */
const MIN_COVERAGE = 0.46;
/** A sentence this close to the best one's weight is part of the answer too. */
const CLOSE_TO_BEST = 0.8;
const MAX_SPECIFIC_SENTENCES = 2;
const MAX_BROAD_SENTENCES = 3;
const MAX_ANSWER_CHARS = 600;
/** An answer this short ("Yes.") is quoted with the sentence that explains it. */
const TERSE_CHARS = 40;

// The words of small talk, English only like the rest of the offline responder.
const GREETING = new Set('hi hello hey hiya howdy greetings morning afternoon evening good there yo'.split(' '));
const THANKS = new Set('thanks thank you thx cheers ty much so very great ok okay awesome perfect a lot many'.split(' '));
const GOODBYE = new Set('bye goodbye see you later cya farewell good night ok okay thanks for now take care'.split(' '));
/** A request for an overview rather than one fact. */
const BROAD = /\b(?:tell me (?:more )?about|explain|describe|overview of|information (?:on|about)|details (?:on|about)|more about)\b/i;
/** A key covering this much of the question is what the question asks about: quote its opening. */
const KEY_ANSWERS = 0.7;
const IDENTITY = /\b(?:who|what) are you\b|\byour name\b|\bare you (?:a |an )?(?:bot|robot|human|person|real|ai)\b/i;
const WELLBEING = /^\s*(?:hi|hello|hey)?[\s,!]*how are you(?: doing| today)?\s*[?!.]*\s*$/i;

export function composeAnswer(input: ResponderInput): string {
  const question = [...input.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  return smallTalk(question, input) ?? thanksForDetails(question, input) ?? quote(input.passages, BROAD.test(question));
}

function smallTalk(question: string, input: ResponderInput): string | undefined {
  const name = input.settings.styles.displayName || input.chatbotName;
  const said = words(question);
  const only = (vocabulary: Set<string>) => said.length > 0 && said.length <= 5 && said.every((w) => vocabulary.has(w));
  if (only(GREETING)) return input.settings.initialMessages[0] || `Hello! I'm ${name}. How can I help?`;
  if (only(GOODBYE) && said.some((w) => w.includes('bye') || w === 'later' || w === 'farewell' || w === 'care')) {
    return `Goodbye, and thanks for chatting with ${name}!`;
  }
  if (only(THANKS)) return "You're welcome! Is there anything else I can help with?";
  if (WELLBEING.test(question)) return `I'm doing well, thank you! I'm ${name} — what can I help you with?`;
  if (IDENTITY.test(question)) {
    return `I'm ${name}. I answer questions from the material I was trained on — what would you like to know?`;
  }
  return undefined;
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
  const reach = given.email ?? given.phone;
  const greeting = given.name ? `Thank you, ${given.name.split(' ')[0]}!` : 'Thank you!';
  return reach ? `${greeting} We'll get back to you at ${reach}.` : `${greeting} Nice to meet you. How can I help?`;
}

/**
 * The best sentence or sentences of the best section, in reading order. A section whose heading
 * answers the question ("What is your returns policy?") gives its opening sentences; otherwise
 * the sentences carrying the question's words, with the one after a terse or list-opening answer.
 */
function quote(passages: Passage[], broad: boolean): string {
  const best = passages[0];
  // A question about something the material never names ("HomeKit", "the CEO") is not answered
  // by what it shares with the rest of the question.
  if (!best || best.coverage < MIN_COVERAGE || best.unknownWords.length > 0) return NO_ANSWER;
  const sentences = best.sentences.filter((sentence) => !sentence.text.endsWith('?'));
  const top = Math.max(0, ...sentences.map((sentence) => sentence.weight));
  let picked: PassageSentence[];
  if (top === 0 || best.keyCoverage >= KEY_ANSWERS) {
    picked = sentences.slice(0, MAX_BROAD_SENTENCES);
  } else if (broad) {
    const first = sentences.findIndex((sentence) => sentence.weight === top);
    picked = sentences.slice(first, first + MAX_BROAD_SENTENCES);
  } else {
    picked = sentences.filter((sentence) => sentence.weight >= top * CLOSE_TO_BEST).slice(0, MAX_SPECIFIC_SENTENCES);
    const last = picked.at(-1) as PassageSentence;
    const next = sentences[sentences.indexOf(last) + 1];
    if (next && (last.text.endsWith(':') || (picked.length === 1 && last.text.length < TERSE_CHARS))) picked.push(next);
  }
  const chosen: string[] = [];
  let length = 0;
  for (const sentence of picked) {
    if (chosen.length > 0 && length + sentence.text.length > MAX_ANSWER_CHARS) break;
    chosen.push(sentence.text);
    length += sentence.text.length + 1;
  }
  return chosen.length > 0 ? chosen.join(' ') : NO_ANSWER;
}
