import type { ChangedHandoff, Handoff, HandoffStatus, Incarnation } from '../port.js';

// A conversation's handoff as its row in conversation_handoffs, read by the handoffs, the
// conversations and the handoff notices alike.

export type HandoffRow = {
  chatbot_id: string;
  conversation_id: string;
  account_id: string;
  status: HandoffStatus;
  requested_at: number;
  taken_by: string | null;
  due_at: number | null;
  updated_at: number;
};

export const toHandoff = (row: HandoffRow): Handoff => ({
  status: row.status,
  requestedAt: new Date(row.requested_at),
  takenBy: row.taken_by,
  dueAt: row.due_at === null ? null : new Date(row.due_at),
  updatedAt: new Date(row.updated_at),
});

export const HANDOFF_OF_CONVERSATION = 'SELECT * FROM conversation_handoffs WHERE chatbot_id = ? AND conversation_id = ?';

/** A row a change returned, with its conversation's incarnation (CHANGED_HANDOFF). */
export type ChangedHandoffRow = HandoffRow & { incarnation: Incarnation };

export const toChangedHandoff = (row: ChangedHandoffRow): ChangedHandoff => ({ ...toHandoff(row), incarnation: row.incarnation });

/** What a write of a handoff returns: its row, and its conversation's incarnation, in that statement. */
export const CHANGED_HANDOFF = `RETURNING *, (SELECT incarnation FROM conversations
  WHERE chatbot_id = conversation_handoffs.chatbot_id AND id = conversation_handoffs.conversation_id) AS incarnation`;
