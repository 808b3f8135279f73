import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { createAccount, issueApiKey } from '../domain/accounts.js';
import { HubError } from '../domain/errors.js';
import { openStore } from '../store/index.js';
import type { Quota, Store } from '../store/port.js';

// `npm run admin -- <command> …`: account administration against the configured DATABASE_URL.
// Commands that create a key print it alone on the last line of stdout, for scripts.

const USAGE = `Usage: npm run admin -- <command>

  create-account NAME [--messages-per-month N] [--max-chatbots N]
                       creates an account and prints its API key on the last line
  create-key NAME      issues another API key for the account NAME
  set-quota NAME [--messages-per-month N] [--max-chatbots N]
  list-accounts`;

const quotaNumber = z.coerce.number().int().positive();

type Command = (store: Store, args: string[], quota: Partial<Quota>) => Promise<void>;

const commands: Record<string, Command> = {
  async 'create-account'(store, [name], quota) {
    const defaults = loadConfig().defaultQuota;
    const { account, apiKey } = await createAccount(store, requireName(name), { ...defaults, ...quota });
    console.log(`Created account ${account.name} (${describeQuota(account.quota)}). Its API key, shown once:`);
    console.log(apiKey);
  },
  async 'create-key'(store, [name]) {
    const account = await findAccount(store, requireName(name));
    console.log(`New API key for ${account.name}, shown once:`);
    console.log(await issueApiKey(store, account.id));
  },
  async 'set-quota'(store, [name], quota) {
    const account = await findAccount(store, requireName(name));
    const updated = await store.accounts.setQuota(account.id, quota);
    console.log(`${account.name}: ${describeQuota(updated?.quota ?? account.quota)}`);
  },
  async 'list-accounts'(store) {
    for (const account of await store.accounts.list()) {
      console.log(`${account.name}\t${describeQuota(account.quota)}\tcreated ${account.createdAt.toISOString()}`);
    }
  },
};

function requireName(name: string | undefined): string {
  if (!name?.trim()) throw new UsageError('an account NAME is required');
  return name.trim();
}

async function findAccount(store: Store, name: string) {
  const account = await store.accounts.findByName(name);
  if (!account) throw new UsageError(`no account named ${name}`);
  return account;
}

const describeQuota = (quota: Quota) =>
  `${quota.messagesPerMonth} messages a month, up to ${quota.maxChatbots} chatbots`;

class UsageError extends Error {}

function parseQuota(values: { 'messages-per-month'?: string; 'max-chatbots'?: string }): Partial<Quota> {
  const quota: Partial<Quota> = {};
  for (const [flag, key] of [['messages-per-month', 'messagesPerMonth'], ['max-chatbots', 'maxChatbots']] as const) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const parsed = quotaNumber.safeParse(raw);
    if (!parsed.success) throw new UsageError(`--${flag} takes a positive whole number, not ${raw}`);
    quota[key] = parsed.data;
  }
  return quota;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'messages-per-month': { type: 'string' },
      'max-chatbots': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [name, ...args] = positionals;
  const command = name ? commands[name] : undefined;
  if (values.help || !command) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const quota = parseQuota(values);
  const store = await openStore(loadConfig().databaseUrl);
  try {
    await command(store, args, quota);
    return 0;
  } finally {
    await store.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const known = error instanceof UsageError || error instanceof HubError || isArgumentError(error);
  console.error(known ? `admin: ${describeError(error)}` : error);
  process.exitCode = known ? 2 : 1;
}

/** node:util parseArgs rejects unknown options with codes ERR_PARSE_ARGS_*. */
function isArgumentError(error: unknown): boolean {
  return String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS');
}

function describeError(error: unknown): string {
  if (error instanceof HubError && error.kind === 'conflict') return 'an account with that name exists';
  return (error as Error).message;
}
