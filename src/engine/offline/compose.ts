import type { ResponderInput } from '../responder.js';
import { terms, words } from '../text.js';

// The offline responder's answer, composed from the training text alone: no model, no keys,
// the same answer every time for the same material and question.

export const NO_ANSWER =
  "I'm sorry, I couldn't find an answer to that in the material I was trained on. " +
  'Could you rephrase the question, or ask about something else?';

const GREETINGS = new Set(['hi', 'hello', 'hey', 'hiya', 'howdy', 'greetings', 'morning', 'afternoon', 'evening', 'good', 'there', 'yo']);
const THANKS = new Set(['thanks', 'thank', 'you', 'thx', 'cheers', 'ty', 'much', 'so', 'very', 'great', 'ok', 'okay']);
const IDENTITY = /\b(who|what) are you\b|\byour name\b/i;

const HEADING = /^#{1,6}\s/;
const MAX_SENTENCES = 3;
const MAX_ANSWER_CHARS = 700;

export function composeAnswer(input: ResponderInput): string {
  const question = [...input.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const questionWords = words(question);
  const displayName = input.settings.styles.displayName || input.chatbotName;

  if (questionWords.length > 0 && questionWords.length <= 4 && questionWords.every((w) => GREETINGS.has(w))) {
    return input.settings.initialMessages[0] || `Hello! I'm ${displayName}. How can I help?`;
  }
  if (questionWords.length > 0 && questionWords.length <= 4 && questionWords.every((w) => THANKS.has(w))) {
    return "You're welcome! Is there anything else I can help with?";
  }
  if (IDENTITY.test(question)) {
    return `I'm ${displayName}. I answer questions from the material I was trained on — what would you like to know?`;
  }
  const wanted = new Set(terms(question));
  if (wanted.size === 0) return NO_ANSWER;
  const chosen = bestSentences(input.passages, wanted);
  return chosen.length > 0 ? chosen.join(' ') : NO_ANSWER;
}

type Candidate = {
  text: string;
  /** The question's terms the sentence holds. */
  found: string[];
  weight: number;
  passage: number;
  paragraph: number;
  position: number;
};

/**
 * The sentence that carries most of the question's weight, with the sentence before it and the
 * rest of its paragraph (the material's own context for it), then any equally good sentence
 * elsewhere. A term weighs more
 * the fewer sentences hold it, so "return" outweighs "bike" in a bike shop's material. The best
 * sentence must hold at least half the question's terms (or its only one) to count as an answer.
 */
function bestSentences(passages: string[], wanted: Set<string>): string[] {
  const candidates = passages.flatMap((passage, passageRank) => sentencesOf(passage, passageRank, wanted));
  const termWeight = new Map(
    [...wanted].map((term) => {
      const holding = candidates.filter((candidate) => candidate.found.includes(term)).length;
      return [term, Math.log(1 + (candidates.length + 1) / (holding + 1))];
    }),
  );
  for (const candidate of candidates) {
    candidate.weight = candidate.found.reduce((sum, term) => sum + (termWeight.get(term) ?? 0), 0);
  }
  const best = [...candidates].sort(
    (a, b) => b.weight - a.weight || a.passage - b.passage || a.position - b.position,
  )[0];
  if (!best || best.found.length < Math.min(wanted.size, Math.max(1, Math.ceil(wanted.size / 2)))) return [];

  const sameParagraph = candidates.filter(
    (c) => c.passage === best.passage && c.paragraph === best.paragraph && c.position >= best.position - 1,
  );
  const equallyGood = candidates.filter((c) => c !== best && best.found.length >= 2 && c.weight === best.weight);
  const picked: Candidate[] = [];
  let length = 0;
  for (const candidate of [best, ...sameParagraph, ...equallyGood]) {
    if (picked.includes(candidate)) continue;
    if (picked.length >= MAX_SENTENCES || length + candidate.text.length > MAX_ANSWER_CHARS) break;
    picked.push(candidate);
    length += candidate.text.length;
  }
  return picked
    .sort((a, b) => a.passage - b.passage || a.position - b.position)
    .map((candidate) => candidate.text);
}

/** A passage's sentences; each also counts the words of the Markdown heading it stands under. */
function sentencesOf(passage: string, passageRank: number, wanted: Set<string>): Candidate[] {
  let position = 0;
  let heading: string[] = [];
  return passage.split(/\n\s*\n/).flatMap((paragraph, paragraphIndex) => {
    if (HEADING.test(paragraph)) {
      heading = terms(paragraph);
      return [];
    }
    return splitSentences(paragraph).map((text) => {
      const present = new Set([...terms(text), ...heading]);
      const found = [...wanted].filter((term) => present.has(term) || prefixMatch(term, present));
      return { text, found, weight: 0, passage: passageRank, paragraph: paragraphIndex, position: position++ };
    });
  });
}

function prefixMatch(term: string, present: Set<string>): boolean {
  if (term.length < 5) return false;
  for (const word of present) if (word.length >= 5 && (word.startsWith(term) || term.startsWith(word))) return true;
  return false;
}

/**
 * Sentences end at . ! or ? followed by white space, or at a line break; so prices, addresses
 * and abbreviations inside a sentence stay whole. Markdown headings are labels, not answers.
 */
function splitSentences(paragraph: string): string[] {
  return paragraph
    .split(/(?<=[.!?]["')\]]*)\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => words(sentence).length > 0 && !HEADING.test(sentence));
}
