import { ActionRowBuilder, ButtonBuilder, ButtonStyle, MessageFlags, type ButtonInteraction } from 'discord.js';
import type { Logger } from 'pino';
import { feedbackToken, recordFeedback } from '../feedback.js';
import type { Feedback, HubClient } from '../hub-client.js';
import type { AnswerRef, Relay } from '../relay.js';

// 👍/👎 under an answer: a row of two buttons whose custom ids carry the rating and the saved
// answer; a click is recorded in the hub and acknowledged with a reply only the clicker sees.

const CUSTOM_ID_PREFIX = 'switchboard:feedback:';
/** Discord's longest custom id. */
const CUSTOM_ID_LIMIT = 100;

const BUTTONS: [Feedback, string][] = [
  ['up', '👍'],
  ['down', '👎'],
];

/** The row of feedback buttons for an answer; none when its ids would not fit a custom id. */
export function feedbackRows(answer: AnswerRef): ActionRowBuilder<ButtonBuilder>[] {
  const buttons = BUTTONS.map(([feedback, emoji]) => ({ emoji, customId: CUSTOM_ID_PREFIX + feedbackToken(feedback, answer) }));
  if (buttons.some(({ customId }) => customId.length > CUSTOM_ID_LIMIT)) return [];
  return [
    new ActionRowBuilder<ButtonBuilder>().addComponents(
      buttons.map(({ emoji, customId }) => new ButtonBuilder().setCustomId(customId).setEmoji(emoji).setStyle(ButtonStyle.Secondary)),
    ),
  ];
}

export type FeedbackDeps = { hub: HubClient; relay: Relay; logger: Logger };

/** A click on a feedback button: recorded, then answered privately (callback type 4, ephemeral). False if the button is not one. */
export async function onFeedbackButton(interaction: ButtonInteraction, { hub, relay, logger }: FeedbackDeps): Promise<boolean> {
  if (!interaction.customId.startsWith(CUSTOM_ID_PREFIX)) return false;
  // Every instance receives the click too.
  if (!(await relay.claimMessage(interaction.id))) return true;
  const content = await recordFeedback(hub, interaction.customId.slice(CUSTOM_ID_PREFIX.length), logger);
  await interaction.reply({ content, flags: MessageFlags.Ephemeral });
  return true;
}
