import type { Handoff } from '../port.js';
import type { ConversationDoc } from './models.js';

// A conversation's handoff as the field of its document, read by the handoffs, the conversations
// and the handoff notices alike.

export type HandoffDoc = NonNullable<ConversationDoc['handoff']>;

export const toHandoff = ({ status, requestedAt, takenBy, dueAt, updatedAt }: HandoffDoc): Handoff => ({
  status,
  requestedAt,
  takenBy,
  dueAt,
  updatedAt,
});
