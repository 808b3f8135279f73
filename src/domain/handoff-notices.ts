import { nanoid } from 'nanoid';
import type {
  Account,
  ChannelRef,
  Chatbot,
  Conversation,
  HandoffFollowUp,
  HandoffInThread,
  HandoffNotice,
  HandoffPerson,
  HandoffRequestNotice,
  HandoffSnapshot,
  HandoffThread,
  Platform,
  Store,
} from '../store/port.js';
import { notFound } from './errors.js';

// The feed of handoff notices the Slack and Discord adapters post from: the request (a new
// thread), each message the person sends while the handoff is open, and its closing. Only a
// chatbot whose handoff settings name a platform has one. Notices are enqueued by the store in
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

/**
 * Leases the account's next notices for the platform (and workspaces, if named) to the caller
 * (see HandoffNoticeRepository.claim).
 */
export function claimNotices(
  store: Store,
  account: Account,
  { platform, limit, leaseSeconds, workspaceIds }: { platform: Platform; limit: number; leaseSeconds: number; workspaceIds?: string[] },
): Promise<HandoffNotice[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseSeconds * 1_000);
  return store.handoffNotices.claim({ accountId: account.id, platform, workspaceIds, now, leaseUntil, limit });
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
