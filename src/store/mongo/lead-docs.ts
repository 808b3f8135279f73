import type { Lead } from '../port.js';
import type { LeadDoc } from './models.js';

// A lead as its document, read by the leads and by erasure alike.

export const toLead = (doc: LeadDoc): Lead => ({
  id: doc._id,
  chatbotId: doc.chatbotId,
  accountId: doc.accountId,
  name: doc.name,
  email: doc.email,
  phone: doc.phone,
  conversationId: doc.conversationId,
  createdAt: doc.createdAt,
});
