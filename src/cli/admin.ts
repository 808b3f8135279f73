import { parseArgs } from 'node:util';
import { z } from 'zod';
import { consoleUrl, loadConfig } from '../config.js';
import { createAccount } from '../domain/accounts.js';
import { apiKeyLabel, createApiKey } from '../domain/api-keys.js';
import { CONSOLE_LINK_MS, createConsoleLink } from '../domain/console-sessions.js';
import { HubError } from '../domain/errors.js';
import { openStore } from '../store/index.js';
import type { Quota, Store } from '../store/port.js';

// `npm run admin -- <command> …`: account administration against the configured DATABASE_URL.
// Commands that create a key print it alone on the last line of stdout, for scripts.

const USAGE = `Usage: npm run admin -- <command>

  create-account NAME [--messages-per-month N] [--max-chatbots N]
                       creates an account and prints its API key on the last line
  create-key NAME [--label TEXT]
                       issues another API key for the account NAME
  console-link NAME    prints a one-time console sign-in link for the account NAME,
                       valid for 15 minutes
  set-quota NAME [--messages-per-month N] [--max-chatbots N]
  list-accounts`;

const quotaNumber = z.coerce.number().int().positive();

type Options = { quota: Partial<Quota>; label: string | undefined };
type Command = (store: Store, args: string[], options: Options) => Promise<void>;

const commands: Record<string, Command> = {
  async 'create-account'(store, [name], { quota }) {
    const defaults = loadConfig().defaultQuota;
    const { account, apiKey } = await createAccount(store, requireName(name), { ...defaults, ...quota });
    console.log(`Created account ${account.name} (${describeQuota(account.quota)}). Its API key, shown once:`);
    console.log(apiKey);
  },
  async 'create-key'(store, [name], { label }) {
    const account = await findAccount(store, requireName(name));
    console.log(`New API key for ${account.name}, shown once:`);
    console.log((await createApiKey(store, account, requireLabel(label))).apiKey);
  },
  async 'console-link'(store, [name]) {
    const account = await findAccount(store, requireName(name));
    const token = await createConsoleLink(store, account);
    // The token rides in the fragment, which browsers never send: it stays out of server logs.
    console.log(`Console sign-in link for ${account.name}, usable once within ${CONSOLE_LINK_MS / 60_000} minutes:`);
    console.log(`${consoleUrl(loadConfig())}/link#${token}`);
  },
  async 'set-quota'(store, [name], { quota }) {
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

function requireLabel(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const parsed = apiKeyLabel.safeParse(label);
  if (!parsed.success) throw new UsageError('--label takes 1 to 100 characters');
  return parsed.data;
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
      label: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [name, ...args] = positionals;
  const command = name ? commands[name] : undefined;
  if (values.help || !command) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const options = { quota: parseQuota(values), label: values.label };
  const store = await openStore(loadConfig().databaseUrl);
  try {
    await command(store, args, options);
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
