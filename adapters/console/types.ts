// The shapes of the API's answers the console reads (see the OpenAPI document at /api/v1/openapi.json).

export type Account = { id: string; name: string };

export type ChatbotItem = {
  id: string;
  name: string;
  status: 'training' | 'ready';
  model: string;
  instructions: string;
  visibility: 'public' | 'private';
  created_at: string;
  updated_at: string;
};

export type CollectField = { active: boolean; label: string };

export type Styles = {
  theme: 'light' | 'dark';
  buttonColor: string;
  displayName: string;
  alignChatButton: 'left' | 'right';
  userMessageColor: string;
  autoOpenChatWindowAfter: number;
};

/** Human handoff: who hears of a person asking for the team (the console always does) and when. */
export type HandoffSettings = {
  enabled: boolean;
  platform: 'slack' | 'discord' | null;
  workspaceId: string;
  channelId: string;
  onRequest: boolean;
  afterDeclines: number;
  keywords: string[];
  waitMinutes: number;
  idleMinutes: number;
  waitingMessage: string;
  offlineMessage: string;
};

export type Settings = {
  instructions: string;
  initialMessages: string[];
  suggestedMessages: string[];
  visibility: 'public' | 'private';
  domains: string[];
  onlyAllowOnAddedDomains: boolean;
  ipLimit: number;
  ipLimitTimeframe: number;
  ipLimitMessage: string;
  model: string;
  temp: number;
  styles: Styles;
  collectCustomerInformation: { title: string; name: CollectField; email: CollectField; phone: CollectField };
  handoff: HandoffSettings;
};

/** GET /chatbots/{chatbotId}: one chatbot with every setting, and its images' addresses (null: none). */
export type Chatbot = Pick<ChatbotItem, 'id' | 'name' | 'status' | 'created_at' | 'updated_at'> & {
  settings: Settings;
  profilePictureUrl: string | null;
  iconUrl: string | null;
};

/** A source an answer cited (a web page's with its address). */
export type CitedSource = { id: string; title: string; url?: string };

/** An owner's correction of an answer, which the chatbot gives from then on. */
export type Revision = { answer: string; created_at: string };

export type Message = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  feedback?: 'up' | 'down';
  sources?: CitedSource[];
  /** A team member's reply in a handoff; the chatbot's own answers have none. */
  author?: { type: 'human'; name: string } | null;
  /** A message of the chatbot's that is not an answer: a decline, or what a handoff says. */
  kind?: 'decline' | 'handoff';
  revision?: Revision;
};

export type Handoff = { status: 'pending' | 'active' | 'resolved' | 'missed'; requested_at: string; taken_by: string | null };

export type Conversation = {
  id: string;
  chatbot_id: string;
  source: string;
  contact_id: string | null;
  created_at: string;
  updated_at: string;
  messages: Message[];
  handoff?: Handoff;
  /** The lead collected in the conversation, when there is one. */
  lead?: Lead;
};

export type Lead = { id: string; name: string | null; email: string | null; phone: string | null; created_at: string };

export type Contact = {
  id: string;
  external_id: string;
  name: string | null;
  email: string | null;
  phonenumber: string | null;
  custom_attributes?: Record<string, unknown>;
  created_at?: string;
};

/** `prefix`: the key's first characters; null for keys stored before they were kept. */
export type ApiKey = { id: string; label: string; prefix: string | null; created_at: string };

/** GET /account: the quota, and the messages used in this month (`period`, UTC). */
export type AccountUsage = {
  name: string;
  quota: { messagesPerMonth: number; maxChatbots: number };
  usage: { period: string; messages: number };
};

/** A knowledge source: `/chatbots/{chatbotId}/sources`. */
export type Source = {
  id: string;
  type: 'text' | 'file' | 'website' | 'qa';
  title: string;
  status: 'queued' | 'processing' | 'ready' | 'failed';
  error: string | null;
  chars: number;
  created_at: string;
  updated_at: string;
  pages?: { done: number; failed: number; total: number };
  question?: string;
  answer?: string;
};

export type SourcePage = { url: string; title: string; status: 'read' | 'failed' | 'skipped'; chars: number; reason?: string };

export type SourceDetail = Source & { text: string; pageList?: SourcePage[] };
