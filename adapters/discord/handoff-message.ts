import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder } from 'discord.js';
import { isOpenHandoff, type HandoffNotice, type HandoffState } from '../hub-client.js';
import { asTyped, truncateMessage } from './text.js';

// How a handoff looks in the team's Discord channel: the root message (a status line, an embed
// with the person's details and the transcript, Take and Resolve buttons), the name of the thread
// started from it, and the notes posted in that thread. Buttons carry no ids: a click is resolved
// from the message it is on (its id is the thread's).

export const TAKE_ID = 'handoff:take';
export const RESOLVE_ID = 'handoff:resolve';

/** Discord's embed limits: title 256, description 4096, field name 256, value 1024, 6000 in all. */
const TITLE_LIMIT = 256;
const DESCRIPTION_LIMIT = 4_096;
const FIELD_LIMIT = 256;
const THREAD_NAME_LIMIT = 100;
/** One turn of the transcript; a long one is cut so later turns still fit. */
const TURN_LIMIT = 1_000;
const EARLIER_CUT = '… (earlier messages left out)';

/** Pending or active: the team can still take, answer or resolve it. */

/** The root message's first line: where the handoff stands. */
export function statusLine(state: HandoffState): string {
  switch (state.status) {
    case 'pending':
      return '🟡 **Waiting for someone from the team.** Take it, or just reply in the thread.';
    case 'active':
      return truncateMessage(`🟢 **Taken by ${state.taken_by ?? 'the team'}.** Replies in the thread reach the person.`);
    case 'resolved':
      return '✅ **Resolved:** the conversation is back with the chatbot.';
    case 'missed':
      return '⌛ **Missed:** nobody took it in time; the person was told nobody is available.';
  }
}

/** Take (while nobody has it) and Resolve (while open); none once closed. */
export function handoffRows(state: HandoffState): ActionRowBuilder<ButtonBuilder>[] {
  if (!isOpenHandoff(state)) return [];
  const buttons = [
    ...(state.status === 'pending' ? [new ButtonBuilder().setCustomId(TAKE_ID).setLabel('Take').setStyle(ButtonStyle.Primary)] : []),
    new ButtonBuilder().setCustomId(RESOLVE_ID).setLabel('Resolve').setStyle(ButtonStyle.Secondary),
  ];
  return [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons)];
}

/** The root message's whole body: status and buttons in sync with `state`. */
export const rootMessage = (state: HandoffState) => ({ content: statusLine(state), components: handoffRows(state) });

/** The request: the person's details, the source and the transcript so far (its latest turns when long). */
export function requestEmbed(notice: HandoffNotice): EmbedBuilder {
  const person = notice.person;
  const details = [
    // Typed by the person: shown as typed, never as links or markup.
    { name: 'Name', value: person?.name && asTyped(person.name) },
    { name: 'Email', value: person?.email && asTyped(person.email) },
    { name: 'Phone', value: person?.phone && asTyped(person.phone) },
    { name: 'Source', value: notice.source },
    { name: 'Conversation', value: notice.conversationId },
  ];
  return new EmbedBuilder()
    .setTitle(truncateMessage(`${notice.chatbotName}: someone asks for a person`, TITLE_LIMIT))
    .setDescription(transcriptText(notice))
    .addFields(details.filter(({ value }) => value).map(({ name, value }) => ({ name, value: truncateMessage(value ?? '', FIELD_LIMIT), inline: true })));
}

/** The turns, newest kept: whatever does not fit the description goes, oldest first. */
function transcriptText(notice: HandoffNotice): string {
  const lines = (notice.transcript ?? []).map((turn) => {
    const who = turn.role === 'user' ? 'Person' : turn.author ? `${turn.author.name} (team)` : notice.chatbotName;
    // The person's words as typed: markup of theirs could pass off a line as the chatbot's or hide a link.
    const content = turn.role === 'user' ? asTyped(turn.content.trim()) : turn.content.trim();
    return `**${who}:** ${truncateMessage(content, TURN_LIMIT)}`;
  });
  if (lines.length === 0) return '(no messages yet)';
  const kept: string[] = [];
  let length = 0;
  for (const line of lines.reverse()) {
    const added = line.length + (kept.length ? 1 : 0);
    if (length + added > DESCRIPTION_LIMIT - EARLIER_CUT.length - 1) {
      kept.push(EARLIER_CUT);
      break;
    }
    kept.push(line);
    length += added;
  }
  return kept.reverse().join('\n');
}

/** The thread's name: who asks, and of which chatbot. */
export function threadName(notice: HandoffNotice): string {
  const who = notice.person?.name?.trim() || notice.person?.email || 'Someone';
  return truncateMessage(`${who} · ${notice.chatbotName}`, THREAD_NAME_LIMIT);
}

/** What the person wrote, relayed into the thread. */
export const personSaid = (text: string) => `**Person:** ${asTyped(text)}`;

/**
 * What the team tells a person who talks to the chatbot in Discord: a team member's reply under
 * their name, the hand-back or the offline message as the hub wrote it, all shown as typed.
 */
export function toPerson({ text = '', author }: Pick<HandoffNotice, 'text' | 'author'>): string {
  return author ? `**${asTyped(author.name)}:** ${asTyped(text)}` : asTyped(text);
}

/** Answered in a thread whose handoff is over: nothing written there reaches the person. */
export const HANDOFF_CLOSED = 'This handoff is closed: messages here no longer reach the person.';
/** Answered to a message with no text (a file, a sticker): only text is relayed. */
export const ONLY_TEXT = 'Only text reaches the person; that message was not passed on.';
/** Answered when the hub could not take a reply in. */
export const NOT_DELIVERED = "Sorry, I couldn't pass that on to the person right now. Please send it again in a moment.";
