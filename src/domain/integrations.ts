import { nanoid } from 'nanoid';
import type {
  Account,
  Binding,
  BindingFilter,
  BindingMode,
  ChannelRef,
  Digest,
  DigestFilter,
  DigestRun,
  Page,
  Store,
} from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { notFound } from './errors.js';

// Hub-side records of the chat-platform integrations: which chatbot answers in which Slack or
// Discord channel (bindings), and which channels get a daily digest of a chatbot's activity.
// One binding per channel and one digest per (chatbot, channel): writing again replaces, so the
// adapters' commands (`/chatbot use …`) are idempotent. The unique indexes of the store decide.

/** `HH:MM` on a 24-hour clock, 00:00 to 23:59, both digits of the hour required. */
export const DIGEST_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/**
 * Whether `name` is a time zone the runtime knows by its IANA name (`UTC` included). Offsets
 * such as `+01:00` are refused: a digest follows its zone's daylight-saving changes.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export type BindingInput = ChannelRef & { chatbotId: string; mode: BindingMode };

export type DigestInput = ChannelRef & {
  chatbotId: string;
  time: string;
  timezone: string;
  postWhenEmpty: boolean;
};

/** Binds a channel (or, with channelId `*`, a workspace) to one of the account's chatbots, replacing its binding. */
export async function bindChannel(store: Store, account: Account, input: BindingInput): Promise<Binding> {
  await findOwnedChatbot(store, account, input.chatbotId);
  const now = new Date();
  return store.bindings.upsert({ ...input, id: nanoid(), accountId: account.id, createdAt: now, updatedAt: now });
}

/** Oldest first. */
export function listBindings(store: Store, account: Account, filter: BindingFilter, page: Page): Promise<Binding[]> {
  return store.bindings.list(account.id, filter, page);
}

/** The chatbot binding that answers in a channel: the channel's own, else its workspace default. */
export async function resolveBinding(store: Store, account: Account, channel: ChannelRef): Promise<Binding> {
  const binding = await store.bindings.resolve(account.id, channel);
  if (!binding) throw notFound(`no binding for ${channel.platform} ${channel.workspaceId}/${channel.channelId}`);
  return binding;
}

/** Answers the deleted binding. */
export async function unbind(store: Store, account: Account, id: string): Promise<Binding> {
  const binding = await store.bindings.delete(account.id, id);
  if (!binding) throw notFound(`binding ${id}`);
  return binding;
}

/** Subscribes a channel to a chatbot's daily digest, replacing the schedule of an existing subscription. */
export async function subscribeDigest(store: Store, account: Account, input: DigestInput): Promise<Digest> {
  await findOwnedChatbot(store, account, input.chatbotId);
  const now = new Date();
  return store.digests.upsert({ ...input, id: nanoid(), accountId: account.id, createdAt: now, updatedAt: now });
}

/** A subscription with how its latest finished day went (none before its first). */
export type DigestWithLastRun = Digest & { lastRun: DigestRun | undefined };

/** Oldest first, each with its last run, so a digest that keeps failing shows why where it is listed. */
export async function listDigests(store: Store, account: Account, filter: DigestFilter, page: Page): Promise<DigestWithLastRun[]> {
  const digests = await store.digests.list(account.id, filter, page);
  const lastRuns = await store.digestRuns.latestOf(digests.map((digest) => digest.id));
  return digests.map((digest) => ({ ...digest, lastRun: lastRuns.get(digest.id) }));
}

/** Answers the deleted subscription. */
export async function unsubscribeDigest(store: Store, account: Account, id: string): Promise<Digest> {
  const digest = await store.digests.delete(account.id, id);
  if (!digest) throw notFound(`digest ${id}`);
  return digest;
}
