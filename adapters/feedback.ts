import type { Logger } from 'pino';
import { HubApiError, type Feedback, type HubClient } from './hub-client.js';
import type { AnswerRef } from './relay.js';

// 👍/👎 on answers, the same on every platform: what a button carries (the rating and the saved
// answer it is about), and recording a click in the hub with what the clicker is told, privately.

export const feedbackRecorded = (feedback: Feedback) =>
  feedback === 'up' ? 'Thanks for the 👍! Your feedback is recorded.' : 'Thanks for the 👎. Your feedback is recorded.';
export const FEEDBACK_GONE = 'That answer can no longer be rated.';
export const FEEDBACK_FAILED = "Sorry, your feedback couldn't be recorded. Please try again in a moment.";

/** `{up|down}:{chatbotId}:{messageId}`. */
export const feedbackToken = (feedback: Feedback, answer: AnswerRef) => `${feedback}:${answer.chatbotId}:${answer.messageId}`;

/** The rating and answer a token carries; undefined for any other string. Message ids hold no `:`. */
export function parseFeedbackToken(token: string): { feedback: Feedback; answer: AnswerRef } | undefined {
  const match = /^(up|down):(.+):([^:]+)$/.exec(token);
  if (!match) return undefined;
  const [, feedback, chatbotId = '', messageId = ''] = match;
  return { feedback: feedback as Feedback, answer: { chatbotId, messageId } };
}

/** Records the rating a clicked button carries; answers what to tell the clicker. */
export async function recordFeedback(hub: HubClient, token: string, logger: Logger): Promise<string> {
  const parsed = parseFeedbackToken(token);
  if (!parsed) return FEEDBACK_GONE;
  const { feedback, answer } = parsed;
  try {
    await hub.sendFeedback(answer.chatbotId, answer.messageId, feedback);
    return feedbackRecorded(feedback);
  } catch (error) {
    // The chatbot or its conversation was deleted since the answer was given.
    if (error instanceof HubApiError && error.status === 404) return FEEDBACK_GONE;
    logger.error({ err: error, ...answer }, 'could not record feedback');
    return FEEDBACK_FAILED;
  }
}
