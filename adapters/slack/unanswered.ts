import type { App, types } from '@slack/bolt';
import type { Logger } from 'pino';
import { answerQuestion, ANSWER_FAILED, questionToken, type QuestionToAnswer } from '../commands.js';
import type { PlatformWords } from '../platform-words.js';
import type { HubClient } from '../hub-client.js';
import { clipEncoded } from '../clip.js';
import { countSlackError } from './metrics.js';
import { escapeText } from './text.js';
import type { UserDirectory } from './users.js';

// `/chatbot unanswered` on Slack: each listed question with an "Answer" button; the button opens
// a modal (views.open, with the click's trigger_id) whose text resolves the question in the hub;
// the admin is told how that went privately (chat.postEphemeral in the channel of the command).

export const ANSWER_ACTION_ID = 'switchboard_answer_question';
export const ANSWER_VIEW_ID = 'switchboard_answer_question';
const ANSWER_BLOCK = 'answer';
/**
 * Slack's limits: a button value holds 2,000 characters, a section's text and a plain-text input
 * 3,000. They count what is sent, the question's quotes escaped in the value's JSON and its `<`,
 * `>` and `&` as entities in the text.
 */
const BUTTON_VALUE_CHARS = 2_000;
const SECTION_TEXT_CHARS = 3_000;
const MAX_ANSWER_CHARS = 3_000;

type Carried = { token: string; question: string };

/** The command's reply as blocks: its text, then each question with its "Answer" button. */
export function questionBlocks(text: string, questions: QuestionToAnswer[]): types.KnownBlock[] {
  const [heading = '', ...lines] = text.split('\n');
  return [
    { type: 'section', text: { type: 'mrkdwn', text: escapeText(heading) } },
    ...questions.map(
      (question, index): types.KnownBlock => ({
        type: 'section',
        text: { type: 'mrkdwn', text: escapeText(lines[index] ?? question.question) },
        accessory: {
          type: 'button',
          action_id: ANSWER_ACTION_ID,
          text: { type: 'plain_text', text: 'Answer' },
          value: clipEncoded(question.question, BUTTON_VALUE_CHARS, (shown) =>
            JSON.stringify({ token: questionToken(question), question: shown } satisfies Carried),
          ),
        },
      }),
    ),
  ];
}

function answerModal(carried: Carried, channel: string | undefined): types.ModalView {
  return {
    type: 'modal',
    callback_id: ANSWER_VIEW_ID,
    private_metadata: JSON.stringify({ token: carried.token, channel }),
    title: { type: 'plain_text', text: 'Answer a question' },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: clipEncoded(carried.question, SECTION_TEXT_CHARS, (shown) => `*${escapeText(shown)}*`) } },
      {
        type: 'input',
        block_id: ANSWER_BLOCK,
        label: { type: 'plain_text', text: 'The answer the chatbot should give' },
        element: { type: 'plain_text_input', action_id: ANSWER_BLOCK, multiline: true, max_length: MAX_ANSWER_CHARS },
      },
    ],
  };
}

export type AnswerDeps = { hub: () => HubClient | undefined; users: UserDirectory; words: PlatformWords; logger: Logger };

/** Registers the "Answer" button (opens the modal) and the modal's submission (resolves the question). */
export function listenForAnswers(app: App, { hub: currentHub, users, words, logger }: AnswerDeps): void {
  app.action({ type: 'block_actions', action_id: ANSWER_ACTION_ID }, async ({ ack, action, body, client }) => {
    await ack();
    const value = 'value' in action && typeof action.value === 'string' ? action.value : '{}';
    const carried = JSON.parse(value) as Carried;
    await client.views.open({ trigger_id: body.trigger_id, view: answerModal(carried, body.channel?.id) }).catch((error: unknown) => {
      countSlackError(error);
      logger.warn({ err: error }, 'could not open the answer modal');
    });
  });

  app.view(ANSWER_VIEW_ID, async ({ ack, body, view, client }) => {
    await ack();
    const { token, channel } = JSON.parse(view.private_metadata || '{}') as { token?: string; channel?: string };
    const answer = view.state.values[ANSWER_BLOCK]?.[ANSWER_BLOCK]?.value ?? '';
    const hub = currentHub();
    const text = hub
      ? await answerQuestion(hub, token ?? '', answer, { isAdmin: await users.isAdmin(body.user.id), words })
      : ANSWER_FAILED;
    logger.info({ user: body.user.id, team: body.team?.id }, 'Slack answer to an unanswered question');
    if (!channel) return;
    await client.chat.postEphemeral({ channel, user: body.user.id, text: escapeText(text) }).catch((error: unknown) => {
      countSlackError(error);
      logger.warn({ err: error, channel }, 'could not acknowledge an answer');
    });
  });
}
