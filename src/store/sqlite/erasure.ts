import type { Database } from 'better-sqlite3';
import type { Lead } from '../port.js';
import { leadById, leadOfConversation, toLead, type LeadRow } from './lead-rows.js';

// Erasing one person's conversation or lead (ConversationRepository.delete, LeadRepository.delete),
// each in one transaction. Messages, the handoff and its notices go with the conversation's row
// (their foreign keys cascade), a delivery's attempts with the delivery.

type Scope = { chatbotId: string; id: string };

export type Erasure = {
  conversation(chatbotId: string, id: string): boolean;
  lead(chatbotId: string, id: string): Lead | undefined;
};

export function sqliteErasure(db: Database): Erasure {
  const byId = leadById(db);
  const ofConversation = leadOfConversation(db);
  const deleteLeadRow = db.prepare<[Scope]>('DELETE FROM leads WHERE chatbot_id = @chatbotId AND id = @id');
  // Keeps `position` a lead's exact rank (leads.ts): those after the deleted lead move up one.
  const closeGap = db.prepare<[{ chatbotId: string; createdAt: number; id: string }]>(
    `UPDATE leads SET position = position - 1
     WHERE chatbot_id = @chatbotId AND (created_at, id) > (@createdAt, @id)`,
  );
  const leadDeliveries = db.prepare<[Scope]>(
    `DELETE FROM webhook_deliveries
     WHERE chatbot_id = @chatbotId AND event_type = 'leads.submit' AND json_extract(body, '$.payload.leadId') = @id`,
  );
  // Handoff events and leads.submit name the conversation in their payload; unanswered.created
  // in the ask that opened the group.
  const conversationDeliveries = db.prepare<[Scope]>(
    `DELETE FROM webhook_deliveries
     WHERE chatbot_id = @chatbotId AND event_type <> 'ping'
       AND (json_extract(body, '$.payload.conversationId') = @id OR json_extract(body, '$.payload.example.conversationId') = @id)`,
  );
  const groupsOpened = db.prepare<[Scope]>(
    `DELETE FROM unanswered_groups WHERE chatbot_id = @chatbotId AND json_extract(opening, '$.conversationId') = @id`,
  );
  const asksElsewhere = db.prepare<[Scope]>(
    `UPDATE unanswered_groups SET examples = (
       SELECT json_group_array(json(value) ORDER BY key) FROM json_each(examples)
       WHERE json_extract(value, '$.conversationId') IS NOT @id)
     WHERE chatbot_id = @chatbotId
       AND EXISTS (SELECT 1 FROM json_each(examples) WHERE json_extract(value, '$.conversationId') = @id)`,
  );
  const deleteConversationRow = db.prepare<[Scope]>('DELETE FROM conversations WHERE chatbot_id = @chatbotId AND id = @id');

  const eraseLead = (row: LeadRow): Lead => {
    leadDeliveries.run({ chatbotId: row.chatbot_id, id: row.id });
    deleteLeadRow.run({ chatbotId: row.chatbot_id, id: row.id });
    closeGap.run({ chatbotId: row.chatbot_id, createdAt: row.created_at, id: row.id });
    return toLead(row);
  };

  const lead = db.transaction((scope: Scope) => {
    const row = byId.get(scope);
    return row && eraseLead(row);
  });
  const conversation = db.transaction((scope: Scope) => {
    if (deleteConversationRow.run(scope).changes === 0) return false;
    const row = ofConversation.get(scope.chatbotId, scope.id);
    if (row) eraseLead(row);
    conversationDeliveries.run(scope);
    groupsOpened.run(scope);
    asksElsewhere.run(scope);
    return true;
  });

  return {
    conversation: (chatbotId, id) => conversation.immediate({ chatbotId, id }),
    lead: (chatbotId, id) => lead.immediate({ chatbotId, id }),
  };
}
