import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import type { Lead, LeadRepository } from '../port.js';
import type { ActivityCount } from './activity.js';
import { timeBounds } from './time-bounds.js';
import { sqliteErasure } from './erasure.js';
import { leadById, leadOfConversation, leadsOfConversations, toLead, type LeadRow } from './lead-rows.js';
import { translateUnique } from './unique.js';

type Bounds = { chatbotId: string; from: number; to: number };
type PageParams = { chatbotId: string; lowest: number; highest: number; limit: number };

/**
 * A page of leads, newest first: a seek on leads_by_chatbot_position between the positions the
 * range and the page give. Exported for the test that checks the query plan.
 */
export const LIST_LEADS_SQL = `SELECT * FROM leads
  WHERE chatbot_id = @chatbotId AND position BETWEEN @lowest AND @highest
  ORDER BY position DESC
  LIMIT @limit`;

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

// `position` is a lead's 1-based rank in its chatbot's (created_at, id) order, kept exact by
// every insert and by erasing a lead (erasure.ts, which moves those after it up). A page at any depth is then a seek on
// (chatbot_id, position), where OFFSET would walk every row before it while all requests wait.
export function sqliteLeads(db: Database, count: ActivityCount): LeadRepository {
  const erasure = sqliteErasure(db);
  type Params = ReturnType<typeof toParams>;
  const rankBefore = db
    .prepare<[Params], number>(
      `SELECT position FROM leads WHERE chatbot_id = @chatbotId AND (created_at, id) < (@createdAt, @id)
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .pluck();
  // New leads are the newest, so this moves no row; only one dated earlier moves those after it.
  const makeRoom = db.prepare<[Params]>(
    `UPDATE leads SET position = position + 1
     WHERE chatbot_id = @chatbotId AND (created_at, id) > (@createdAt, @id)`,
  );
  const insertRow = db.prepare<[Params & { position: number }], LeadRow>(
    `INSERT INTO leads (id, chatbot_id, account_id, name, email, phone, conversation_id, created_at, position)
     VALUES (@id, @chatbotId, @accountId, @name, @email, @phone, @conversationId, @createdAt, @position)
     RETURNING *`,
  );
  // A correction: only when a given field differs from the stored one, so an unchanged
  // re-submission neither raises the revision nor announces the lead again.
  const correct = db.prepare<[Params], LeadRow>(
    `UPDATE leads SET
       name = COALESCE(@name, name), email = COALESCE(@email, email), phone = COALESCE(@phone, phone),
       revision = revision + 1, webhook_pending = 1
     WHERE chatbot_id = @chatbotId AND conversation_id = @conversationId
       AND ((@name IS NOT NULL AND @name IS NOT name) OR (@email IS NOT NULL AND @email IS NOT email)
         OR (@phone IS NOT NULL AND @phone IS NOT phone))
     RETURNING *`,
  );
  const newest = db
    .prepare<[Bounds], number>(
      `SELECT position FROM leads WHERE chatbot_id = @chatbotId AND created_at BETWEEN @from AND @to
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .pluck();
  const oldest = db
    .prepare<[Bounds], number>(
      `SELECT position FROM leads WHERE chatbot_id = @chatbotId AND created_at BETWEEN @from AND @to
       ORDER BY created_at, id LIMIT 1`,
    )
    .pluck();
  const onePage = db.prepare<[PageParams], LeadRow>(LIST_LEADS_SQL);
  const ofConversation = leadOfConversation(db);
  const ofConversations = leadsOfConversations(db);
  const byId = leadById(db);

  const insertRanked = (params: Params): LeadRow => {
    const position = (rankBefore.get(params) ?? 0) + 1;
    makeRoom.run(params);
    const row = insertRow.get({ ...params, position });
    if (!row) throw new Error('insert returned no row');
    count(params.chatbotId, params.createdAt, { leads: 1 });
    return row;
  };
  // IMMEDIATE: the write lock is held from the first read, so ranks and the conversation's one
  // lead are decided with no other writer in between.
  const insert = db.transaction(insertRanked);
  const corrected = (params: Params & { conversationId: string }) => correct.get(params) ?? ofConversation.get(params.chatbotId, params.conversationId);
  const upsert = db.transaction((params: Params & { conversationId: string }) => corrected(params) ?? insertRanked(params));
  const correctOnly = db.transaction(corrected);

  return {
    async insert(lead) {
      translateUnique(() => insert.immediate(toParams(lead)));
    },
    async upsertForConversation(lead) {
      return toLead(upsert.immediate({ ...toParams(lead), conversationId: lead.conversationId }));
    },
    async correctForConversation(lead) {
      const row = correctOnly.immediate({ ...toParams(lead), conversationId: lead.conversationId });
      return row && toLead(row);
    },
    async list(chatbotId, range, page) {
      const bounds = { chatbotId, ...timeBounds(range) };
      const [highest, lowest] = [newest.get(bounds), oldest.get(bounds)];
      if (highest === undefined || lowest === undefined) return [];
      return onePage.all({ chatbotId, lowest, highest: highest - pageOffset(page), limit: page.size }).map(toLead);
    },
    async findForConversation(chatbotId, conversationId) {
      const row = ofConversation.get(chatbotId, conversationId);
      return row && toLead(row);
    },
    async findForConversations(chatbotId, conversationIds) {
      return ofConversations.all({ chatbotId, conversationIds: JSON.stringify(conversationIds) }).map(toLead);
    },
    async find(chatbotId, id) {
      const row = byId.get({ chatbotId, id });
      return row && toLead(row);
    },
    async delete(chatbotId, id) {
      return erasure.lead(chatbotId, id);
    },
  };
}
