import type { App, types } from '@slack/bolt';
import type { Logger } from 'pino';
import { feedbackToken, FEEDBACK_FAILED, recordFeedback } from '../feedback.js';
import type { HubClient } from '../hub-client.js';
import type { AnswerRef } from '../relay.js';
import { countSlackError } from './metrics.js';

// 👍/👎 under an answer: Slack's feedback buttons (a `context_actions` block, built for AI apps),
// each carrying the rating and the saved answer; a click is recorded in the hub and acknowledged
// with a message only the clicker sees (chat.postEphemeral).

export const FEEDBACK_ACTION_ID = 'switchboard_feedback';

/** The blocks a streamed answer ends with (chat.stopStream renders them below its text). */
export function feedbackBlocks(answer: AnswerRef): types.KnownBlock[] {
  return [
    {
      type: 'context_actions',
      elements: [
        {
          type: 'feedback_buttons',
          action_id: FEEDBACK_ACTION_ID,
          positive_button: {
            text: { type: 'plain_text', text: '👍' },
            value: feedbackToken('up', answer),
            accessibility_label: 'This answer was helpful',
          },
          negative_button: {
            text: { type: 'plain_text', text: '👎' },
            value: feedbackToken('down', answer),
            accessibility_label: 'This answer was not helpful',
          },
        },
      ],
    },
  ];
}

/**
 * A whole answer message as blocks: with blocks Slack shows them instead of the text, so the
 * text (standard Markdown, as streamed, escaped as streamed) comes first.
 */
export const answerBlocks = (text: string, answer: AnswerRef): types.KnownBlock[] => [
  { type: 'markdown', text },
  ...feedbackBlocks(answer),
];

export type FeedbackDeps = { hub: () => HubClient | undefined; logger: Logger };

/** Registers the handler of clicks on the feedback buttons. */
export function listenForFeedback(app: App, { hub: currentHub, logger }: FeedbackDeps): void {
  app.action({ type: 'block_actions', action_id: FEEDBACK_ACTION_ID }, async ({ ack, action, body, client }) => {
    await ack();
    const hub = currentHub();
    const value = 'value' in action && typeof action.value === 'string' ? action.value : '';
    const text = hub ? await recordFeedback(hub, value, logger) : FEEDBACK_FAILED;
    const channel = body.channel?.id;
    if (!channel) return;
    const threadTs = typeof body.message?.thread_ts === 'string' ? body.message.thread_ts : undefined;
    await client.chat
      .postEphemeral({ channel, user: body.user.id, text, ...(threadTs && { thread_ts: threadTs }) })
      .catch((error: unknown) => {
        countSlackError(error);
        logger.warn({ err: error, channel }, 'could not acknowledge feedback');
      });
  });
}
