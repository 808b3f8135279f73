import { nanoid } from 'nanoid';
import type { Account, Chatbot, ChatbotSummary, Store } from '../store/port.js';
import { accessDenied, notFound } from './errors.js';
import { defaultSettings, type SettingsPatch } from '../settings/chatbot-settings.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { handBackAll } from './handoff.js';
import { DEFAULT_SOURCE_LIMITS, replaceApiText, type SourceLimits } from './sources.js';

export async function createChatbot(
  store: Store,
  account: Account,
  input: { name: string; sourceText?: string },
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
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
  try {
    return await train(store, chatbot, input.sourceText ?? '', limits);
  } catch (error) {
    // A source text refused (over the character limit) leaves no chatbot behind.
    await store.chatbots.delete(account.id, chatbot.id);
    throw error;
  }
}

/**
 * Renames and, when new source text is given, retrains a chatbot: the text replaces its `API
 * text` source, and its other sources stay.
 */
export async function updateChatbotData(
  store: Store,
  account: Account,
  input: { chatbotId: string; name: string; sourceText?: string },
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<Chatbot> {
  const chatbot = await findOwnedChatbot(store, account, input.chatbotId);
  if (input.sourceText === undefined) return updateChatbotSettings(store, account, chatbot.id, { name: input.name, settings: {} });
  return train(store, { ...chatbot, name: input.name }, input.sourceText, limits);
}

async function train(store: Store, chatbot: Chatbot, sourceText: string, limits: SourceLimits): Promise<Chatbot> {
  await replaceApiText(store, chatbot.id, sourceText, limits);
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
  // Handoff turned off: nobody is left waiting for a team that no longer takes conversations.
  if (change.settings.handoff && !updated.settings.handoff.enabled) await handBackAll(store, updated);
  return updated;
}

export function listChatbots(store: Store, account: Account): Promise<ChatbotSummary[]> {
  return store.chatbots.list(account.id);
}

export async function deleteChatbot(store: Store, account: Account, chatbotId: string): Promise<void> {
  if (!(await store.chatbots.delete(account.id, chatbotId))) throw notFound(`chatbot ${chatbotId}`);
}
