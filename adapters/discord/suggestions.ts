import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { clip } from '../clip.js';
import { addressed } from './conversation.js';

// The chatbot's suggested questions as buttons under its first reply in a conversation (each
// person's own in a channel; see ./messages.ts). A button carries the question's position (custom
// ids are short); the click reads the list again.

const CUSTOM_ID_PREFIX = 'switchboard:suggest:';
/** Discord allows 5 rows of 5 buttons, labels of 80 characters; the fifth row is the answer's 👍/👎. */
const PER_ROW = 5;
const MAX_BUTTONS = 20;
const LABEL_LIMIT = 80;

export function suggestionRows(suggestions: readonly string[]): ActionRowBuilder<ButtonBuilder>[] {
  const rows: ActionRowBuilder<ButtonBuilder>[] = [];
  suggestions.slice(0, MAX_BUTTONS).forEach((question, index) => {
    if (index % PER_ROW === 0) rows.push(new ActionRowBuilder<ButtonBuilder>());
    rows.at(-1)?.addComponents(
      new ButtonBuilder().setCustomId(`${CUSTOM_ID_PREFIX}${index}`).setLabel(clip(question, LABEL_LIMIT)).setStyle(ButtonStyle.Secondary),
    );
  });
  return rows;
}

/** The position a suggestion button carries, or undefined for any other custom id. */
export function suggestionIndex(customId: string): number | undefined {
  if (!customId.startsWith(CUSTOM_ID_PREFIX)) return undefined;
  const index = Number(customId.slice(CUSTOM_ID_PREFIX.length));
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

/**
 * How a clicked question appears in the channel: the bot's own message, naming the asker (shown as
 * their name, pinging nobody), read back as the asker's turn of their conversation.
 */
export const askedText = (userId: string, question: string) => addressed(userId, `asked: ${question}`);

/** Also the `**name** asked: …` such notes were before they named the asker by id, still in channel histories. */
const ASKED = /^(?:<@!?\d+>|\*\*[^*\n]+\*\*) asked: ([\s\S]+)$/;

/** The question of an `askedText` message, or undefined. */
export const askedQuestion = (content: string) => ASKED.exec(content)?.[1];
