import type { Lead } from '../port.js';
import type { AtomicWrites } from './atomic.js';
import { forgetConversationAsks } from './conversation-asks.js';
import { deleteEventDeliveries } from './delivery-removal.js';
import { toLead } from './lead-docs.js';
import { conversationDocumentId, type LeadDoc, type MongoModels } from './models.js';
import { pageBlocks } from './page-blocks.js';

// Erasing one person's conversation or lead (ConversationRepository.delete, LeadRepository.delete).
// A deployment with transactions writes each erasure in one; without, what names the record goes
// last, so a call cut short is finished by calling it again.

export type Erasure = {
  conversation(chatbotId: string, id: string): Promise<boolean>;
  lead(chatbotId: string, id: string): Promise<Lead | undefined>;
};

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const leadEvents = (leadId: string) => new RegExp(`^leads\\.submit:${literally(leadId)}(:\\d+)?$`);
const handoffEvents = (chatbotId: string, conversationId: string) =>
  new RegExp(`^handoff\\.(requested|resolved):${literally(chatbotId)}:${literally(conversationId)}:\\d+(@[0-9a-f]+)?$`);

export function mongoErasure(models: MongoModels, { atomic, repairable }: AtomicWrites): Erasure {
  const { conversations, conversationMessages, handoffNotices, leads } = models;
  const leadBlocks = pageBlocks(models, 'leads');

  async function eraseLead(doc: LeadDoc): Promise<Lead> {
    await deleteEventDeliveries(models, doc.chatbotId, [{ eventKey: leadEvents(doc._id) }]);
    const { deletedCount } = await leads.deleteOne({ _id: doc._id, chatbotId: doc.chatbotId });
    if (deletedCount === 1) await repairable(() => leadBlocks.removed(doc.chatbotId, { createdAt: doc.createdAt, id: doc._id }));
    return toLead(doc);
  }

  return {
    async lead(chatbotId, id) {
      return atomic(async () => {
        const doc = await leads.findOne({ _id: id, chatbotId }).lean<LeadDoc>();
        return doc ? eraseLead(doc) : undefined;
      });
    },
    async conversation(chatbotId, id) {
      const _id = conversationDocumentId(chatbotId, id);
      const erased = await atomic(async () => {
        if (!(await conversations.exists({ _id, chatbotId }))) return false;
        const lead = await leads.findOne({ chatbotId, conversationId: id }).lean<LeadDoc>();
        if (lead) await eraseLead(lead);
        await forgetConversationAsks(models, chatbotId, id);
        await deleteEventDeliveries(models, chatbotId, [{ eventKey: handoffEvents(chatbotId, id) }]);
        await handoffNotices.deleteMany({ chatbotId, conversationId: id });
        await conversationMessages.deleteMany({ chatbotId, conversationId: id });
        // With it go its handoff and the notices not yet in the feed, which its document holds.
        const { deletedCount } = await conversations.deleteOne({ _id, chatbotId });
        return deletedCount === 1;
      });
      // Once it is gone (committed), again: an ask of it written while it was being erased is taken
      // out here, or, written after this, by the record itself (unanswered.ts).
      if (erased) await forgetConversationAsks(models, chatbotId, id);
      return erased;
    },
  };
}
