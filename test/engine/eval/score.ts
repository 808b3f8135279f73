import { readFileSync } from 'node:fs';
import { defaultSettings } from '../../../src/settings/chatbot-settings.js';
import { chunkText } from '../../../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher, type LexicalSearcher, type SearchOptions } from '../../../src/engine/lexical-index.js';
import { composeAnswer, NO_ANSWER } from '../../../src/engine/offline/compose.js';
import type { ChatTurn } from '../../../src/engine/responder.js';
import type { SourceRef } from '../../../src/store/port.js';
import { stem, words } from '../../../src/engine/text.js';
import { DEV_2_QUESTIONS } from '../dev2/questions.js';
import { HELD_OUT_QUESTIONS } from '../heldout/questions.js';
import { HELD_OUT_2_QUESTIONS } from '../heldout2/questions.js';
import { HELD_OUT_3_QUESTIONS } from '../heldout3/questions.js';
import { HELD_OUT_4_QUESTIONS } from '../heldout4/questions.js';
import { HELD_OUT_5_QUESTIONS } from '../heldout5/questions.js';
import { HELD_OUT_6_QUESTIONS } from '../heldout6/questions.js';
import { HELD_OUT_7_QUESTIONS } from '../heldout7/questions.js';
import { HELD_OUT_8_QUESTIONS } from '../heldout8/questions.js';
import { HELD_OUT_9_QUESTIONS } from '../heldout9/questions.js';
import { HELD_OUT_10_QUESTIONS } from '../heldout10/questions.js';
import { HELD_OUT, QUESTIONS, type Category, type EvalQuestion } from './questions.js';

// Scores an answerer on a question set, per category. Shared by the tests (floors) and the
// bench (against the baseline in the same process). A hit is a reply holding the expected
// fragment (every one of them, for a list), or exactly the no-answer text where the document
// has no answer.

/** Answers a question (a follow-up of `after`) on a document, given the document's text. */
export type Answerer = (document: string, question: Pick<EvalQuestion, 'question' | 'after'>) => string;
export type Score = { hits: number; total: number };
/** `heldOut`: the development set's document nobody tuned the engine to, scored apart. */
export type Report = { overall: Score; heldOut: Score; byCategory: Map<Category, Score>; misses: string[] };

/** Questions and the folder their documents are in. */
export type QuestionSet = { folder: URL; questions: EvalQuestion[] };

/** The development set: the engine is tuned on it. */
export const DEVELOPMENT: QuestionSet = { folder: new URL('./', import.meta.url), questions: QUESTIONS };
/** The second development set (../dev2/): five more kinds of material, tuned on beside the first. */
export const DEVELOPMENT_2: QuestionSet = { folder: new URL('../dev2/', import.meta.url), questions: DEV_2_QUESTIONS };
/** The held-out set (../heldout/): never tuned on. */
export const HELD_OUT_SET: QuestionSet = { folder: new URL('../heldout/', import.meta.url), questions: HELD_OUT_QUESTIONS };
/** Written 2026-11-26, when the first held-out set had been reported after many changes: a fresh estimate. */
export const HELD_OUT_SET_2: QuestionSet = { folder: new URL('../heldout2/', import.meta.url), questions: HELD_OUT_2_QUESTIONS };
/** Written a session later, when the second had been reported after that session's changes. */
export const HELD_OUT_SET_3: QuestionSet = { folder: new URL('../heldout3/', import.meta.url), questions: HELD_OUT_3_QUESTIONS };
/** Written two sessions after the third, when every other set had been reported after changes (and some looked at). */
export const HELD_OUT_SET_4: QuestionSet = { folder: new URL('../heldout4/', import.meta.url), questions: HELD_OUT_4_QUESTIONS };
/** Written when all four had been reported after changes and their total had decided which changes were kept. */
export const HELD_OUT_SET_5: QuestionSet = { folder: new URL('../heldout5/', import.meta.url), questions: HELD_OUT_5_QUESTIONS };
/** Written when all five had been reported after changes and their total had decided which changes were kept. */
export const HELD_OUT_SET_6: QuestionSet = { folder: new URL('../heldout6/', import.meta.url), questions: HELD_OUT_6_QUESTIONS };
/** Written when all six had been reported after changes and their total had decided which changes were kept. */
export const HELD_OUT_SET_7: QuestionSet = { folder: new URL('../heldout7/', import.meta.url), questions: HELD_OUT_7_QUESTIONS };
/** Written when all seven had been reported after changes and their total had decided which changes were kept. */
export const HELD_OUT_SET_8: QuestionSet = { folder: new URL('../heldout8/', import.meta.url), questions: HELD_OUT_8_QUESTIONS };
/** Written when all eight had been reported after changes and their total had decided which changes were kept. */
export const HELD_OUT_SET_9: QuestionSet = { folder: new URL('../heldout9/', import.meta.url), questions: HELD_OUT_9_QUESTIONS };
/** Written when all nine had been reported after changes, before another helper changes the engine this session. */
export const HELD_OUT_SET_10: QuestionSet = { folder: new URL('../heldout10/', import.meta.url), questions: HELD_OUT_10_QUESTIONS };

const CHATBOT = 'Eval helper';

const documents = new Map<string, string>();
export function documentText(name: string, folder = DEVELOPMENT.folder): string {
  const url = new URL(name, folder);
  let text = documents.get(url.href);
  if (text === undefined) {
    text = readFileSync(url, 'utf8');
    documents.set(url.href, text);
  }
  return text;
}

export function evaluate(answer: Answerer, set = DEVELOPMENT): Report {
  const byCategory = new Map<Category, Score>();
  const overall: Score = { hits: 0, total: 0 };
  const heldOut: Score = { hits: 0, total: 0 };
  const misses: string[] = [];
  for (const question of set.questions) {
    const reply = answer(documentText(question.document, set.folder), question);
    const expected = question.expected;
    const hit = expected === null ? reply === NO_ANSWER : [expected].flat().every((fragment) => reply.includes(fragment));
    const score = byCategory.get(question.category) ?? { hits: 0, total: 0 };
    byCategory.set(question.category, score);
    for (const s of question.document === HELD_OUT ? [score, overall, heldOut] : [score, overall]) {
      s.total += 1;
      if (hit) s.hits += 1;
    }
    if (!hit) {
      const wanted = expected === null ? 'the no-answer reply' : [expected].flat().join(' … ');
      misses.push(`[${question.document} ${question.category}] ${question.question}\n    expected: ${wanted}\n    answered: ${reply}`);
    }
  }
  return { overall, heldOut, byCategory, misses };
}

/**
 * The engine as POST /chat runs it: search with the earlier question as context, then compose.
 * `{ expand: false }` runs it without the WordNet expansion of the question, to measure its gain.
 */
export function engineAnswerer(options: SearchOptions = {}): Answerer {
  const searchers = new Map<string, LexicalSearcher>();
  return (document, question) => {
    let search = searchers.get(document);
    if (!search) {
      const chunks = chunkText(document).map((text, seq) => ({ seq, text }));
      search = lexicalSearcher(buildLexicalIndex(chunks), options);
      searchers.set(document, search);
    }
    return answerFrom(search, question);
  };
}

/** The engine's reply, as POST /chat gives it, on material of several sources (a text and the owner's Q&A pairs), each trained with its source. */
export function sourcesAnswerer(sources: { text: string; source: SourceRef }[]): (question: string, after?: string) => string {
  const chunks = sources.flatMap(({ text, source }) => chunkText(text).map((chunk) => ({ text: chunk, source })));
  const search = lexicalSearcher(buildLexicalIndex(chunks.map((chunk, seq) => ({ ...chunk, seq }))));
  return (question, after) => answerFrom(search, { question, ...(after ? { after } : {}) });
}

/** Search with the earlier question as context, then compose. */
function answerFrom(search: LexicalSearcher, { question, after }: Pick<EvalQuestion, 'question' | 'after'>): string {
  const settings = defaultSettings(CHATBOT);
  const messages: ChatTurn[] = after
    ? [{ role: 'user', content: after }, { role: 'assistant', content: '…' }, { role: 'user', content: question }]
    : [{ role: 'user', content: question }];
  return composeAnswer({
    chatbotName: CHATBOT,
    settings,
    messages,
    passages: search({ question, context: after }, 4),
    contact: undefined,
    model: settings.model,
    temperature: 0,
    signal: new AbortController().signal,
  });
}

/**
 * Plain BM25 top-sentence retrieval: the document split at sentence ends and line breaks, each
 * sentence a document, the best-scoring one quoted, the no-answer text when nothing matches.
 */
export function bm25Answerer(): Answerer {
  const K1 = 1.2;
  const B = 0.75;
  const indexes = new Map<string, { sentences: string[]; terms: string[][]; df: Map<string, number>; average: number }>();
  const termsOf = (text: string) => words(text).map(stem);
  return (document, { question }) => {
    let index = indexes.get(document);
    if (!index) {
      const sentences = document.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
      const terms = sentences.map(termsOf);
      const df = new Map<string, number>();
      for (const list of terms) for (const term of new Set(list)) df.set(term, (df.get(term) ?? 0) + 1);
      index = { sentences, terms, df, average: terms.reduce((a, t) => a + t.length, 0) / terms.length };
      indexes.set(document, index);
    }
    const { sentences, terms, df, average } = index;
    const asked = new Set(termsOf(question));
    let best = -1;
    let bestScore = 0;
    terms.forEach((list, i) => {
      let score = 0;
      for (const term of asked) {
        const tf = list.filter((t) => t === term).length;
        if (tf === 0) continue;
        const n = df.get(term) ?? 0;
        const idf = Math.log(1 + (sentences.length - n + 0.5) / (n + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * list.length) / average));
      }
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    return best < 0 ? NO_ANSWER : (sentences[best] as string);
  };
}
