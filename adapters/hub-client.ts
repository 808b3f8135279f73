// A typed client of the hub's HTTP API (v1 and Switchboard's extensions), used by the chat
// adapters and the scheduler exactly as any integrator would use the API: base URL plus key.

export type Platform = 'slack' | 'discord';
/** The most workspaces a handoff notice claim may name (the API's limit). */
export const MAX_CLAIM_WORKSPACES = 100;
export type ConversationSource = 'API' | 'Slack' | 'Discord' | 'Widget or Iframe';
export type ChatMessage = { role: 'user' | 'assistant'; content: string };
export type Feedback = 'up' | 'down';
/** What a saved message of the chatbot's is: what a handoff says (the waiting message) is not an answer. */
export type MessageKind = 'answer' | 'decline' | 'handoff';
const MESSAGE_KINDS: readonly string[] = ['answer', 'decline', 'handoff'] satisfies MessageKind[];
/** A knowledge source as the hub lists it. */
export type SourceItem = {
  id: string;
  type: 'text' | 'file' | 'website' | 'qa';
  title: string;
  status: 'queued' | 'processing' | 'ready' | 'failed';
  error: string | null;
  chars: number;
  url?: string;
  pages?: { done: number; failed: number; total: number };
};
/** A knowledge source an answer drew on; `url` for a web page. */
export type CitedSource = { id: string; title: string; url?: string };

export type ChatbotItem = {
  id: string;
  name: string;
  status: string;
  model: string;
  instructions: string;
  visibility: string;
  created_at: string;
  updated_at: string;
};

export type Lead = {
  id: string;
  name: string;
  email: string;
  phone: string;
  created_at: string;
  chatbot_id: string;
  account_id: string;
};

export type Binding = {
  id: string;
  platform: Platform;
  workspaceId: string;
  channelId: string;
  chatbotId: string;
  mode: 'mentions' | 'all';
};

export type Digest = {
  id: string;
  chatbotId: string;
  platform: Platform;
  workspaceId: string;
  channelId: string;
  time: string;
  timezone: string;
  postWhenEmpty: boolean;
};

/** A group of questions a chatbot could not answer (GET …/unanswered). */
export type UnansweredQuestion = {
  id: string;
  question: string;
  count: number;
  first_asked_at: string;
  last_asked_at: string;
  status: 'open' | 'resolved' | 'dismissed';
};

/** Where a conversation handed to a person stands (the `handoff` of get-conversations). */
export type HandoffState = {
  status: 'pending' | 'active' | 'resolved' | 'missed';
  requested_at: string;
  taken_by: string | null;
};
/** Whether the handoff is open: pending or active. */
export const isOpenHandoff = (state: HandoffState) => state.status === 'pending' || state.status === 'active';
/** A handoff's thread: the root message's channel and id (Slack: its ts; Discord: the thread channel's id). */
export type HandoffThread = { channelId: string; threadId: string };
/**
 * Something a chat adapter must post about a handoff, in order per conversation: for the team,
 * the request (a new thread), a message the person sent meanwhile, or the handoff closing; for a
 * person talking in Slack or Discord, what the team tells them (`reply`).
 */
export type HandoffNotice = {
  id: string;
  kind: 'requested' | 'message' | 'closed' | 'reply';
  chatbotId: string;
  chatbotName: string;
  conversationId: string;
  source: ConversationSource;
  /** Where the chatbot's handoff settings send requests; a `reply`'s: where the person talks. */
  channel: { workspaceId: string; channelId: string };
  /** Null until the `requested` notice is done; a `reply`'s: the person's Slack thread (Discord: null). */
  thread: HandoffThread | null;
  handoff: HandoffState;
  created_at: string;
  /** `requested`: the conversation so far. */
  transcript?: { role: 'user' | 'assistant'; content: string; author?: { type: 'human'; name: string } }[];
  /** `requested`: the contact's or lead's details, when known. */
  person?: { name: string | null; email: string | null; phone: string | null } | null;
  /** `message`: what the person wrote; `reply`: what they are told. */
  text?: string;
  /** `reply`: the team member who wrote it (none for the hand-back and the offline message). */
  author?: { type: 'human'; name: string };
};
export type HandoffInThread = { chatbotId: string; conversationId: string; handoff: HandoffState };

export type ContactInput = { external_id: string; name?: string | null; email?: string | null };

export type ChatRequest = {
  chatbotId: string;
  messages: ChatMessage[];
  conversationId?: string;
  contactId?: string;
  source?: ConversationSource;
};

/** A failure the hub answered: its status and the contract's message. */
export class HubApiError extends Error {
  constructor(
    readonly status: number,
    readonly hubMessage: string,
  ) {
    super(`hub answered ${status}: ${hubMessage}`);
    this.name = 'HubApiError';
  }
}

export type HubClient = ReturnType<typeof createHubClient>;

const API_PREFIX = '/api/v1';

/** `HUB_URL` may name the hub's root or its API; the client wants the API (…/api/v1). */
export function hubApiUrl(hubUrl: string): string {
  const trimmed = hubUrl.replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed : trimmed + API_PREFIX;
}

type Query = Record<string, string | number | undefined>;

/** `apiUrl` includes the version prefix, e.g. http://localhost:3000/api/v1. */
export function createHubClient(apiUrl: string, apiKey: string) {
  const base = apiUrl.replace(/\/+$/, '');

  async function send(
    method: string,
    path: string,
    body?: unknown,
    query?: Query,
    signal?: AbortSignal,
  ): Promise<Response> {
    const url = new URL(base + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const response = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    if (!response.ok) {
      const failure = (await response.json().catch(() => ({}))) as { message?: unknown };
      throw new HubApiError(response.status, typeof failure.message === 'string' ? failure.message : response.statusText);
    }
    return response;
  }

  async function json<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    return (await (await send(method, path, body, query)).json()) as T;
  }

  const data = async <T>(method: string, path: string, body?: unknown, query?: Query) =>
    (await json<{ data: T }>(method, path, body, query)).data;

  const chatbotPath = (chatbotId: string) => `/chatbots/${encodeURIComponent(chatbotId)}`;
  const commandServersPath = (applicationId: string) => `/integrations/discord/${encodeURIComponent(applicationId)}/command-servers`;
  const handoffPath = (chatbotId: string, conversationId: string) =>
    `${chatbotPath(chatbotId)}/conversations/${encodeURIComponent(conversationId)}/handoff`;

  return {
    /**
     * The reply as it streams (the iterator ends when the reply is complete), the id of the
     * message it is saved as (with a `conversationId`; the hub names it before streaming), and what
     * that message is when the hub knows before streaming (the waiting message: `handoff`; an
     * answer or a decline is known only at the end, so it comes without a kind).
     */
    async chat(
      request: ChatRequest,
      signal?: AbortSignal,
    ): Promise<{ messageId: string | undefined; kind: MessageKind | undefined; pieces: AsyncIterable<string> }> {
      const response = await send('POST', '/chat', { ...request, stream: true }, undefined, signal);
      const kind = response.headers.get('X-Message-Kind') ?? '';
      return {
        messageId: response.headers.get('X-Message-Id') ?? undefined,
        kind: MESSAGE_KINDS.includes(kind) ? (kind as MessageKind) : undefined,
        pieces: decoded(response),
      };
    },
    /** The sources a saved answer drew on ([] for none). */
    messageSources: (chatbotId: string, messageId: string) =>
      data<CitedSource[]>('GET', `${chatbotPath(chatbotId)}/messages/${encodeURIComponent(messageId)}/sources`),
    listChatbots: async () => (await json<{ chatbots: ChatbotItem[] }>('GET', '/get-chatbots')).chatbots,
    updateSettings: (chatbotId: string, settings: Record<string, unknown>) =>
      json<{ message: string }>('POST', '/update-chatbot-settings', { chatbotId, ...settings }),
    listLeads: async (query: { chatbotId: string; startDate?: string; endDate?: string; page?: number; size?: number }) =>
      (await json<{ collectedCustomers: Lead[] }>('GET', '/get-leads', undefined, query)).collectedCustomers,
    createContacts: (chatbotId: string, users: ContactInput[]) =>
      data<unknown[]>('POST', `${chatbotPath(chatbotId)}/contacts`, { users }),
    updateContact: (chatbotId: string, externalId: string, fields: Omit<ContactInput, 'external_id'>) =>
      data<unknown>('PATCH', `${chatbotPath(chatbotId)}/contacts/${encodeURIComponent(externalId)}`, { data: fields }),
    /** The binding that answers in a channel (its own, else the workspace default), or undefined. */
    async findBinding(query: { platform: Platform; workspaceId: string; channelId: string }) {
      try {
        return await data<Binding>('GET', '/integrations/bindings/resolve', undefined, query);
      } catch (error) {
        if (error instanceof HubApiError && error.status === 404) return undefined;
        throw error;
      }
    },
    resolveBinding: (query: { platform: Platform; workspaceId: string; channelId: string }) =>
      data<Binding>('GET', '/integrations/bindings/resolve', undefined, query),
    listBindings: (query: Partial<Omit<Binding, 'id' | 'mode'>> & { page?: number; size?: number } = {}) =>
      data<Binding[]>('GET', '/integrations/bindings', undefined, query),
    bind: (binding: Omit<Binding, 'id'>) => data<Binding>('POST', '/integrations/bindings', binding),
    unbind: (id: string) => data<Binding>('DELETE', `/integrations/bindings/${encodeURIComponent(id)}`),
    /** The chatbot's greeting and suggested questions. */
    chatbotPrompts: (chatbotId: string) =>
      data<{ initialMessages: string[]; suggestedMessages: string[] }>(
        'GET',
        `/integrations/chatbots/${encodeURIComponent(chatbotId)}/prompts`,
      ),
    /** Holds `key` for `ttlSeconds` across every adapter instance; true when this call took it. */
    claim: async (key: string, ttlSeconds: number) =>
      (await data<{ claimed: boolean }>('POST', '/integrations/claims', { key, ttlSeconds })).claimed,
    /** The servers where Discord application `applicationId`'s /chatbot may be registered; null before any record. */
    commandServers: async (applicationId: string) =>
      (await data<{ serverIds: string[] | null }>('GET', commandServersPath(applicationId))).serverIds,
    /** Records those servers, in place of the ones before. */
    recordCommandServers: (applicationId: string, serverIds: string[]) =>
      data<{ serverIds: string[] }>('PUT', commandServersPath(applicationId), { serverIds }),
    /** Whether some instance holds `key`. */
    isHeld: async (key: string) =>
      (await data<{ held: boolean }>('GET', `/integrations/claims/${encodeURIComponent(key)}`)).held,
    listDigests: (query: Partial<Omit<Digest, 'id' | 'time' | 'timezone' | 'postWhenEmpty'>> = {}) =>
      data<Digest[]>('GET', '/integrations/digests', undefined, query),
    subscribeDigest: (digest: Omit<Digest, 'id'>) => data<Digest>('POST', '/integrations/digests', digest),
    unsubscribeDigest: (id: string) => data<Digest>('DELETE', `/integrations/digests/${encodeURIComponent(id)}`),
    /** Records a reader's 👍 (`up`) or 👎 (`down`) on an answer; a later call replaces it. */
    sendFeedback: (chatbotId: string, messageId: string, feedback: Feedback) =>
      data<{ id: string; feedback: Feedback }>(
        'POST',
        `${chatbotPath(chatbotId)}/messages/${encodeURIComponent(messageId)}/feedback`,
        { feedback },
      ),
    /**
     * Starts reading a website into a knowledge source of the chatbot (queued; the hub's job crawls
     * it); `known` when the chatbot had a source of that site already, which is read again instead (200).
     */
    async addWebsiteSource(chatbotId: string, url: string): Promise<{ source: SourceItem; known: boolean }> {
      const response = await send('POST', `${chatbotPath(chatbotId)}/sources`, { type: 'website', url });
      return { source: ((await response.json()) as { data: SourceItem }).data, known: response.status === 200 };
    },
    listSources: (chatbotId: string) => data<SourceItem[]>('GET', `${chatbotPath(chatbotId)}/sources`),
    /** The chatbot's open unanswered questions, most asked first. */
    listOpenQuestions: (chatbotId: string, size: number) =>
      data<UnansweredQuestion[]>('GET', `${chatbotPath(chatbotId)}/unanswered`, undefined, { status: 'open', size }),
    /** Answers a group of unanswered questions (the hub resolves it). */
    resolveQuestion: (chatbotId: string, groupId: string, answer: string) =>
      data<UnansweredQuestion>('POST', `${chatbotPath(chatbotId)}/unanswered/${encodeURIComponent(groupId)}/resolve`, { answer }),
    /**
     * Leases up to `limit` notices for the platform's handoff channels to this caller for
     * `leaseSeconds`: the oldest undone one of each conversation, a conversation's later ones
     * only once its thread is known; and what the team tells the people talking to the chatbot on
     * the platform (`reply`). A notice not marked done in time is offered again. With
     * `workspaceIds`, only notices for those workspaces (and those naming none).
     */
    claimHandoffNotices: (platform: Platform, limit = 10, leaseSeconds = 60, workspaceIds?: string[]) =>
      data<HandoffNotice[]>('POST', '/handoffs/notices/claim', { platform, limit, leaseSeconds, replies: true, ...(workspaceIds && { workspaceIds }) }),
    /** Marks a notice posted; a `requested` one names the thread it started (the first one recorded stays). */
    completeHandoffNotice: (noticeId: string, thread?: HandoffThread) =>
      data<{ id: string }>('POST', `/handoffs/notices/${encodeURIComponent(noticeId)}/done`, thread && { thread }),
    /** The handoff whose thread this is, or undefined (any other thread: never relayed). */
    async findHandoffByThread(query: { platform: Platform } & HandoffThread) {
      try {
        return await data<HandoffInThread>('GET', '/handoffs/thread', undefined, query);
      } catch (error) {
        if (error instanceof HubApiError && error.status === 404) return undefined;
        throw error;
      }
    },
    takeHandoff: (chatbotId: string, conversationId: string, name: string) =>
      data<HandoffState>('POST', `${handoffPath(chatbotId, conversationId)}/take`, { name }),
    /** A team member's reply to the person, under their display name. */
    replyInHandoff: (chatbotId: string, conversationId: string, name: string, text: string) =>
      data<HandoffState>('POST', `${handoffPath(chatbotId, conversationId)}/messages`, { name, text }),
    resolveHandoff: (chatbotId: string, conversationId: string) =>
      data<HandoffState>('POST', `${handoffPath(chatbotId, conversationId)}/resolve`),
  };
}

/** A streamed text body, piece by piece as it arrives. */
async function* decoded(response: Response): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of response.body ?? []) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
