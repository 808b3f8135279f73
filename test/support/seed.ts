import { randomUUID } from 'node:crypto';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import type { Account, Chatbot, Store } from '../../src/store/port.js';

// Stored owners for store-level tests of what belongs to a chatbot (contacts, leads, conversations).

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
