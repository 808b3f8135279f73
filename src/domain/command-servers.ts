import type { Account, Store } from '../store/port.js';

// Where a Discord application's /chatbot may be registered per server, as its adapter records it,
// so that a start looks for one left over only in those servers (see adapters/discord/registration.ts).

export type CommandServers = { applicationId: string; serverIds: string[] | null };

/** The servers recorded for the account's application; null before the first record. */
export async function findCommandServers(store: Store, account: Account, applicationId: string): Promise<CommandServers> {
  return { applicationId, serverIds: (await store.commandServers.find(account.id, applicationId)) ?? null };
}

/** Records the servers, in place of those recorded before; each once. */
export async function saveCommandServers(store: Store, account: Account, applicationId: string, serverIds: string[]): Promise<CommandServers> {
  const unique = [...new Set(serverIds)];
  await store.commandServers.save(account.id, applicationId, unique, new Date());
  return { applicationId, serverIds: unique };
}
