import { nanoid } from 'nanoid';
import { questionLikeness, questionTerms, relatedTerms, SAME_QUESTION } from '../engine/question-similarity.js';
import type {
  Account,
  Chatbot,
  Page,
  Store,
  UnansweredExample,
  UnansweredFilter,
  UnansweredGroup,
  UnansweredStatus,
} from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { notFound } from './errors.js';
import { correctQaAnswer, type SourceLimits } from './sources.js';

// Questions the chatbots could not answer: a declined reply (the offline decline, or a model's
// "not covered" sentence: engine/decline.ts), or an answer rated 👎. Each is
// counted into the group of questions that ask the same thing (question-similarity.ts), or opens
// a group of its own; the owner answers a group (resolve) or sets it aside (dismiss), and a group
// asked again while still not answered opens again.

/** Groups compared with a new question: the most recently asked of those sharing a word with it. */
const CANDIDATES = 200;
/** A group keeps its first question; a very long one is kept to this length. */
const MAX_QUESTION_CHARS = 2_000;

/** Counts one unanswered question into its group, opening one when none asks the same. */
export async function recordUnanswered(
  store: Store,
  chatbot: Pick<Chatbot, 'id' | 'accountId'>,
  question: string,
  example: UnansweredExample,
): Promise<void> {
  const asked = question.trim().slice(0, MAX_QUESTION_CHARS);
  if (!asked) return;
  const terms = questionTerms(asked);
  // The same question again (the common case) is counted without comparing it to other groups.
  if (await store.unanswered.repeat({ chatbotId: chatbot.id, terms, question: asked, example })) return;
  const candidates = terms.length > 0 ? await store.unanswered.candidates(chatbot.id, relatedTerms(terms), CANDIDATES) : [];
  let best: { id: string; likeness: number } | undefined;
  for (const candidate of candidates) {
    const likeness = questionLikeness(terms, candidate.terms);
    if (likeness >= SAME_QUESTION && likeness > (best?.likeness ?? 0)) best = { id: candidate.id, likeness };
  }
  await store.unanswered.record({
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    groupId: best?.id,
    opening: { id: nanoid(), question: asked, terms },
    example,
  });
}

export async function listUnanswered(
  store: Store,
  account: Account,
  chatbotId: string,
  filter: UnansweredFilter,
  page: Page,
): Promise<{ groups: UnansweredGroup[]; total: number }> {
  await findOwnedChatbot(store, account, chatbotId);
  const [groups, total] = await Promise.all([
    store.unanswered.list(chatbotId, filter, page),
    store.unanswered.count(chatbotId, filter),
  ]);
  return { groups, total };
}

/**
 * The owner's answer to a group's question: a Q&A source of the group's question and the answer
 * (so the chatbot answers it, and its paraphrases, from then on), then the group is resolved.
 */
export async function resolveUnanswered(
  store: Store,
  account: Account,
  chatbotId: string,
  id: string,
  answer: string,
  limits?: SourceLimits,
): Promise<UnansweredGroup> {
  await findOwnedChatbot(store, account, chatbotId);
  const group = await store.unanswered.find(chatbotId, id);
  if (!group) throw notFound(`chatbot ${chatbotId} has no unanswered question ${id}`);
  await correctQaAnswer(store, account, chatbotId, { question: group.question, answer }, limits);
  return setUnansweredStatus(store, account, chatbotId, id, 'resolved');
}

export async function setUnansweredStatus(
  store: Store,
  account: Account,
  chatbotId: string,
  id: string,
  status: UnansweredStatus,
): Promise<UnansweredGroup> {
  await findOwnedChatbot(store, account, chatbotId);
  const group = await store.unanswered.setStatus(chatbotId, id, status);
  if (!group) throw notFound(`chatbot ${chatbotId} has no unanswered question ${id}`);
  return group;
}
