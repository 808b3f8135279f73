import { isDecline } from '../engine/decline.js';
import { lemmas } from '../engine/lexicon.js';
import { matchingCase, stem, words } from '../engine/text.js';
import type { HandoffSettings } from '../settings/chatbot-settings.js';
import type { ChatTurn } from '../engine/responder.js';

// What starts a handoff: a person asking for one (recognised by meaning, from a few intents, not
// one fixed phrase; in English, and more simply in the widget's other languages), an owner's
// keyword, or the chatbot declining too often in a row.

/** Who a person may ask for, as base forms ("people" → person, "humans" → human). */
const PEOPLE = new Set(['human', 'person', 'people', 'agent', 'representative', 'rep', 'operator', 'staff', 'employee', 'someone', 'somebody', 'manager', 'supervisor', 'man', 'woman', 'team']);
/** Ways of reaching them: "talk to", "speak with", "connect me", "transfer me", … */
const REACHING = new Set(['talk', 'speak', 'chat', 'connect', 'transfer', 'contact', 'reach', 'escalate', 'call', 'forward', 'put']);
/** Asking for something: "I want", "I need", "I'd like", "give me", "get me", "can I have". */
const WANTING = new Set(['want', 'need', 'like', 'give', 'get', 'have', 'prefer', 'request', 'let']);
const CAN = new Set(['can', 'could', 'may', 'might']);
/** Words that only qualify a request ("a real person, please"). */
const QUALIFIERS = new Set(['please', 'real', 'live', 'actual', 'a', 'an', 'the', 'to', 'with', 'me', 'i', 'now', 'support', 'customer', 'service', 'human', 'from', 'your', 'some', 'one']);
/** "Are you a human?" asks about the chatbot, not for a person. */
const ASKS_ABOUT_THE_BOT = /^(?:are|r)\s+(?:you|u)\b|^is\s+(?:this|it)\s+an?\b/;

/**
 * Asking for a person in the other languages the widget speaks (person-asked.ts): a verb of
 * talking to or reaching someone and a word for a person, in either order, as German and Dutch put
 * the verb last ("Quiero hablar con una persona", "Kann ich mit einem Mitarbeiter sprechen?").
 * Words as `words` gives them: lower case, accents folded.
 */
const TALKING_ELSEWHERE = new Set(['hablar', 'contactar', 'sprechen', 'reden', 'parler', 'contacter', 'parlare', 'contattare', 'praten', 'spreken']);
const PEOPLE_ELSEWHERE = new Set([
  'persona', 'humano', 'agente', 'asesor', 'operador', 'alguien',
  'mensch', 'menschen', 'person', 'mitarbeiter', 'mitarbeiterin', 'jemand', 'jemandem', 'jemanden',
  'personne', 'humain', 'conseiller', 'conseillere', "quelqu'un", 'quelqu’un',
  'umano', 'operatore', 'qualcuno',
  'mens', 'persoon', 'medewerker', 'iemand',
]);
const asksElsewhere = (said: string[]) => said.some((word) => TALKING_ELSEWHERE.has(word)) && said.some((word) => PEOPLE_ELSEWHERE.has(word));

const baseForms = (word: string) => [word, stem(word), ...lemmas(word)];
const isAny = (word: string, set: Set<string>) => baseForms(word).some((form) => set.has(form));

/** Whether a message asks to be handed to a person. */
export function asksForPerson(message: string): boolean {
  const said = words(message);
  if (asksElsewhere(said)) return true;
  const person = said.findIndex((word) => isAny(word, PEOPLE));
  if (person < 0 || ASKS_ABOUT_THE_BOT.test(said.join(' '))) return false;
  const before = said.slice(0, person);
  if (before.some((word) => isAny(word, REACHING) || isAny(word, WANTING))) return true;
  // One to reach: "is there someone I can talk to?", "a person to speak with".
  const [first, second, third] = said.slice(person + 1);
  const reachable = first === 'to' ? second : ['i', 'we'].includes(first ?? '') && CAN.has(second ?? '') ? third : undefined;
  if (reachable !== undefined && isAny(reachable, REACHING)) return true;
  // A bare request: "agent please", "human!", "a real person now".
  return said.every((word, index) => index === person || QUALIFIERS.has(word));
}

const stems = (text: string) => words(text).map(stem);

/** Scripts written without spaces between words, where a sentence is one run of letters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Whether a message holds one of the keywords (a word or phrase, in any inflection; in an unspaced script, anywhere). */
export function mentionsKeyword(message: string, keywords: string[]): boolean {
  const said = ` ${stems(message).join(' ')} `;
  return keywords.some((keyword) => {
    if (UNSPACED.test(keyword)) return matchingCase(message).includes(matchingCase(keyword).trim());
    const phrase = stems(keyword).join(' ');
    return phrase !== '' && said.includes(` ${phrase} `);
  });
}

/** The replies at the end of a conversation that declined, in a row. */
export function declinesInRow(history: ChatTurn[]): number {
  const replies = history.filter((turn) => turn.role === 'assistant').map((turn) => turn.content);
  const lastAnswered = replies.findLastIndex((reply) => !isDecline(reply));
  return replies.length - 1 - lastAnswered;
}

/** Whether the person's message itself starts a handoff. */
export function requestsHandoff(settings: HandoffSettings, message: string): boolean {
  return settings.enabled && (mentionsKeyword(message, settings.keywords) || (settings.onRequest && asksForPerson(message)));
}

/** Whether a reply, declined or not, makes `afterDeclines` declines in a row with the history before it. */
export function declinedTooOften(settings: HandoffSettings, history: ChatTurn[], reply: string): boolean {
  if (!settings.enabled || settings.afterDeclines === 0 || !isDecline(reply)) return false;
  return declinesInRow(history) + 1 >= settings.afterDeclines;
}
