import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, consoleUrl, loadConfig } from '../config.js';
import { createAccount, deleteAccount } from '../domain/accounts.js';
import { apiKeyLabel, createApiKey } from '../domain/api-keys.js';
import { CONSOLE_LINK_MS, createConsoleLink } from '../domain/console-sessions.js';
import { HubError } from '../domain/errors.js';
import { startFailure } from '../startup.js';
import { backupSqlite, databaseLocation, openStore } from '../store/index.js';
import type { Quota, Store } from '../store/port.js';

// `npm run admin -- <command> …`: account administration and backups of the configured
// DATABASE_URL. Commands that create a key print it alone on the last line of stdout, for scripts.

const USAGE = `Usage: npm run admin -- <command>

  create-account NAME [--messages-per-month N] [--max-chatbots N]
                       creates an account and prints its API key on the last line
  create-key NAME [--label TEXT]
                       issues another API key for the account NAME
  console-link NAME    prints a one-time console sign-in link for the account NAME,
                       valid for 15 minutes
  set-quota NAME [--messages-per-month N] [--max-chatbots N]
  list-accounts
  delete-account NAME --yes
                       deletes the account NAME for good: its chatbots with their sources,
                       conversations, contacts and leads, its keys, console sessions and webhooks
  backup FILE          copies a SQLite database into the new file FILE while hubs keep
                       running (MongoDB: use mongodump or your provider's backups)`;

const quotaNumber = z.coerce.number().int().positive();

/** A command's options and its database; the store is opened by the commands that use it. */
type Context = {
  quota: Partial<Quota>;
  label: string | undefined;
  /** --yes: a destructive command goes ahead. */
  confirmed: boolean;
  databaseUrl: string;
  store: () => Promise<Store>;
};
type Command = (args: string[], context: Context) => Promise<void>;

const commands: Record<string, Command> = {
  async 'create-account'([name], { quota, store: open }) {
    const defaults = loadConfig().defaultQuota;
    const { account, apiKey } = await createAccount(await open(), requireName(name), { ...defaults, ...quota });
    console.log(`Created account ${account.name} (${describeQuota(account.quota)}). Its API key, shown once:`);
    console.log(apiKey);
  },
  async 'create-key'([name], { label, store: open }) {
    // The label is checked before anything is printed: a script's `tail -n 1` must never take the heading for a key.
    const keyLabel = requireLabel(label);
    const store = await open();
    const account = await findAccount(store, requireName(name));
    const { apiKey } = await createApiKey(store, account, keyLabel);
    console.log(`New API key for ${account.name}, shown once:`);
    console.log(apiKey);
  },
  async 'console-link'([name], { store: open }) {
    const store = await open();
    const account = await findAccount(store, requireName(name));
    const token = await createConsoleLink(store, account);
    // The token rides in the fragment, which browsers never send: it stays out of server logs.
    console.log(`Console sign-in link for ${account.name}, usable once within ${CONSOLE_LINK_MS / 60_000} minutes:`);
    console.log(`${consoleUrl(loadConfig())}/link#${token}`);
  },
  async 'set-quota'([name], { quota, store: open }) {
    const store = await open();
    const account = await findAccount(store, requireName(name));
    const updated = await store.accounts.setQuota(account.id, quota);
    console.log(`${account.name}: ${describeQuota(updated?.quota ?? account.quota)}`);
  },
  async 'list-accounts'(_args, { store: open }) {
    for (const account of await (await open()).accounts.list()) {
      console.log(`${account.name}\t${describeQuota(account.quota)}\tcreated ${account.createdAt.toISOString()}`);
    }
  },
  async 'delete-account'([name], { confirmed, store: open }) {
    const store = await open();
    const account = await findAccount(store, requireName(name));
    const chatbots = (await store.chatbots.list(account.id)).length;
    const owned = `${counted(chatbots, 'chatbot')} with ${chatbots === 1 ? 'its' : 'their'}`;
    const what = `${account.name}'s ${owned} sources, conversations, contacts and leads, and its keys, console sessions and webhooks`;
    if (!confirmed) throw new UsageError(`delete-account deletes ${what}, for good; add --yes to go ahead`);
    await deleteAccount(store, account);
    console.log(`Deleted ${what}.`);
  },
  // Reads the database file itself, not the store: opening the store would create a database
  // that is missing (a mistyped DATABASE_URL) and migrate one that a running hub uses.
  async backup([file], { databaseUrl }) {
    const location = databaseLocation(databaseUrl);
    if (location.engine === 'mongodb') throw new UsageError(MONGODB_BACKUPS);
    if (location.filename === ':memory:') throw new UsageError('sqlite::memory: lives only as long as its process: there is nothing to back up');
    if (!existsSync(location.filename)) throw new UsageError(`there is no database at ${location.filename}; is DATABASE_URL the hub's?`);
    const destination = requireNewFile(file);
    const started = performance.now();
    const { bytes, restarts } = await backupSqlite(location.filename, destination).catch((error: unknown) => {
      throw (error as { code?: unknown }).code === 'EEXIST' ? backupExists(destination) : error;
    });
    const took = describeDuration(performance.now() - started);
    const writes = restarts > 0 ? ` (started over ${restarts === 1 ? 'once' : `${restarts} times`} as hubs wrote)` : '';
    console.log(`Backed up ${resolve(location.filename)} to ${destination}: ${describeBytes(bytes)} in ${took}${writes}, checked whole.`);
  },
};

// A dump without --oplog copies one collection after another, so a write made meanwhile can be in some and not others.
const MONGODB_BACKUPS =
  "backup copies SQLite databases. For MongoDB, use your provider's backups (MongoDB Atlas: cloud backups with " +
  'point-in-time restore) or, on your own replica set, mongodump --oplog --gzip --archive=FILE with --uri naming ' +
  'the whole set (no database), restored with mongorestore --oplogReplay: see Backups in the README.';

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

/** A file that does not exist yet, in a directory that does. */
function requireNewFile(file: string | undefined): string {
  if (!file?.trim()) throw new UsageError('a backup FILE is required');
  const destination = resolve(file);
  if (!statSync(dirname(destination), { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`the directory ${dirname(destination)} does not exist`);
  }
  if (existsSync(destination)) throw backupExists(destination);
  return destination;
}

const backupExists = (destination: string) => new UsageError(`${destination} exists; choose a new file`);

async function findAccount(store: Store, name: string) {
  const account = await store.accounts.findByName(name);
  if (!account) throw new UsageError(`no account named ${name}`);
  return account;
}

const describeQuota = (quota: Quota) =>
  `${counted(quota.messagesPerMonth, 'message')} a month, up to ${counted(quota.maxChatbots, 'chatbot')}`;

/** A count with its noun, singular for one: `1 chatbot`, `3 chatbots`. */
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const describeBytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const describeDuration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

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
      yes: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [name, ...args] = positionals;
  const command = name ? commands[name] : undefined;
  if (values.help || !command) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const { databaseUrl } = loadConfig();
  let store: Promise<Store> | undefined;
  const context = {
    quota: parseQuota(values),
    label: values.label,
    confirmed: values.yes ?? false,
    databaseUrl,
    store: () => (store ??= openStore(databaseUrl)),
  };
  try {
    await command(args, context);
    return 0;
  } finally {
    await (await store)?.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const known = error instanceof UsageError || error instanceof HubError || error instanceof ConfigError || isArgumentError(error);
  // A database that cannot be opened or reached is said as the hub says it; a fault keeps its stack.
  console.error(`admin: ${known ? describeError(error) : startFailure(error)}`);
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
