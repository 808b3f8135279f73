import type { Account, Chatbot, Store } from '../store/port.js';
import { notFound } from './errors.js';

/** The account's chatbot; another account's, like one that does not exist, is not found. */
export async function findOwnedChatbot(store: Store, account: Account, chatbotId: string): Promise<Chatbot> {
  const chatbot = await store.chatbots.find(account.id, chatbotId);
  if (!chatbot) throw notFound(`chatbot ${chatbotId}`);
  return chatbot;
}
