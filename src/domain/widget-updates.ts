import type { Conversation, Handoff, StoredMessage } from '../store/port.js';
import { isOpenHandoff } from '../store/port.js';

// What the widget's live stream sends from one read of a handed-off conversation: the assistant
// messages the browser has not seen (the team's replies, the hand-back or offline message) and
// the handoff's state. The browser's place is a message id (the cursor): every event carries
// one, so a reconnect resumes after the last message it received, wherever it reconnects.
//
// Messages are compared by their place in the conversation, not by time or id order: a team
// reply is appended at the end, and only messages with ids reserved earlier (the person's own
// messages, a chatbot reply already streamed to them) can land before the cursor, which the
// browser has no need to be sent.

/** How long a closed handoff may go without its closing message (a process that stopped in between) before the stream ends anyway. */
export const CLOSING_GRACE_MS = 30_000;

export type ConversationUpdate = {
  /** The assistant messages after the cursor, oldest first. */
  replies: StoredMessage[];
  /** The last message this update covers: where the next one starts. */
  cursor: string | undefined;
  /** The latest handoff, undefined when the conversation never had one. */
  handoff: Handoff | undefined;
  /** Nothing more will come: no handoff is open, and the one that closed has said so. */
  settled: boolean;
};

/**
 * The update after `cursor`. An unknown or absent cursor starts after the handoff's request
 * (whose own reply, the waiting message, the person was answered with), or at the end when
 * there is no handoff.
 */
export function updateSince(conversation: Conversation, cursor: string | undefined, now: Date): ConversationUpdate {
  const { messages, handoff } = conversation;
  const start = startOf(messages, cursor, handoff);
  return {
    replies: messages.slice(start).filter((message) => message.role === 'assistant'),
    cursor: messages.at(-1)?.id ?? cursor,
    handoff,
    settled: isSettled(messages, handoff, now),
  };
}

function startOf(messages: StoredMessage[], cursor: string | undefined, handoff: Handoff | undefined): number {
  const known = cursor === undefined ? -1 : messages.findIndex((message) => message.id === cursor);
  if (known >= 0) return known + 1;
  if (!handoff) return messages.length;
  const after = messages.findIndex((message) => message.createdAt > handoff.requestedAt);
  return after < 0 ? messages.length : after;
}

/** A handoff closes before its closing message is saved (both at the same instant): the stream waits for the message. */
function isSettled(messages: StoredMessage[], handoff: Handoff | undefined, now: Date): boolean {
  if (!handoff) return true;
  if (isOpenHandoff(handoff)) return false;
  const closedAt = handoff.updatedAt.getTime();
  const said = messages.some((message) => message.role === 'assistant' && message.createdAt.getTime() >= closedAt);
  return said || now.getTime() - closedAt > CLOSING_GRACE_MS;
}
