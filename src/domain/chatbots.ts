import { nanoid } from 'nanoid';
import { chunkOffThread } from '../engine/workers/training-jobs.js';
import type { Account, Chatbot, ChatbotSummary, Store } from '../store/port.js';
import { accessDenied, notFound } from './errors.js';
import { defaultSettings, type SettingsPatch } from '../settings/chatbot-settings.js';

export async function findOwnedChatbot(store: Store, account: Account, chatbotId: string): Promise<Chatbot> {
  const chatbot = await store.chatbots.find(account.id, chatbotId);
  if (!chatbot) throw notFound(`chatbot ${chatbotId}`);
  return chatbot;
}

export async function createChatbot(
  store: Store,
  account: Account,
  input: { name: string; sourceText?: string },
): Promise<Chatbot> {
  const now = new Date();
  const chatbot: Chatbot = {
    id: nanoid(),
    accountId: account.id,
    name: input.name,
    status: 'training',
    settings: defaultSettings(input.name),
    createdAt: now,
    updatedAt: now,
  };
  if (!(await store.chatbots.insertWithinLimit(chatbot, account.quota.maxChatbots))) {
    throw accessDenied(`account ${account.name} holds its maximum of ${account.quota.maxChatbots} chatbots`);
  }
  return train(store, chatbot, input.sourceText ?? '');
}

/** Renames and, when new source text is given, retrains a chatbot. */
export async function updateChatbotData(
  store: Store,
  account: Account,
  input: { chatbotId: string; name: string; sourceText?: string },
): Promise<Chatbot> {
  const chatbot = await findOwnedChatbot(store, account, input.chatbotId);
  if (input.sourceText === undefined) return updateChatbotSettings(store, account, chatbot.id, { name: input.name, settings: {} });
  return train(store, { ...chatbot, name: input.name }, input.sourceText);
}

async function train(store: Store, chatbot: Chatbot, sourceText: string): Promise<Chatbot> {
  // Chunking a large source takes long enough to stall every other request on the event loop.
  await store.training.replace(chatbot.id, { sourceText, chunks: await chunkOffThread(sourceText) });
  const trained = await store.chatbots.update(chatbot.accountId, chatbot.id, {
    name: chatbot.name,
    status: 'ready',
    updatedAt: new Date(),
  });
  if (!trained) throw notFound(`chatbot ${chatbot.id} was deleted while training`);
  return trained;
}

export async function updateChatbotSettings(
  store: Store,
  account: Account,
  chatbotId: string,
  change: { name?: string; settings: SettingsPatch },
): Promise<Chatbot> {
  const updated = await store.chatbots.update(account.id, chatbotId, { ...change, updatedAt: new Date() });
  if (!updated) throw notFound(`chatbot ${chatbotId}`);
  return updated;
}

export function listChatbots(store: Store, account: Account): Promise<ChatbotSummary[]> {
  return store.chatbots.list(account.id);
}

export async function deleteChatbot(store: Store, account: Account, chatbotId: string): Promise<void> {
  if (!(await store.chatbots.delete(account.id, chatbotId))) throw notFound(`chatbot ${chatbotId}`);
}
