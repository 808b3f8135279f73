import type { Database } from 'better-sqlite3';
import type { Lead } from '../port.js';

// A lead as its row, read by the leads and by erasure alike.

export type LeadRow = {
  id: string;
  chatbot_id: string;
  account_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  conversation_id: string | null;
  created_at: number;
};

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  chatbotId: row.chatbot_id,
  accountId: row.account_id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  conversationId: row.conversation_id,
  createdAt: new Date(row.created_at),
});

/** The statement that reads a chatbot's lead: ({chatbotId, id}). */
export const leadById = (db: Database) =>
  db.prepare<[{ chatbotId: string; id: string }], LeadRow>('SELECT * FROM leads WHERE chatbot_id = @chatbotId AND id = @id');

/** The statement that reads the lead collected in a conversation: (chatbotId, conversationId). */
export const leadOfConversation = (db: Database) =>
  db.prepare<[string, string], LeadRow>('SELECT * FROM leads WHERE chatbot_id = ? AND conversation_id = ?');

/**
 * The leads collected in some of a chatbot's conversations, each found through the (chatbot_id,
 * conversation_id) unique index. Exported for the test that checks the query plan.
 */
export const LEADS_OF_CONVERSATIONS_SQL = `SELECT * FROM leads
  WHERE chatbot_id = @chatbotId AND conversation_id IN (SELECT value FROM json_each(@conversationIds))`;

/** The statement that reads them: ({chatbotId, conversationIds: a JSON array of ids}). */
export const leadsOfConversations = (db: Database) =>
  db.prepare<[{ chatbotId: string; conversationIds: string }], LeadRow>(LEADS_OF_CONVERSATIONS_SQL);
