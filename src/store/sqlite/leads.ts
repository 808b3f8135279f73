import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import type { Lead, LeadRepository } from '../port.js';
import { timeBounds } from './time-bounds.js';
import { translateUnique } from './unique.js';

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

type ListParams = { chatbotId: string; from: number; to: number; limit: number; offset: number };

/**
 * Range conditions on the columns of leads_by_chatbot_time, in its order, so the index both
 * finds and sorts the page. Exported for the test that checks the query plan.
 */
export const LIST_LEADS_SQL = `SELECT * FROM leads
  WHERE chatbot_id = @chatbotId AND created_at >= @from AND created_at <= @to
  ORDER BY created_at DESC, id DESC
  LIMIT @limit OFFSET @offset`;

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

const toParams = (lead: Lead) => ({
  id: lead.id,
  chatbotId: lead.chatbotId,
  accountId: lead.accountId,
  name: lead.name,
  email: lead.email,
  phone: lead.phone,
  conversationId: lead.conversationId,
  createdAt: lead.createdAt.getTime(),
});

export function sqliteLeads(db: Database): LeadRepository {
  const insert = db.prepare(
    `INSERT INTO leads (id, chatbot_id, account_id, name, email, phone, conversation_id, created_at)
     VALUES (@id, @chatbotId, @accountId, @name, @email, @phone, @conversationId, @createdAt)`,
  );
  // One statement: the unique (chatbot_id, conversation_id) constraint decides between insert
  // and update, so concurrent writers cannot create two leads for one conversation.
  const upsert = db.prepare<[ReturnType<typeof toParams>], LeadRow>(
    `INSERT INTO leads (id, chatbot_id, account_id, name, email, phone, conversation_id, created_at)
     VALUES (@id, @chatbotId, @accountId, @name, @email, @phone, @conversationId, @createdAt)
     ON CONFLICT (chatbot_id, conversation_id) DO UPDATE SET
       name = COALESCE(excluded.name, leads.name),
       email = COALESCE(excluded.email, leads.email),
       phone = COALESCE(excluded.phone, leads.phone)
     RETURNING *`,
  );
  const list = db.prepare<[ListParams], LeadRow>(LIST_LEADS_SQL);

  return {
    async insert(lead) {
      translateUnique(() => insert.run(toParams(lead)));
    },
    async upsertForConversation(lead) {
      const row = upsert.get(toParams(lead));
      if (!row) throw new Error('upsert returned no row');
      return toLead(row);
    },
    async list(chatbotId, range, page) {
      const params = { chatbotId, ...timeBounds(range), limit: page.size, offset: pageOffset(page) };
      return list.all(params).map(toLead);
    },
  };
}
