import { randomUUID } from 'node:crypto';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import type { Account, Chatbot, ConversationMessage, Store, Webhook, WebhookEvent } from '../../src/store/port.js';

// Stored owners for store-level tests of what belongs to a chatbot (contacts, leads, conversations),
// and a few of those things.

const CREATED = new Date('2026-01-02T03:04:05.678Z');

export async function seedAccount(store: Store): Promise<Account> {
  const account: Account = {
    id: randomUUID(),
    name: `acct-${randomUUID().slice(0, 8)}`,
    quota: { messagesPerMonth: 100, maxChatbots: 10 },
    createdAt: CREATED,
  };
  await store.accounts.create(account);
  return account;
}

export async function seedChatbot(store: Store, account: Account): Promise<Chatbot> {
  const chatbot: Chatbot = {
    id: randomUUID().replace(/-/g, '').slice(0, 21),
    accountId: account.id,
    name: 'Helper',
    status: 'ready',
    settings: defaultSettings('Helper'),
    createdAt: CREATED,
    updatedAt: CREATED,
  };
  if (!(await store.chatbots.insertWithinLimit(chatbot, account.quota.maxChatbots))) {
    throw new Error('seed chatbot over the quota');
  }
  return chatbot;
}

/** A widget conversation begun at `at`: the messages given, else the person asking for a person. */
export function seedConversation(store: Store, chatbot: Chatbot, id: string, at: Date, messages: ConversationMessage[] = []): Promise<void> {
  return store.conversations.append({
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    id,
    source: 'Widget or Iframe',
    contactId: null,
    messages: messages.length > 0 ? messages : [{ role: 'user', content: 'I need a person', createdAt: at }],
    at,
  });
}

/** An enabled webhook of the account, for every chatbot of it, subscribed to `events`. */
export async function seedWebhook(store: Store, accountId: string, events: WebhookEvent[], at: Date): Promise<Webhook> {
  const webhook: Webhook = {
    id: randomUUID(),
    accountId,
    url: 'https://receiver.example.com/hook',
    events,
    chatbotId: null,
    secret: 'whsec_test',
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: at,
    updatedAt: at,
  };
  await store.webhooks.create(webhook);
  return webhook;
}
