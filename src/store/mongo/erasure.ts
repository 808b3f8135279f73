import type { QueryFilter } from 'mongoose';
import type { Lead } from '../port.js';
import type { AtomicWrites } from './atomic.js';
import { toLead } from './lead-docs.js';
import { conversationDocumentId, type LeadDoc, type MongoModels, type WebhookDeliveryDoc } from './models.js';
import { pageBlocks } from './page-blocks.js';

// Erasing one person's conversation or lead (ConversationRepository.delete, LeadRepository.delete).
// A deployment with transactions writes each erasure in one; without, what names the record goes
// last, so a call cut short is finished by calling it again.

export type Erasure = {
  conversation(chatbotId: string, id: string): Promise<boolean>;
  lead(chatbotId: string, id: string): Promise<Lead | undefined>;
};

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Deliveries are found by their event keys (domain/webhook-events.ts), as the port documents them:
// the body is a string the store does not read.
const leadEvents = (leadId: string) => new RegExp(`^leads\\.submit:${literally(leadId)}(:\\d+)?$`);
const handoffEvents = (chatbotId: string, conversationId: string) =>
  new RegExp(`^handoff\\.(requested|resolved):${literally(chatbotId)}:${literally(conversationId)}:\\d+$`);
const groupEvents = (groupIds: string[]) => ({ $in: groupIds.map((id) => `unanswered.created:${id}`) });

export function mongoErasure(models: MongoModels, { atomic, repairable }: AtomicWrites): Erasure {
  const { conversations, conversationMessages, handoffNotices, leads, unansweredGroups, webhookDeliveries, webhookAttempts } = models;
  const leadBlocks = pageBlocks(models, 'leads');

  /** The chatbot's deliveries the filter names, with their attempts (first, as the prune does). */
  async function deleteDeliveries(chatbotId: string, eventKeys: QueryFilter<WebhookDeliveryDoc>[]): Promise<void> {
    const found = await webhookDeliveries.find({ chatbotId, $or: eventKeys }, { _id: 1 }).lean<{ _id: string }[]>();
    const ids = found.map(({ _id }) => _id);
    if (ids.length === 0) return;
    await webhookAttempts.deleteMany({ deliveryId: { $in: ids } });
    await webhookDeliveries.deleteMany({ _id: { $in: ids } });
  }

  async function eraseLead(doc: LeadDoc): Promise<Lead> {
    await deleteDeliveries(doc.chatbotId, [{ eventKey: leadEvents(doc._id) }]);
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
      return atomic(async () => {
        if (!(await conversations.exists({ _id, chatbotId }))) return false;
        const lead = await leads.findOne({ chatbotId, conversationId: id }).lean<LeadDoc>();
        if (lead) await eraseLead(lead);
        const opened = await unansweredGroups.find({ chatbotId, 'opening.conversationId': id }, { _id: 1 }).lean<{ _id: string }[]>();
        const groupIds = opened.map(({ _id: groupId }) => groupId);
        await deleteDeliveries(chatbotId, [{ eventKey: handoffEvents(chatbotId, id) }, { eventKey: groupEvents(groupIds) }]);
        await unansweredGroups.deleteMany({ _id: { $in: groupIds }, chatbotId });
        await unansweredGroups.updateMany({ chatbotId, 'examples.conversationId': id }, { $pull: { examples: { conversationId: id } } });
        await handoffNotices.deleteMany({ chatbotId, conversationId: id });
        await conversationMessages.deleteMany({ chatbotId, conversationId: id });
        // With it go its handoff and the notices not yet in the feed, which its document holds.
        const { deletedCount } = await conversations.deleteOne({ _id, chatbotId });
        return deletedCount === 1;
      });
    },
  };
}
