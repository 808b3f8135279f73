import { nanoid } from 'nanoid';
import type {
  Account,
  Author,
  ChannelRef,
  Chatbot,
  Conversation,
  HandoffFollowUp,
  HandoffInThread,
  HandoffNotice,
  HandoffPerson,
  HandoffReplyNotice,
  HandoffRequestNotice,
  HandoffSnapshot,
  HandoffThread,
  Platform,
  Store,
} from '../store/port.js';
import { notFound } from './errors.js';

// The feed of handoff notices the Slack and Discord adapters post from: the request (a new
// thread), each message the person sends while the handoff is open, and its closing, for the team
// (only a chatbot whose handoff settings name a platform has these); and what the team tells a
// person who talks to the chatbot in Slack or Discord, for the place they talk in. Notices are enqueued by the store in
// the write that changes what they tell of, so none is lost; any number of adapter processes
// lease them, each notice to one at a time, and mark them done once posted.

/** Where the chatbot sends handoff requests, if anywhere. */
function handoffChannel(chatbot: Chatbot): ChannelRef | undefined {
  const { platform, workspaceId, channelId } = chatbot.settings.handoff;
  return platform ? { platform, workspaceId, channelId } : undefined;
}

/** The contact's details, else the lead's, field by field; null when the person left none. */
async function personIn(store: Store, conversation: Conversation): Promise<HandoffPerson | null> {
  const { chatbotId, contactId, id } = conversation;
  const [contact, lead] = await Promise.all([
    contactId ? store.contacts.find(chatbotId, contactId) : undefined,
    store.leads.findForConversation(chatbotId, id),
  ]);
  if (!contact && !lead) return null;
  return {
    name: contact?.name ?? lead?.name ?? null,
    email: contact?.email ?? lead?.email ?? null,
    phone: contact?.phonenumber ?? lead?.phone ?? null,
  };
}

/** The notice that opens a handoff's thread: the conversation so far and who the person is. */
export async function requestNotice(
  store: Store,
  chatbot: Chatbot,
  conversationId: string,
  handoff: HandoffSnapshot,
  at: Date,
): Promise<HandoffRequestNotice | undefined> {
  const channel = handoffChannel(chatbot);
  const conversation = channel && (await store.conversations.find(chatbot.id, conversationId));
  if (!channel || !conversation) return undefined;
  return {
    kind: 'requested',
    id: nanoid(),
    accountId: chatbot.accountId,
    chatbotId: chatbot.id,
    chatbotName: chatbot.name,
    conversationId,
    source: conversation.source,
    ...channel,
    handoff,
    transcript: conversation.messages.map(({ role, content, author }) => ({ role, content, ...(author && { author }) })),
    person: await personIn(store, conversation),
    createdAt: at,
  };
}

/** A message the person sent, or the handoff closing, for the thread the request started. */
export function followUpNotice(
  chatbot: Chatbot,
  conversationId: string,
  handoff: HandoffSnapshot,
  at: Date,
  text?: string,
): HandoffFollowUp | undefined {
  if (!handoffChannel(chatbot)) return undefined;
  const kind = text === undefined ? 'closed' : 'message';
  const { status, requestedAt, takenBy } = handoff;
  return {
    kind,
    id: nanoid(),
    chatbotId: chatbot.id,
    conversationId,
    handoff: { status, requestedAt, takenBy },
    ...(text !== undefined && { text }),
    createdAt: at,
  };
}

/** Where a person talking through the Slack or Discord adapter is: a channel, and on Slack a thread. */
type PersonPlace = ChannelRef & { thread: HandoffThread | null };

/**
 * The place of a conversation the Slack or Discord adapter keeps, read from the id it gives it
 * (README, Slack and Discord): `slack:{team}:{channel}:{thread_ts}`; `discord:{server}:{channel}:{user}`
 * (a person's own in a channel), `discord:{server}:{thread}`, `discord:dm:{channel}`, and the
 * `discord:{server}:{channel}` a whole channel had before people had their own. Undefined for any
 * other conversation (the widget's and the API's are followed in get-conversations and the widget's stream).
 */
function personPlace({ source, id }: Pick<Conversation, 'source' | 'id'>): PersonPlace | undefined {
  const parts = id.split(':');
  if (parts.some((part) => part === '')) return undefined;
  if (source === 'Slack' && parts.length === 4 && parts[0] === 'slack') {
    const [, workspaceId = '', channelId = '', threadId = ''] = parts;
    return { platform: 'slack', workspaceId, channelId, thread: { channelId, threadId } };
  }
  if (source === 'Discord' && (parts.length === 3 || (parts.length === 4 && parts[1] !== 'dm')) && parts[0] === 'discord') {
    const [, workspaceId = '', channelId = ''] = parts;
    return { platform: 'discord', workspaceId, channelId, thread: null };
  }
  return undefined;
}

/**
 * What the team tells a person in handoff (a team member's reply, the hand-back, the offline
 * message), for the adapter of the place they talk in; undefined when they talk elsewhere.
 */
export function replyNotice(
  chatbot: Chatbot,
  conversation: Pick<Conversation, 'id' | 'source'>,
  handoff: HandoffSnapshot,
  said: { content: string; author?: Author },
  at: Date,
): HandoffReplyNotice | undefined {
  const place = personPlace(conversation);
  if (!place) return undefined;
  const { status, requestedAt, takenBy } = handoff;
  return {
    kind: 'reply',
    id: nanoid(),
    accountId: chatbot.accountId,
    chatbotId: chatbot.id,
    chatbotName: chatbot.name,
    conversationId: conversation.id,
    source: conversation.source,
    ...place,
    handoff: { status, requestedAt, takenBy },
    text: said.content,
    ...(said.author && { author: said.author }),
    createdAt: at,
  };
}

/**
 * Leases the account's next notices for the platform (and workspaces, if named) to the caller
 * (see HandoffNoticeRepository.claim).
 */
export function claimNotices(
  store: Store,
  account: Account,
  { platform, limit, leaseSeconds, workspaceIds, replies }: { platform: Platform; limit: number; leaseSeconds: number; workspaceIds?: string[]; replies?: boolean },
): Promise<HandoffNotice[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseSeconds * 1_000);
  return store.handoffNotices.claim({ accountId: account.id, platform, workspaceIds, replies, now, leaseUntil, limit });
}

/** Marks the account's notice posted; a `requested` one records the thread it started. */
export async function completeNotice(store: Store, account: Account, noticeId: string, thread?: HandoffThread): Promise<HandoffNotice> {
  const notice = await store.handoffNotices.complete(account.id, noticeId, thread, new Date());
  if (!notice) throw notFound(`handoff notice ${noticeId}`);
  return notice;
}

/** The account's conversation whose current handoff has this thread; any other thread is none. */
export async function handoffInThread(store: Store, account: Account, platform: Platform, thread: HandoffThread): Promise<HandoffInThread> {
  const found = await store.handoffNotices.findByThread(account.id, platform, thread);
  if (!found) throw notFound(`no handoff has ${platform} thread ${thread.channelId}/${thread.threadId}`);
  return found;
}
