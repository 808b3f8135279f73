import { nanoid } from 'nanoid';
import type { Account, Quota, Store } from '../store/port.js';
import { UniqueViolation } from '../store/errors.js';
import { apiKeyRecord, createApiKey, hashApiKey } from './api-keys.js';
import { conflict, HubError, unauthorized } from './errors.js';

const DEFAULT_ACCOUNT_NAME = 'default';

export type NewAccount = { account: Account; apiKey: string };

/** Creates an account with its first API key. The key is in the answer and nowhere else. */
export async function createAccount(store: Store, name: string, quota: Quota): Promise<NewAccount> {
  const account: Account = { id: nanoid(), name, quota, createdAt: new Date() };
  try {
    await store.accounts.create(account);
  } catch (error) {
    if (error instanceof UniqueViolation) throw new HubError('conflict', `account ${name} exists`);
    throw error;
  }
  return { account, apiKey: (await createApiKey(store, account)).apiKey };
}

/**
 * Deletes the account and everything it holds, for good: first the account, its keys, console
 * sessions and webhooks (so no key or session of it works from then on; a hub that checked a key
 * within the last second still lets it through), then each chatbot as delete-chatbot deletes it,
 * with its sources, conversations, contacts and leads.
 */
export async function deleteAccount(store: Store, account: Account): Promise<void> {
  await store.accounts.delete(account.id);
  // SQLite's cascade took the chatbots along already; listed afterwards, one made meanwhile goes too.
  for (const chatbot of await store.chatbots.list(account.id)) await store.chatbots.delete(account.id, chatbot.id);
}

/** The month usage is counted by, e.g. `2026-11` (UTC). */
export const usagePeriod = (at: Date) => at.toISOString().slice(0, 7);

/** The messages the account used this month, against its quota. */
export async function accountUsage(
  store: Store,
  account: Account,
  now = new Date(),
): Promise<{ period: string; messages: number }> {
  const period = usagePeriod(now);
  return { period, messages: await store.usage.messagesUsed(account.id, period) };
}

/** Finds the account holding the key whose hash is given (see hashApiKey). */
export async function authenticate(store: Store, apiKeyHash: string): Promise<Account> {
  const account = await store.accounts.findByKeyHash(apiKeyHash);
  if (!account) throw unauthorized('unknown API key');
  return account;
}

export type DefaultAccount = {
  /** The key of a newly created account (to be printed once), if one was created. */
  firstApiKey?: string;
  /** BOOTSTRAP_API_KEY names a key the hub provisioned before and that is gone since: not added again. */
  bootstrapKeyRevoked?: true;
};

/**
 * Makes sure the `default` account exists and, when a bootstrap key is configured, holds it,
 * unless that key was provisioned before and revoked since (it would come back at every start).
 */
export async function ensureDefaultAccount(
  store: Store,
  quota: Quota,
  bootstrapApiKey: string | undefined,
): Promise<DefaultAccount> {
  if (bootstrapApiKey) return (await provisionBootstrapKey(store, quota, bootstrapApiKey)) ? {} : { bootstrapKeyRevoked: true };
  if ((await store.accounts.count()) > 0) return {};
  return { firstApiKey: (await createAccount(store, DEFAULT_ACCOUNT_NAME, quota)).apiKey };
}

/** Gives the `default` account the key; false, doing nothing, when it was provisioned and revoked before. */
async function provisionBootstrapKey(store: Store, quota: Quota, apiKey: string): Promise<boolean> {
  const hash = hashApiKey(apiKey);
  // Asked before the key is looked for: it is recorded only once the key is stored, so a hub
  // starting beside one that is provisioning it never takes it for revoked.
  const provisioned = await store.accounts.wasProvisioned(hash);
  const holder = await store.accounts.findByKeyHash(hash);
  if (provisioned && !holder) return false;
  const account = await findOrCreateDefault(store, quota);
  if (holder && holder.id !== account.id) {
    throw conflict(`BOOTSTRAP_API_KEY already belongs to the account ${holder.name}`);
  }
  if (!holder) await addKey(store, account.id, apiKey);
  // Also for a key held already: provisioned before the hub kept this record.
  await store.accounts.recordProvisioned(hash);
  return true;
}

async function findOrCreateDefault(store: Store, quota: Quota): Promise<Account> {
  const existing = await store.accounts.findByName(DEFAULT_ACCOUNT_NAME);
  if (existing) return existing;
  const account: Account = { id: nanoid(), name: DEFAULT_ACCOUNT_NAME, quota, createdAt: new Date() };
  try {
    await store.accounts.create(account);
    return account;
  } catch (error) {
    // Another instance starting at the same moment created it first.
    const created = await store.accounts.findByName(DEFAULT_ACCOUNT_NAME);
    if (error instanceof UniqueViolation && created) return created;
    throw error;
  }
}

async function addKey(store: Store, accountId: string, apiKey: string): Promise<void> {
  try {
    await store.accounts.addKey(apiKeyRecord(apiKey, accountId));
  } catch (error) {
    // Another instance starting at the same moment stored it first.
    if (!(error instanceof UniqueViolation)) throw error;
  }
}
