import { Schema, type Connection, type Types } from 'mongoose';
import type { Language } from '../../settings/languages.js';
import { ACTIVITY_COUNTERS, type ActivityCounts } from '../activity-counters.js';
import type {
  Asset,
  Author,
  Binding,
  Chatbot,
  ConsoleLink,
  ConsoleSession,
  Contact,
  ConversationSource,
  CustomAttribute,
  Digest,
  DigestRun,
  Handoff,
  HandoffFollowUp,
  HandoffNotice,
  HandoffReplyNotice,
  HandoffRequestNotice,
  Lead,
  MaterialRun,
  MessageKind,
  MessageSource,
  PaymentAccount,
  Quota,
  Revision,
  Source,
  SourceRef,
  UnansweredExample,
  UnansweredGroup,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
} from '../port.js';

// Documents as stored. Entities keep their own string id as `_id`.

/** An entity of the port as stored: its `id` becomes `_id`. */
type Stored<T extends { id: string }> = Omit<T, 'id'> & { _id: string };

export type AccountDoc = {
  _id: string;
  name: string;
  quota: Quota;
  /** Chatbots the account holds, kept in step by the chatbot repository to enforce the quota. */
  chatbotCount: number;
  createdAt: Date;
};

/** `_id` is the key's hash. `keyId` is missing only on keys stored before ids, until nameUnnamedKeys runs. */
export type ApiKeyDoc = {
  _id: string;
  keyId: string;
  accountId: string;
  label: string;
  prefix: string | null;
  createdAt: Date;
};

/** `_id` is the hash of a key the hub provisioned itself (BOOTSTRAP_API_KEY); only _id is looked up. */
export type ProvisionedKeyDoc = { _id: string; provisionedAt: Date };

export type ChatbotDoc = Stored<Chatbot>;

/**
 * `version` names the current chunk set; `revision` the source revision it was built from; `runs`
 * where each source's chunks lie in it (material-runs.ts); `sourceText` is kept for material
 * trained before sources.
 */
export type TrainingSourceDoc = { _id: string; sourceText?: string; version: string; revision?: number; runs?: MaterialRun[] };

export type TrainingChunkDoc = { chatbotId: string; version: string; seq: number; text: string; source?: SourceRef };

export type AssetDoc = Asset;

/** One part of a serialized index: split, since a document holds at most 16 MB. */
export type RetrievalIndexPartDoc = { chatbotId: string; version: string; part: number; parts: number; data: Buffer };

export type RetrievalVectorDoc = { chatbotId: string; hash: string; model: string; vector: Buffer };

// Indexes are built once, explicitly, when the store opens; no __v since nothing uses it.
const options = { autoIndex: false, autoCreate: false, versionKey: false } as const;
const required = <T>(type: T) => ({ type, required: true });

const accountSchema = new Schema<AccountDoc>(
  {
    _id: required(String),
    name: required(String),
    quota: {
      messagesPerMonth: required(Number),
      maxChatbots: required(Number),
    },
    chatbotCount: required(Number),
    createdAt: required(Date),
  },
  { ...options, collection: 'accounts' },
);
accountSchema.index({ name: 1 }, { unique: true });

const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    _id: required(String),
    keyId: String,
    accountId: required(String),
    label: String,
    prefix: String,
    createdAt: required(Date),
  },
  { ...options, collection: 'apiKeys' },
);
apiKeySchema.index({ accountId: 1 });

const provisionedKeySchema = new Schema<ProvisionedKeyDoc>(
  { _id: required(String), provisionedAt: required(Date) },
  { ...options, collection: 'provisionedKeys' },
);

const chatbotSchema = new Schema<ChatbotDoc>(
  {
    _id: required(String),
    accountId: required(String),
    name: required(String),
    status: required(String),
    // Validated by the domain; Mixed keeps it a plain nested object that dotted $set paths reach.
    settings: required(Schema.Types.Mixed),
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  // minimize: false so an empty nested object would be stored, not dropped.
  { ...options, collection: 'chatbots', minimize: false },
);
chatbotSchema.index({ accountId: 1, createdAt: 1, _id: 1 });

const trainingSourceSchema = new Schema<TrainingSourceDoc>(
  {
    _id: required(String),
    sourceText: String,
    version: required(String),
    revision: Number,
    runs: { type: [{ id: String, revision: Number, start: Number, end: Number, chunksId: String, _id: false }], default: undefined },
  },
  { ...options, collection: 'trainingSources' },
);

const trainingChunkSchema = new Schema<TrainingChunkDoc>(
  {
    chatbotId: required(String),
    version: required(String),
    seq: required(Number),
    text: required(String),
    source: { type: Schema.Types.Mixed, default: undefined },
  },
  { ...options, collection: 'trainingChunks' },
);
trainingChunkSchema.index({ chatbotId: 1, version: 1, seq: 1 }, { unique: true });

const retrievalIndexPartSchema = new Schema<RetrievalIndexPartDoc>(
  {
    chatbotId: required(String),
    version: required(String),
    part: required(Number),
    parts: required(Number),
    data: required(Buffer),
  },
  { ...options, collection: 'retrievalIndexParts' },
);
retrievalIndexPartSchema.index({ chatbotId: 1, version: 1, part: 1 }, { unique: true });

const retrievalVectorSchema = new Schema<RetrievalVectorDoc>(
  { chatbotId: required(String), hash: required(String), model: required(String), vector: required(Buffer) },
  { ...options, collection: 'retrievalVectors' },
);
retrievalVectorSchema.index({ chatbotId: 1, model: 1, hash: 1 }, { unique: true });

const assetSchema = new Schema<AssetDoc>(
  {
    chatbotId: required(String),
    kind: required(String),
    contentType: required(String),
    data: required(Buffer),
    etag: required(String),
    updatedAt: required(Date),
  },
  { ...options, collection: 'assets' },
);
assetSchema.index({ chatbotId: 1, kind: 1 }, { unique: true });

export type ContactDoc = Stored<Contact>;

const optionalString = { type: String, default: null };

const contactSchema = new Schema<ContactDoc>(
  {
    _id: required(String),
    chatbotId: required(String),
    externalId: required(String),
    name: optionalString,
    email: optionalString,
    phonenumber: optionalString,
    paymentAccounts: [
      new Schema<PaymentAccount>(
        // Not `required`: mongoose refuses empty strings there, and the API accepts them.
        { label: String, payment_id: String, payment_email: String },
        { _id: false },
      ),
    ],
    // Mixed, so dotted `customAttributes.<key>` $set paths merge single keys.
    customAttributes: required(Schema.Types.Mixed),
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'contacts', minimize: false },
);
contactSchema.index({ chatbotId: 1, externalId: 1 }, { unique: true });
// Only string emails take part, so any number of contacts may have none.
contactSchema.index(
  { chatbotId: 1, email: 1 },
  { unique: true, partialFilterExpression: { email: { $type: 'string' } } },
);
contactSchema.index({ chatbotId: 1, createdAt: 1, _id: 1 });

export type AttributeDoc = CustomAttribute;

const attributeSchema = new Schema<AttributeDoc>(
  {
    chatbotId: required(String),
    name: required(String),
    label: required(String),
    type: required(String),
    description: { type: String, default: '' }, // may be empty, which `required` refuses
    archived: required(Boolean),
    createdAt: required(Date),
  },
  { ...options, collection: 'customAttributes' },
);
attributeSchema.index({ chatbotId: 1, name: 1 }, { unique: true });

export type RateLimitDoc = { _id: string; count: number; expiresAt: Date };

const rateLimitSchema = new Schema<RateLimitDoc>(
  { _id: required(String), count: required(Number), expiresAt: required(Date) },
  { ...options, collection: 'rateLimits' },
);
// MongoDB's TTL monitor removes finished windows.
rateLimitSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/**
 * `webhookPending` is set on every lead created or corrected since webhooks exist, until its
 * leads.submit is enqueued. `revision` counts its versions; leads stored before it have none (1).
 */
export type LeadDoc = Stored<Lead> & { webhookPending?: boolean; revision?: number };

const leadSchema = new Schema<LeadDoc>(
  {
    _id: required(String),
    chatbotId: required(String),
    accountId: required(String),
    name: optionalString,
    email: optionalString,
    phone: optionalString,
    conversationId: optionalString,
    createdAt: required(Date),
    // The default marks a lead in the same write that creates it (inserts and upserts alike).
    webhookPending: { type: Boolean, default: true },
    revision: { type: Number, default: 1 },
  },
  { ...options, collection: 'leads' },
);
leadSchema.index({ createdAt: 1, _id: 1 }, { partialFilterExpression: { webhookPending: true } });
leadSchema.index({ chatbotId: 1, createdAt: -1, _id: -1 });
// At most one lead per conversation; leads collected outside one (null) are not limited.
leadSchema.index(
  { chatbotId: 1, conversationId: 1 },
  { unique: true, partialFilterExpression: { conversationId: { $type: 'string' } } },
);

/**
 * A counted block of one chatbot's leads or contacts (page-blocks.ts): the rows from the key
 * (createdAt, rowId) of its first row up to the next block's first row, in the list's order.
 * `lastAt` is the newest time counted in it. A block that takes no newer rows names the first key
 * of the block that follows it (`nextAt`, `nextId`).
 */
export type PageBlockDoc = {
  chatbotId: string;
  list: 'leads' | 'contacts';
  createdAt: Date;
  rowId: string;
  rows: number;
  lastAt: Date;
  nextAt?: Date;
  nextId?: string;
};

const pageBlockSchema = new Schema<PageBlockDoc>(
  {
    chatbotId: required(String),
    list: required(String),
    createdAt: required(Date),
    rowId: required(String),
    rows: required(Number),
    lastAt: required(Date),
    nextAt: Date,
    nextId: String,
  },
  { ...options, collection: 'pageBlocks' },
);
pageBlockSchema.index({ chatbotId: 1, list: 1, createdAt: 1, rowId: 1 }, { unique: true });

/** A conversation document's `_id`: conversation ids are unique per chatbot only. */
export const conversationDocumentId = (chatbotId: string, conversationId: string) => `${chatbotId}:${conversationId}`;

export type ConversationDoc = {
  /** `${chatbotId}:${conversationId}`: conversation ids are unique per chatbot only. */
  _id: string;
  chatbotId: string;
  conversationId: string;
  accountId: string;
  source: ConversationSource;
  contactId: string | null;
  /** The language its person reads, as the widget's window last said; absent where never said. */
  lang?: Language;
  /** Sequence numbers handed out to its messages so far: each append reserves a block. */
  messageCount: number;
  /** Once handed to a person; the lease is the timeout job's. */
  handoff?: Handoff & { claimedBy: string | null; leaseUntil: Date | null };
  /** Handoff notices written with the change they tell of, until they are in the feed. */
  handoffOutbox?: StashedNoticeDoc[];
  /** Its name (Incarnation), given when created; absent on those created before. */
  incarnation?: string;
  createdAt: Date;
  updatedAt: Date;
};

const conversationSchema = new Schema<ConversationDoc>(
  {
    _id: required(String),
    chatbotId: required(String),
    conversationId: required(String),
    accountId: required(String),
    source: required(String),
    contactId: optionalString,
    lang: { type: String, default: undefined },
    messageCount: required(Number),
    handoff: { type: Schema.Types.Mixed, default: undefined },
    handoffOutbox: { type: [Schema.Types.Mixed], default: undefined },
    incarnation: { type: String, default: undefined },
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'conversations' },
);
conversationSchema.index({ chatbotId: 1, createdAt: -1, _id: -1 });
// get-conversations' handoffStatus: equality on the status, then the listing's order.
conversationSchema.index({ chatbotId: 1, 'handoff.status': 1, createdAt: -1, _id: -1 });
conversationSchema.index({ 'handoff.dueAt': 1 }, { partialFilterExpression: { 'handoff.dueAt': { $type: 'date' } } });
conversationSchema.index({ accountId: 1 }, { partialFilterExpression: { 'handoffOutbox._id': { $exists: true } } });

/** A notice as its conversation's document holds it; `seq` orders it after `createdAt`. */
export type StashedNoticeDoc = { _id: string; seq: Types.ObjectId; notice: HandoffRequestNotice | HandoffFollowUp | HandoffReplyNotice };

/**
 * One notice of the handoff feed. A follow-up carries its handoff's request's fields (`requestId`
 * names it); the request carries the thread once done, a reply (its own request) from the start.
 * Only undone notices carry `undone`, so the
 * feed's index holds those alone.
 */
export type HandoffNoticeDoc = Omit<HandoffNotice, 'id' | 'thread' | 'doneAt'> & {
  _id: string;
  seq: Types.ObjectId;
  requestId: string;
  thread?: HandoffThreadDoc;
  undone?: true;
  doneAt: Date | null;
};
type HandoffThreadDoc = NonNullable<HandoffNotice['thread']>;

const handoffNoticeSchema = new Schema<HandoffNoticeDoc>(
  {
    _id: required(String),
    seq: required(Schema.Types.ObjectId),
    requestId: required(String),
    kind: required(String),
    accountId: required(String),
    chatbotId: required(String),
    chatbotName: required(String),
    conversationId: required(String),
    source: required(String),
    platform: required(String),
    workspaceId: required(String),
    channelId: required(String),
    handoff: required(Schema.Types.Mixed),
    transcript: { type: Schema.Types.Mixed, default: undefined },
    person: { type: Schema.Types.Mixed, default: undefined },
    text: { type: String, default: undefined },
    author: { type: Schema.Types.Mixed, default: undefined },
    thread: { type: Schema.Types.Mixed, default: undefined },
    undone: { type: Boolean, default: undefined },
    leaseUntil: { type: Date, default: null },
    doneAt: { type: Date, default: null },
    createdAt: required(Date),
  },
  { ...options, collection: 'handoffNotices' },
);
handoffNoticeSchema.index({ accountId: 1, platform: 1, createdAt: 1, seq: 1 }, { partialFilterExpression: { undone: true } });
handoffNoticeSchema.index({ chatbotId: 1, conversationId: 1, createdAt: 1, seq: 1 });
handoffNoticeSchema.index(
  { platform: 1, 'thread.channelId': 1, 'thread.threadId': 1 },
  { partialFilterExpression: { 'thread.threadId': { $type: 'string' } } },
);

/**
 * One document per message, so a conversation has no size limit (a document has 16 MiB). `seq`
 * orders a conversation's messages; MongoDB's own ObjectId is the `_id`.
 */
export type ConversationMessageDoc = {
  chatbotId: string;
  conversationId: string;
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  createdAt: Date;
  feedback?: 'up' | 'down';
  /** Set by the first 👎, so that only that one is reviewed. */
  ratedDown?: boolean;
  sources?: MessageSource[];
  revision?: Revision;
  author?: Author;
  /** Absent on messages saved before the mark (see MessageKind). */
  kind?: MessageKind;
};

const conversationMessageSchema = new Schema<ConversationMessageDoc>(
  {
    chatbotId: required(String),
    conversationId: required(String),
    seq: required(Number),
    role: required(String),
    // Not `required` on content: mongoose refuses empty strings there.
    content: String,
    createdAt: required(Date),
    feedback: { type: String, enum: ['up', 'down'] },
    ratedDown: Boolean,
    sources: { type: [{ id: String, title: String, url: String, _id: false }], default: undefined },
    revision: { type: new Schema({ answer: String, createdAt: Date }, { _id: false }), default: undefined },
    author: { type: new Schema({ type: String, name: String }, { _id: false }), default: undefined },
    kind: { type: String, enum: ['answer', 'decline', 'handoff'] },
  },
  { ...options, collection: 'conversationMessages' },
);
conversationMessageSchema.index({ chatbotId: 1, conversationId: 1, seq: 1 }, { unique: true });

/** `_id` is `${accountId}:${period}`. */
export type UsageDoc = { _id: string; accountId: string; period: string; messages: number };

const usageSchema = new Schema<UsageDoc>(
  {
    _id: required(String),
    accountId: required(String),
    period: required(String),
    messages: required(Number),
  },
  { ...options, collection: 'usage' },
);

export type BindingDoc = Stored<Binding>;

const bindingSchema = new Schema<BindingDoc>(
  {
    _id: required(String),
    accountId: required(String),
    platform: required(String),
    workspaceId: required(String),
    channelId: required(String),
    chatbotId: required(String),
    mode: required(String),
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'bindings' },
);
// One binding per channel; also serves resolve (the channel's own, then `*`).
bindingSchema.index({ accountId: 1, platform: 1, workspaceId: 1, channelId: 1 }, { unique: true });
bindingSchema.index({ accountId: 1, createdAt: 1, _id: 1 });
bindingSchema.index({ chatbotId: 1 });

export type DigestDoc = Stored<Digest>;

const digestSchema = new Schema<DigestDoc>(
  {
    _id: required(String),
    accountId: required(String),
    chatbotId: required(String),
    platform: required(String),
    workspaceId: required(String),
    channelId: required(String),
    time: required(String),
    timezone: required(String),
    postWhenEmpty: required(Boolean),
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'digests' },
);
// One subscription per chatbot and channel; led by chatbotId so chatbot deletion uses it too.
digestSchema.index(
  { chatbotId: 1, accountId: 1, platform: 1, workspaceId: 1, channelId: 1 },
  { unique: true },
);
digestSchema.index({ accountId: 1, createdAt: 1, _id: 1 });
digestSchema.index({ createdAt: 1, _id: 1 });

/** Keeps MongoDB's own ObjectId as `_id`: the run's key is (digestId, localDate). */
export type DigestRunDoc = DigestRun;

const optionalDate = { type: Date, default: null };

const digestRunSchema = new Schema<DigestRunDoc>(
  {
    digestId: required(String),
    localDate: required(String),
    scheduledAt: required(Date),
    claimedBy: required(String),
    claimedAt: required(Date),
    leaseUntil: required(Date),
    status: optionalString,
    attempts: required(Number),
    error: optionalString,
    finishedAt: optionalDate,
  },
  { ...options, collection: 'digestRuns' },
);
// One run per subscription and local day: the claim is an insert this index refuses to repeat.
// It also serves lastPosted and latest (a subscription's runs, newest day first).
digestRunSchema.index({ digestId: 1, localDate: 1 }, { unique: true });

export type WebhookDoc = Stored<Webhook>;

const webhookSchema = new Schema<WebhookDoc>(
  {
    _id: required(String),
    accountId: required(String),
    url: required(String),
    events: required([String]),
    chatbotId: optionalString,
    secret: required(String),
    enabled: required(Boolean),
    disabledReason: optionalString,
    failingSince: optionalDate,
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'webhooks' },
);
webhookSchema.index({ accountId: 1, createdAt: 1, _id: 1 });
webhookSchema.index({ chatbotId: 1 });

export type WebhookDeliveryDoc = Stored<WebhookDelivery>;

const webhookDeliverySchema = new Schema<WebhookDeliveryDoc>(
  {
    _id: required(String),
    webhookId: required(String),
    accountId: required(String),
    chatbotId: optionalString,
    eventType: required(String),
    eventKey: required(String),
    body: required(String),
    status: required(String),
    attempts: required(Number),
    nextAttemptAt: required(Date),
    claimedBy: optionalString,
    leaseUntil: optionalDate,
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'webhookDeliveries' },
);
// An event is enqueued once per webhook: enqueueing is an upsert this index keeps single.
webhookDeliverySchema.index({ webhookId: 1, eventKey: 1 }, { unique: true });
webhookDeliverySchema.index({ status: 1, nextAttemptAt: 1, _id: 1 });
webhookDeliverySchema.index({ chatbotId: 1 });
// Deliveries done, by when: the hourly prune takes those past the delivery log's retention.
webhookDeliverySchema.index({ updatedAt: 1 }, { partialFilterExpression: { status: { $in: ['delivered', 'failed'] } } });

/**
 * Keeps MongoDB's own ObjectId as `_id`: the attempt's key is (deliveryId, attempt). It names its
 * delivery's chatbot, whose deletion takes it along.
 */
export type WebhookAttemptDoc = WebhookAttempt & { chatbotId?: string | null };

const webhookAttemptSchema = new Schema<WebhookAttemptDoc>(
  {
    deliveryId: required(String),
    webhookId: required(String),
    chatbotId: optionalString,
    eventType: required(String),
    attempt: required(Number),
    status: required(String),
    responseStatus: { type: Number, default: null },
    error: optionalString,
    at: required(Date),
  },
  { ...options, collection: 'webhookAttempts' },
);
webhookAttemptSchema.index({ deliveryId: 1, attempt: 1 }, { unique: true });
webhookAttemptSchema.index({ webhookId: 1, at: -1, deliveryId: -1, attempt: -1 });
webhookAttemptSchema.index({ chatbotId: 1 });
export type AdapterClaimDoc = { _id: string; expiresAt: Date };

const adapterClaimSchema = new Schema<AdapterClaimDoc>(
  { _id: required(String), expiresAt: required(Date) },
  { ...options, collection: 'adapterClaims' },
);
// MongoDB's TTL monitor removes expired claims; until it runs, claim() takes them over.
adapterClaimSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/**
 * Where a Discord application's /chatbot may be registered per server (CommandServerRepository);
 * `_id` is the account's id, a NUL and the application's, as a claim's.
 */
export type CommandServersDoc = { _id: string; serverIds: string[]; updatedAt: Date };

const commandServersSchema = new Schema<CommandServersDoc>(
  { _id: required(String), serverIds: { type: [String], required: true }, updatedAt: required(Date) },
  { ...options, collection: 'commandServers' },
);

/** `_id` is the hash of the session's token. */
export type ConsoleSessionDoc = Omit<ConsoleSession, 'tokenHash'> & { _id: string };

const consoleSessionSchema = new Schema<ConsoleSessionDoc>(
  {
    _id: required(String),
    accountId: required(String),
    apiKeyHash: String,
    createdAt: required(Date),
    lastUsedAt: required(Date),
    expiresAt: required(Date),
  },
  { ...options, collection: 'consoleSessions' },
);
consoleSessionSchema.index({ apiKeyHash: 1 });
// MongoDB's TTL monitor removes ended sessions and links; until it runs, reads skip them.
consoleSessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/** `_id` is the hash of the link's token. */
export type ConsoleLinkDoc = Omit<ConsoleLink, 'tokenHash'> & { _id: string };

const consoleLinkSchema = new Schema<ConsoleLinkDoc>(
  { _id: required(String), accountId: required(String), expiresAt: required(Date) },
  { ...options, collection: 'consoleLinks' },
);
consoleLinkSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
/**
 * A source as stored, with the version of its extracted text (in sourceTextParts; null for none,
 * and a website's is in its pages), the version of a file's bytes (in sourceFileParts; none for
 * bytes stored before versions, whose parts have none either) and its job's lease.
 */
export type SourceDoc = Stored<Source> & {
  textVersion?: string | null;
  fileVersion?: string | null;
  claimedBy?: string | null;
  leaseUntil?: Date | null;
  /** The revision of its text and status. */
  revision?: number;
  /**
   * The chatbot's revision (sourceRevisions) when it was created (material-runs.ts): null until
   * recorded, just after; none for a source stored before it was recorded.
   */
  createdRevision?: number | null;
};

const sourceSchema = new Schema<SourceDoc>(
  {
    _id: required(String),
    chatbotId: required(String),
    type: required(String),
    title: { type: String, default: '' },
    status: required(String),
    error: optionalString,
    chars: required(Number),
    filename: String,
    contentType: String,
    bytes: Number,
    url: String,
    maxPages: Number,
    pages: { type: { done: Number, failed: Number, total: Number, _id: false }, default: undefined },
    question: String,
    answer: String,
    textVersion: optionalString,
    fileVersion: optionalString,
    claimedBy: optionalString,
    leaseUntil: optionalDate,
    revision: { type: Number, default: 0 },
    createdRevision: { type: Number, default: undefined },
    createdAt: required(Date),
    updatedAt: required(Date),
  },
  { ...options, collection: 'sources' },
);
sourceSchema.index({ chatbotId: 1, createdAt: 1, _id: 1 });
sourceSchema.index({ status: 1, leaseUntil: 1 });

/**
 * One part of a file source's bytes at one version of them: split, since a document holds at most
 * 16 MB. Parts stored before versions have none, as their source has no fileVersion.
 */
export type SourceFilePartDoc = { sourceId: string; version?: string | null; part: number; data: Buffer };

const sourceFilePartSchema = new Schema<SourceFilePartDoc>(
  { sourceId: required(String), version: optionalString, part: required(Number), data: required(Buffer) },
  { ...options, collection: 'sourceFileParts' },
);
sourceFilePartSchema.index({ sourceId: 1, version: 1, part: 1 }, { unique: true });

/** One part of a source's extracted text at one version of it: split, since a document holds at most 16 MB. */
export type SourceTextPartDoc = { chatbotId: string; sourceId: string; version: string; part: number; text: string };

const sourceTextPartSchema = new Schema<SourceTextPartDoc>(
  { chatbotId: required(String), sourceId: required(String), version: required(String), part: required(Number), text: { type: String, default: '' } },
  { ...options, collection: 'sourceTextParts' },
);
sourceTextPartSchema.index({ sourceId: 1, version: 1, part: 1 }, { unique: true });
sourceTextPartSchema.index({ chatbotId: 1 });

export type SourcePageDoc = {
  sourceId: string;
  seq: number;
  url: string;
  title: string;
  status: string;
  chars: number;
  text: string;
  reason?: string | null;
  /** A hash of the page's main content, once it is read: the content's one holder in the crawl. */
  contentHash?: string | null;
};

const sourcePageSchema = new Schema<SourcePageDoc>(
  {
    sourceId: required(String),
    seq: required(Number),
    url: required(String),
    title: { type: String, default: '' },
    status: required(String),
    chars: { type: Number, default: 0 },
    text: { type: String, default: '' },
    reason: optionalString,
    contentHash: optionalString,
  },
  { ...options, collection: 'sourcePages' },
);
sourcePageSchema.index({ sourceId: 1, url: 1 }, { unique: true });
sourcePageSchema.index({ sourceId: 1, contentHash: 1 }, { unique: true, partialFilterExpression: { contentHash: { $type: 'string' } } });
sourcePageSchema.index({ sourceId: 1, status: 1, seq: 1 });


/** Counts changes to a chatbot's sources: material built after reading one includes that change. */
export type SourceRevisionDoc = { _id: string; revision: number };

const sourceRevisionSchema = new Schema<SourceRevisionDoc>(
  { _id: required(String), revision: required(Number) },
  { ...options, collection: 'sourceRevisions' },
);
/** `_id` is `${chatbotId}:${hour ms}`; counters absent until first incremented (read as 0). */
export type ActivityHourDoc = { _id: string; chatbotId: string; hour: Date } & Partial<ActivityCounts>;

const activityHourSchema = new Schema<ActivityHourDoc>(
  {
    _id: required(String),
    chatbotId: required(String),
    hour: required(Date),
    ...Object.fromEntries(ACTIVITY_COUNTERS.map((counter) => [counter, Number])),
  },
  { ...options, collection: 'activityHours' },
);
activityHourSchema.index({ chatbotId: 1, hour: 1 });

/**
 * `examples` holds the latest UNANSWERED_EXAMPLES, oldest first (as $push $slice keeps them);
 * `opening` the example that opened the group; `termsKey` the terms joined, unique per chatbot.
 */
export type UnansweredGroupDoc = Stored<Omit<UnansweredGroup, 'examples'>> & {
  termsKey: string;
  examples: UnansweredExample[];
  opening: UnansweredExample;
  webhookPending: boolean;
};

const exampleSchema = new Schema<UnansweredExample>(
  { conversationId: optionalString, messageId: optionalString, source: required(String), askedAt: required(Date) },
  { _id: false },
);

const unansweredGroupSchema = new Schema<UnansweredGroupDoc>(
  {
    _id: required(String),
    chatbotId: required(String),
    accountId: required(String),
    question: required(String),
    terms: [String],
    termsKey: { type: String, default: '' },
    count: required(Number),
    firstAskedAt: required(Date),
    lastAskedAt: required(Date),
    status: required(String),
    examples: [exampleSchema],
    opening: exampleSchema,
    webhookPending: { type: Boolean, default: true },
  },
  { ...options, collection: 'unansweredGroups' },
);
unansweredGroupSchema.index({ chatbotId: 1, termsKey: 1 }, { unique: true });
unansweredGroupSchema.index({ chatbotId: 1, terms: 1 });
unansweredGroupSchema.index({ chatbotId: 1, count: -1, lastAskedAt: -1, _id: 1 });
unansweredGroupSchema.index({ firstAskedAt: 1, _id: 1 }, { partialFilterExpression: { webhookPending: true } });

/** The models, bound to one connection (never mongoose's global one). */
export function mongoModels(connection: Connection) {
  return {
    accounts: connection.model('Account', accountSchema),
    apiKeys: connection.model('ApiKey', apiKeySchema),
    provisionedKeys: connection.model('ProvisionedKey', provisionedKeySchema),
    chatbots: connection.model('Chatbot', chatbotSchema),
    trainingSources: connection.model('TrainingSource', trainingSourceSchema),
    trainingChunks: connection.model('TrainingChunk', trainingChunkSchema),
    sources: connection.model('Source', sourceSchema),
    sourceFileParts: connection.model('SourceFilePart', sourceFilePartSchema),
    sourceTextParts: connection.model('SourceTextPart', sourceTextPartSchema),
    sourcePages: connection.model('SourcePage', sourcePageSchema),
    sourceRevisions: connection.model('SourceRevision', sourceRevisionSchema),
    retrievalIndexParts: connection.model('RetrievalIndexPart', retrievalIndexPartSchema),
    retrievalVectors: connection.model('RetrievalVector', retrievalVectorSchema),
    assets: connection.model('Asset', assetSchema),
    contacts: connection.model('Contact', contactSchema),
    attributes: connection.model('CustomAttribute', attributeSchema),
    rateLimits: connection.model('RateLimit', rateLimitSchema),
    usage: connection.model('Usage', usageSchema),
    leads: connection.model('Lead', leadSchema),
    pageBlocks: connection.model('PageBlock', pageBlockSchema),
    conversations: connection.model('Conversation', conversationSchema),
    conversationMessages: connection.model('ConversationMessage', conversationMessageSchema),
    handoffNotices: connection.model('HandoffNotice', handoffNoticeSchema),
    bindings: connection.model('Binding', bindingSchema),
    digests: connection.model('Digest', digestSchema),
    digestRuns: connection.model('DigestRun', digestRunSchema),
    webhooks: connection.model('Webhook', webhookSchema),
    webhookDeliveries: connection.model('WebhookDelivery', webhookDeliverySchema),
    webhookAttempts: connection.model('WebhookAttempt', webhookAttemptSchema),
    adapterClaims: connection.model('AdapterClaim', adapterClaimSchema),
    commandServers: connection.model('CommandServers', commandServersSchema),
    activityHours: connection.model('ActivityHour', activityHourSchema),
    unansweredGroups: connection.model('UnansweredGroup', unansweredGroupSchema),
    consoleSessions: connection.model('ConsoleSession', consoleSessionSchema),
    consoleLinks: connection.model('ConsoleLink', consoleLinkSchema),
  };
}

export type MongoModels = ReturnType<typeof mongoModels>;
