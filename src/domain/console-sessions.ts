import { randomBytes } from 'node:crypto';
import type { Account, ConsoleSession, Store } from '../store/port.js';
import { hashSecret } from './api-keys.js';
import { unauthorized } from './errors.js';

// Console sign-ins. The browser holds a random session token in an HttpOnly cookie; the store
// holds only its hash, the account, and the key it was signed in with (so revoking the key ends
// it). A session ends when unused for the idle time, or when signed out.

/** How long a one-time sign-in link (`npm run admin -- console-link`) can be used. */
export const CONSOLE_LINK_MS = 15 * 60_000;
/** A use is written at most this often: reads stay reads, and an idle time of hours loses a minute at most. */
const TOUCH_EVERY_MS = 60_000;

export type SignedIn = { account: Account; session: ConsoleSession; token: string };

const newToken = () => randomBytes(32).toString('base64url');

/** Signs in with an API key; an unknown key is refused like a missing one. */
export async function signInWithKey(store: Store, apiKey: string, idleMs: number, now = new Date()): Promise<SignedIn> {
  const apiKeyHash = hashSecret(apiKey);
  const account = await store.accounts.findByKeyHash(apiKeyHash);
  if (!account) throw unauthorized('console sign-in with an unknown API key');
  return openSession(store, account, apiKeyHash, idleMs, now);
}

/** Signs in with a one-time link's token, using it up. */
export async function signInWithLink(
  store: Store,
  linkToken: string,
  idleMs: number,
  now = new Date(),
): Promise<SignedIn> {
  const accountId = await store.consoleSessions.takeLink(hashSecret(linkToken), now);
  const account = accountId === undefined ? undefined : await store.accounts.findById(accountId);
  if (!account) throw unauthorized('console sign-in with an unknown, used or expired link');
  return openSession(store, account, null, idleMs, now);
}

async function openSession(
  store: Store,
  account: Account,
  apiKeyHash: string | null,
  idleMs: number,
  now: Date,
): Promise<SignedIn> {
  const token = newToken();
  const session: ConsoleSession = {
    tokenHash: hashSecret(token),
    accountId: account.id,
    apiKeyHash,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + idleMs),
  };
  await store.consoleSessions.create(session);
  return { account, session, token };
}

/** The live session of a token and its account, its use recorded (now and then); refused when unknown or idle too long. */
export async function resumeSession(
  store: Store,
  token: string,
  idleMs: number,
  now = new Date(),
): Promise<{ account: Account; session: ConsoleSession }> {
  const session = await store.consoleSessions.find(hashSecret(token), now);
  const account = session && (await store.accounts.findById(session.accountId));
  if (!session || !account) throw unauthorized('unknown or ended console session');
  // Tiny idle times (tests) are still slid on: a tenth of the idle time at most between writes.
  if (now.getTime() - session.lastUsedAt.getTime() >= Math.min(TOUCH_EVERY_MS, idleMs / 10)) {
    await store.consoleSessions.touch(session.tokenHash, now, new Date(now.getTime() + idleMs));
  }
  return { account, session };
}

export async function endSession(store: Store, session: ConsoleSession): Promise<void> {
  await store.consoleSessions.end(session.tokenHash);
}

/** Makes a one-time sign-in link's token for the account, valid for CONSOLE_LINK_MS; only its hash is stored. */
export async function createConsoleLink(store: Store, account: Account, now = new Date()): Promise<string> {
  const token = newToken();
  await store.consoleSessions.addLink({
    tokenHash: hashSecret(token),
    accountId: account.id,
    expiresAt: new Date(now.getTime() + CONSOLE_LINK_MS),
  });
  return token;
}
