import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ButtonInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { Logger } from 'pino';
import { answerQuestion, parseQuestionToken, QUESTION_GONE, questionToken, refusal, type QuestionToAnswer } from '../commands.js';
import type { PlatformWords } from '../platform-words.js';
import type { HubClient } from '../hub-client.js';
import type { Relay } from '../relay.js';
import { clip } from '../clip.js';

// `/chatbot unanswered` on Discord: a button per listed question; a click opens a modal
// (interaction callback type 9) whose text, submitted (a MODAL_SUBMIT interaction), resolves the
// question in the hub; the admin is answered privately.

const BUTTON_PREFIX = 'switchboard:answer:';
const MODAL_PREFIX = 'switchboard:answer-modal:';
const ANSWER_INPUT = 'answer';
/** Discord's limits: custom ids 100 characters, a placeholder 100, a paragraph input 4,000. */
const CUSTOM_ID_LIMIT = 100;
const PLACEHOLDER_LIMIT = 100;
const MAX_ANSWER_CHARS = 4_000;
/** Open questions searched for the one a button names (the command lists fewer). */
const LOOKED_UP = 100;

/** A row of "Answer n" buttons, one per listed question (none for ids too long for a custom id). */
export function answerRows(questions: QuestionToAnswer[]): ActionRowBuilder<ButtonBuilder>[] {
  const buttons = questions
    .map((question, index) => ({ index, customId: BUTTON_PREFIX + questionToken(question) }))
    .filter(({ customId }) => customId.length <= CUSTOM_ID_LIMIT)
    .map(({ index, customId }) => new ButtonBuilder().setCustomId(customId).setLabel(`Answer ${index + 1}`).setStyle(ButtonStyle.Primary));
  return buttons.length ? [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons.slice(0, 5))] : [];
}

export type AnswerDeps = {
  hub: HubClient;
  relay: Relay;
  words: PlatformWords;
  isAdmin: (interaction: ButtonInteraction | ModalSubmitInteraction) => boolean;
  logger: Logger;
};

/** A click on an "Answer" button: opens the modal. False if the button is not one. */
export async function onAnswerButton(interaction: ButtonInteraction, { hub, relay, words, isAdmin }: AnswerDeps): Promise<boolean> {
  if (!interaction.customId.startsWith(BUTTON_PREFIX)) return false;
  // Every instance receives the click too.
  if (!(await relay.claimMessage(interaction.id))) return true;
  const token = interaction.customId.slice(BUTTON_PREFIX.length);
  const target = parseQuestionToken(token);
  if (!isAdmin(interaction)) {
    await interaction.reply({ content: refusal(words, 'unanswered'), flags: MessageFlags.Ephemeral });
    return true;
  }
  const open = target ? await hub.listOpenQuestions(target.chatbotId, LOOKED_UP) : [];
  const question = open.find((group) => group.id === target?.groupId);
  if (!question) {
    await interaction.reply({ content: QUESTION_GONE, flags: MessageFlags.Ephemeral });
    return true;
  }
  const input = new TextInputBuilder()
    .setCustomId(ANSWER_INPUT)
    .setLabel('The answer the chatbot should give')
    .setStyle(TextInputStyle.Paragraph)
    .setPlaceholder(clip(question.question, PLACEHOLDER_LIMIT))
    .setMaxLength(MAX_ANSWER_CHARS)
    .setRequired(true);
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(MODAL_PREFIX + token)
      .setTitle('Answer a question')
      .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
  );
  return true;
}

/** The modal submitted: resolves the question with its text, answered privately. False if the modal is not ours. */
export async function onAnswerModal(interaction: ModalSubmitInteraction, { hub, relay, words, isAdmin, logger }: AnswerDeps): Promise<boolean> {
  if (!interaction.customId.startsWith(MODAL_PREFIX)) return false;
  if (!(await relay.claimMessage(interaction.id))) return true;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const answer = interaction.fields.getTextInputValue(ANSWER_INPUT);
  const content = await answerQuestion(hub, interaction.customId.slice(MODAL_PREFIX.length), answer, { isAdmin: isAdmin(interaction), words });
  logger.info({ user: interaction.user.id, guild: interaction.guildId }, 'Discord answer to an unanswered question');
  await interaction.editReply({ content });
  return true;
}
