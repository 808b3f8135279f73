import type { Account, Store } from '../store/port.js';

// Keys the chat adapters hold once across every instance of an adapter process: the Discord
// message one instance answers, the Slack threads the bot takes part in. The store decides who
// holds a key, so any number of adapter processes can share one hub.

export type ClaimInput = { key: string; ttlSeconds: number };

export type ClaimResult = { key: string; claimed: boolean };

/** Holds `key` for the account for `ttlSeconds` unless it is held already; says whether this call took it. */
export async function claimKey(store: Store, account: Account, input: ClaimInput, now = new Date()): Promise<ClaimResult> {
  const expiresAt = new Date(now.getTime() + input.ttlSeconds * 1_000);
  return { key: input.key, claimed: await store.adapterClaims.claim(account.id, input.key, now, expiresAt) };
}

export async function isKeyHeld(store: Store, account: Account, key: string, now = new Date()): Promise<boolean> {
  return store.adapterClaims.held(account.id, key, now);
}
