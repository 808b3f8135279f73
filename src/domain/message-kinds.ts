import { isDecline } from '../engine/decline.js';
import type { Chatbot, ConversationMessage, MessageKind } from '../store/port.js';
import { HANDED_BACK } from './handoff.js';

// What each of the chatbot's messages is (an answer, a decline, what a handoff says) is marked
// where the message is written. Messages saved before the mark are read by their text, as they
// were then: here, and nowhere else.

/** A reply of the chatbot's: a decline when it says the material does not cover the question, else an answer. */
export const replyKind = (reply: string): MessageKind => (isDecline(reply) ? 'decline' : 'answer');

/** What one of the chatbot's messages is; undefined for a team member's reply and a person's message. */
export function kindOf(message: ConversationMessage, chatbot: Chatbot): MessageKind | undefined {
  if (message.role !== 'assistant' || message.author) return undefined;
  return message.kind ?? unmarkedKind(message.content, chatbot);
}

/**
 * A message saved before the mark: what a handoff says when it is the chatbot's waiting or offline
 * message (as set now) or the hand-back (all English then), alone or followed by the request for
 * contact details in a paragraph of its own; else what its text says as a reply.
 */
function unmarkedKind(content: string, chatbot: Chatbot): MessageKind {
  if (isDecline(content)) return 'decline';
  const { waitingMessage, offlineMessage } = chatbot.settings.handoff;
  const saidAlone = (said: string) => said !== '' && (content === said || content.startsWith(`${said}\n\n`));
  return [waitingMessage, offlineMessage, HANDED_BACK.en].some(saidAlone) ? 'handoff' : 'answer';
}
