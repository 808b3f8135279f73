import { nanoid } from 'nanoid';
import type { Account, Chatbot, Lead, Page, Store, TimeRange } from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { invalidRequest, notFound } from './errors.js';

// Leads: the name, email and phone a chatbot collected from a customer.

/** `null` means not given. With a conversation, the conversation's one lead is created or updated. */
export type LeadInput = {
  name: string | null;
  email: string | null;
  phone: string | null;
  conversationId?: string;
};

/** Records a lead for one of the account's chatbots (integrations and the widget). */
export async function collectLead(store: Store, account: Account, chatbotId: string, input: LeadInput): Promise<Lead> {
  const chatbot = await findOwnedChatbot(store, account, chatbotId);
  return saveLead(store, chatbot, input);
}

/**
 * Records a lead for a chatbot the caller already holds (the chat engine). Without a way to reach
 * the customer a lead is of no use: it needs an email or a phone, but for a name alone given to a
 * conversation whose lead has one already (a visitor adding their name later).
 */
export async function saveLead(store: Store, chatbot: Chatbot, input: LeadInput): Promise<Lead> {
  const reachable = input.email !== null || input.phone !== null;
  const unreachable = invalidRequest('a lead needs an email or a phone');
  if (!reachable && (input.conversationId === undefined || input.name === null)) throw unreachable;
  const lead: Lead = {
    id: nanoid(),
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    name: input.name,
    email: input.email,
    phone: input.phone,
    conversationId: input.conversationId ?? null,
    createdAt: new Date(),
  };
  if (input.conversationId === undefined) {
    await store.leads.insert(lead);
    return lead;
  }
  const ofConversation = { ...lead, conversationId: input.conversationId };
  if (reachable) return store.leads.upsertForConversation(ofConversation);
  const corrected = await store.leads.correctForConversation(ofConversation);
  if (!corrected) throw unreachable;
  return corrected;
}

/** Newest first. */
export async function listLeads(
  store: Store,
  account: Account,
  chatbotId: string,
  range: TimeRange,
  page: Page,
): Promise<Lead[]> {
  await findOwnedChatbot(store, account, chatbotId);
  return store.leads.list(chatbotId, range, page);
}

/** Erases one of the account's leads with the webhook deliveries that carry it; answers it. */
export async function deleteLead(store: Store, account: Account, chatbotId: string, leadId: string): Promise<Lead> {
  await findOwnedChatbot(store, account, chatbotId);
  const lead = await store.leads.delete(chatbotId, leadId);
  if (!lead) throw notFound(`lead ${leadId}`);
  return lead;
}
