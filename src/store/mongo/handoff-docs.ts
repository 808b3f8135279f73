import type { ChangedHandoff, Handoff } from '../port.js';
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

/** The handoff a change left in the document, with the conversation's incarnation. */
export const toChangedHandoff = (doc: Pick<ConversationDoc, 'handoff' | 'incarnation'> | null): ChangedHandoff | undefined =>
  doc?.handoff && { ...toHandoff(doc.handoff), incarnation: doc.incarnation ?? null };
