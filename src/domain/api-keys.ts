import { hash, randomBytes } from 'node:crypto';
import { nanoid } from 'nanoid';
import { z } from 'zod';
import type { Account, ApiKeyRecord, Store } from '../store/port.js';
import { accessDenied, notFound } from './errors.js';

// API keys are shown once and stored only as a hash, so a leaked database leaks no usable key.
// A key's id, label and first characters let its owner tell keys apart and revoke one.

const KEY_PREFIX = 'sb_';
/** `sb_` and four characters: enough to tell an account's keys apart, far too few to guess one. */
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 4;
export const DEFAULT_KEY_LABEL = 'Default';

/** What an owner calls a key ("CI", "Slack bot"). */
export const apiKeyLabel = z.string().trim().min(1).max(100);

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

/**
 * SHA-256, hex, of a key or another random secret (console session and link tokens). Hashed on
 * every authenticated request: the one-shot hash costs a third of a Hash object.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export const hashApiKey = hashSecret;

/** The stored record of a new key: its hash, never the key. */
export function apiKeyRecord(apiKey: string, accountId: string, label = DEFAULT_KEY_LABEL): ApiKeyRecord {
  return {
    hash: hashApiKey(apiKey),
    id: nanoid(),
    accountId,
    label,
    prefix: apiKey.slice(0, SHOWN_PREFIX_LENGTH),
    createdAt: new Date(),
  };
}

/** Issues a key to the account; the key is in the answer and nowhere else. */
export async function createApiKey(
  store: Store,
  account: Account,
  label: string = DEFAULT_KEY_LABEL,
): Promise<{ record: ApiKeyRecord; apiKey: string }> {
  const apiKey = generateApiKey();
  const record = apiKeyRecord(apiKey, account.id, label);
  await store.accounts.addKey(record);
  return { record, apiKey };
}

export function listApiKeys(store: Store, account: Account): Promise<ApiKeyRecord[]> {
  return store.accounts.listKeys(account.id);
}

/**
 * Revokes one of the account's keys and ends the console sessions signed in with it. An account's
 * last key may be revoked only by a caller who does not depend on a key (a console session signed
 * in with a one-time link): anyone else would lock the account out. `callerKeyHash` is the hash of
 * the key the caller used, directly or through a session; undefined for a link session.
 */
export async function revokeApiKey(
  store: Store,
  account: Account,
  id: string,
  callerKeyHash: string | undefined,
): Promise<ApiKeyRecord> {
  const revoked = await store.accounts.revokeKey(account.id, id, callerKeyHash !== undefined);
  if (revoked === undefined) throw notFound(`account ${account.id} has no key ${id}`);
  if (revoked === 'last') throw accessDenied(`key ${id} is the last key of account ${account.id}`);
  await store.consoleSessions.endSignedInWith(revoked.hash);
  return revoked;
}
