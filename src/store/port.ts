import type { ChatbotSettings, SettingsPatch } from '../settings/chatbot-settings.js';
import type { ActivityCounts, ActivityTally } from './activity-counters.js';
import type { ConversationSource } from './conversation-sources.js';
import type { Language } from '../settings/languages.js';

// The storage port: what the domain needs from a database, and nothing about which one.
// Every method is scoped and atomic as documented; adapters live in ./sqlite and ./mongo and are
// pinned to the same behaviour by test/store/contract.ts.

export type Quota = { messagesPerMonth: number; maxChatbots: number };

export type Account = {
  id: string;
  name: string;
  quota: Quota;
  createdAt: Date;
};

export type ApiKeyRecord = {
  /** SHA-256 of the key, hex. The key itself is never stored. */
  hash: string;
  /** The key's public handle, for listing and revoking it. */
  id: string;
  accountId: string;
  label: string;
  /** The key's first characters (`sb_AbC1`); null for keys stored before prefixes were kept. */
  prefix: string | null;
  createdAt: Date;
};

/** A console sign-in, known by the hash of its cookie's token. */
export type ConsoleSession = {
  tokenHash: string;
  accountId: string;
  /** The hash of the API key it was signed in with; null when signed in with a console link. */
  apiKeyHash: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  /** Unused until then, it ends (it moves forward with each recorded use). */
  expiresAt: Date;
};

/** A one-time console sign-in link, known by the hash of its token. */
export type ConsoleLink = { tokenHash: string; accountId: string; expiresAt: Date };

export type ChatbotStatus = 'training' | 'ready';

export type Chatbot = {
  id: string;
  accountId: string;
  name: string;
  status: ChatbotStatus;
  settings: ChatbotSettings;
  createdAt: Date;
  updatedAt: Date;
};

/** What a list of chatbots shows of each: no need to read (or parse) the rest of the settings. */
export type ChatbotSummary = Omit<Chatbot, 'accountId' | 'settings'> & {
  settings: Pick<ChatbotSettings, 'model' | 'instructions' | 'visibility'>;
};

export type ChatbotChange = {
  name?: string;
  status?: ChatbotStatus;
  settings?: SettingsPatch;
  updatedAt: Date;
};

/** What a passage was read from: a source, or one page of a website source (its own URL and title). */
export type SourceRef = { id: string; title: string; url?: string; type: SourceType };

/** `source` when the material was trained from sources (not for material trained before them). */
export type Chunk = { seq: number; text: string; source?: SourceRef };

/** A chunk to train, with its source when known. */
export type TrainedChunk = string | { text: string; source?: SourceRef };

export type TrainingMaterial = {
  /** Kept for `sourceText()` when given (material trained before sources). */
  sourceText?: string;
  chunks: TrainedChunk[];
  /**
   * The runs of `chunks`, in order, when trained from sources: each source's chunks are
   * contiguous, and recorded with the revision of the text they were made from, so that a later
   * training takes them from the material rather than chunking that text again
   * (SourceRepository.trainedSources); only from material given its `revision`, which tells the
   * sources its training read from others of the same ids, deleted before.
   */
  runs?: SourceRun[];
  /**
   * The source revision the material was built from (SourceRepository.nextRevision): when given,
   * the material becomes current only if what is current was built from an earlier one.
   */
  revision?: number;
};

/** `version` is undefined, and `chunks` empty, for a chatbot never trained. */
export type Material = { version: string | undefined; chunks: Chunk[] };

export type AssetKind = 'profile-picture' | 'icon';

export type Asset = {
  chatbotId: string;
  kind: AssetKind;
  contentType: string;
  data: Buffer;
  /** Content hash, served as the ETag. */
  etag: string;
  updatedAt: Date;
};

export interface AccountRepository {
  /** @throws UniqueViolation when the name is taken. */
  create(account: Account): Promise<void>;
  findById(id: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
  list(): Promise<Account[]>;
  count(): Promise<number>;
  setQuota(id: string, quota: Partial<Quota>): Promise<Account | undefined>;
  /** @throws UniqueViolation when the hash is already stored. */
  addKey(key: ApiKeyRecord): Promise<void>;
  findByKeyHash(hash: string): Promise<Account | undefined>;
  /** The account's keys, oldest first. */
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /**
   * Deletes the account's key `id` and answers it; `'last'` (deleting nothing) when `keepLast` is
   * set and it is the account's only key, so racing revocations never leave the account keyless.
   */
  revokeKey(accountId: string, id: string, keepLast: boolean): Promise<ApiKeyRecord | 'last' | undefined>;
  /**
   * Records that the hub provisioned the key of this hash itself (BOOTSTRAP_API_KEY); again does
   * nothing. Kept when the key is revoked or its account deleted: that is what it tells apart.
   */
  recordProvisioned(hash: string): Promise<void>;
  /** Whether recordProvisioned recorded this hash. */
  wasProvisioned(hash: string): Promise<boolean>;
  /**
   * Deletes the account with what it holds beside its chatbots: its keys, console sessions and
   * links, usage, adapter claims, and webhooks with their deliveries (and on SQLite its chatbots
   * too; elsewhere ChatbotRepository.delete deletes each). False when there is no such account.
   */
  delete(id: string): Promise<boolean>;
}

export interface ConsoleSessionRepository {
  create(session: ConsoleSession): Promise<void>;
  /** The session, unless it expired by `now`. */
  find(tokenHash: string, now: Date): Promise<ConsoleSession | undefined>;
  /** Records a use: moves `lastUsedAt` and `expiresAt` forward, never back. */
  touch(tokenHash: string, lastUsedAt: Date, expiresAt: Date): Promise<void>;
  end(tokenHash: string): Promise<void>;
  /** Ends every session signed in with the key of this hash. */
  endSignedInWith(apiKeyHash: string): Promise<void>;
  addLink(link: ConsoleLink): Promise<void>;
  /** Uses up the link unless it expired by `now` (of racing takers one gets it); answers its account's id. */
  takeLink(tokenHash: string, now: Date): Promise<string | undefined>;
}

export interface ChatbotRepository {
  /** Inserts unless the account already holds `limit` chatbots; answers whether it did. */
  insertWithinLimit(chatbot: Chatbot, limit: number): Promise<boolean>;
  find(accountId: string, id: string): Promise<Chatbot | undefined>;
  /** Whichever account holds it: for public routes (the widget), which carry no key. */
  findPublic(id: string): Promise<Chatbot | undefined>;
  /** Oldest first. */
  list(accountId: string): Promise<ChatbotSummary[]>;
  /** Applies the change atomically (omitted fields keep their values) and answers the result. */
  update(accountId: string, id: string, change: ChatbotChange): Promise<Chatbot | undefined>;
  /**
   * Deletes the chatbot with everything that belongs to it (sources, training material, assets,
   * contacts, attributes, leads, conversations, bindings, digests); answers whether it existed.
   */
  delete(accountId: string, id: string): Promise<boolean>;
}

export interface TrainingRepository {
  /**
   * Replaces a chatbot's material in one step: readers see the old material or the new, never a
   * mix. Answers whether it did (false: material of a later revision is current already).
   */
  replace(chatbotId: string, material: TrainingMaterial): Promise<boolean>;
  /** The current material, read as one consistent snapshot; chunks in source order. */
  material(chatbotId: string): Promise<Material>;
  /** The current material's version and runs, its chunks unread: no runs for material trained before they were recorded. */
  runs(chatbotId: string): Promise<CurrentRuns>;
  /** Changes with every replace: lets a process cache what it builds from the material. */
  version(chatbotId: string): Promise<string | undefined>;
  /**
   * The chatbot's v1 `sourceText`: its API text source's text, else the text given with the
   * material, else '' once trained; undefined for a chatbot never trained.
   */
  sourceText(chatbotId: string): Promise<string | undefined>;
}

/** A chunk's embedding, keyed by the hash of the chunk's text (so a retrain reuses it). */
export type StoredVector = { hash: string; vector: Float32Array };

/** What retrieval computes from a chatbot's material, kept so no process has to compute it again. */
export interface RetrievalRepository {
  /** The serialized index kept for this material version, if one was saved. */
  index(chatbotId: string, version: string): Promise<Uint8Array | undefined>;
  /** Keeps the index of one material version, replacing the chatbot's earlier one. */
  saveIndex(chatbotId: string, version: string, index: Uint8Array): Promise<void>;
  /** Every stored vector of the chatbot made by `model`. */
  vectors(chatbotId: string, model: string): Promise<StoredVector[]>;
  /** Adds vectors; one already stored for the same hash and model is replaced. */
  saveVectors(chatbotId: string, model: string, vectors: StoredVector[]): Promise<void>;
  /** Drops the chatbot's vectors whose hash is not in `keep` (chunks no longer trained). */
  pruneVectors(chatbotId: string, keep: string[]): Promise<void>;
}

export type SourceType = 'text' | 'file' | 'website' | 'qa';

/** `queued` and `processing` while a file is read or a website crawled; only `ready` sources train. */
export type SourceStatus = 'queued' | 'processing' | 'ready' | 'failed';

export type PageCounts = { done: number; failed: number; total: number };

/** Something a chatbot knows: a text, a file, a website or a question with its answer. */
export type Source = {
  id: string;
  chatbotId: string;
  type: SourceType;
  title: string;
  status: SourceStatus;
  /** One plain sentence when failed, else null. */
  error: string | null;
  /** Characters of extracted text. */
  chars: number;
  createdAt: Date;
  updatedAt: Date;
  /** file */
  filename?: string;
  contentType?: string;
  bytes?: number;
  /** website */
  url?: string;
  maxPages?: number;
  pages?: PageCounts;
  /** qa */
  question?: string;
  answer?: string;
};

/** The v1 `sourceText` of a chatbot is its one source of this title, with this id. */
export const API_TEXT_TITLE = 'API text';
export const apiTextSourceId = (chatbotId: string) => `api_${chatbotId}`;

/** The chatbot's API text source holding `text`. */
export function apiTextSource(chatbotId: string, text: string, createdAt: Date, updatedAt = createdAt): NewSource {
  return {
    id: apiTextSourceId(chatbotId),
    chatbotId,
    type: 'text',
    title: API_TEXT_TITLE,
    status: 'ready',
    error: null,
    chars: text.length,
    createdAt,
    updatedAt,
    text,
  };
}

/** A source to store with its extracted text (text, qa, a file once read) and a file's bytes. */
export type NewSource = Source & { text?: string; file?: Buffer };

/** Fields absent keep their values; `text` replaces the extracted text. */
export type SourceChange = Partial<
  Pick<Source, 'title' | 'status' | 'error' | 'chars' | 'question' | 'answer' | 'contentType' | 'maxPages' | 'pages'>
> & { text?: string; updatedAt: Date };

export type SourcePageStatus = 'read' | 'failed' | 'skipped';

/** A page of a website source once crawled: what `pageList` shows, and its text for training. */
export type SourcePage = {
  url: string;
  title: string;
  status: SourcePageStatus;
  chars: number;
  text: string;
  /** Why it failed or was skipped. */
  reason?: string;
};

export type SourceClaim = { now: Date; claimedBy: string; leaseUntil: Date };

/** A ready source's text as training reads it: the source's own, or one piece per website page read. */
export type SourceText = { ref: SourceRef; text: string };

/** A passage of a source's text as training keeps it, naming the source (or website page) it is from. */
export type SourceChunk = { text: string; source: SourceRef };

/**
 * What training takes of one source: its chunks in the current material, with the revision of the
 * text they were made from; or none when they are not of its current text (then training chunks
 * its texts, now at `revision`).
 */
export type TrainedSource = { id: string; revision: number; chunks?: SourceChunk[]; chunksId?: string };

/**
 * `count` chunks in a row of the material, of source `id`'s text at `revision`. `chunksId` names
 * these very chunks, from when they were made: what is computed from chunks may be kept under it
 * (the training worker keeps what it read of them) and found again by the name alone.
 */
export type SourceRun = { id: string; revision: number; count: number; chunksId: string };

/** A source's run in a material version: its chunks are those of seq `start` up to `end` (no chunksId on runs recorded before names were). */
export type MaterialRun = Omit<SourceRun, 'count' | 'chunksId'> & { start: number; end: number; chunksId?: string };

/** The current material's version, the revision it was trained from, and its runs. */
export type CurrentRuns = { version: string | undefined; revision: number | undefined; runs: readonly MaterialRun[] };

/** The revision of a source's text as inserted: what it is chunked for until it changes. */
export const INSERTED_REVISION = 0;

/** A source as a put stored it, and the revision of its text there: what chunks of that text are good for. */
export type PutSource = { source: Source; revision: number };

/** A Q&A source's question and answer as an edit read them. */
export type QaExpectation = { question: string; answer: string };

/**
 * A write refused by the chatbot's character limit: the characters its sources would have held;
 * `undone` when the write had landed and was undone (MongoDB), so a training meanwhile may have taken it in.
 */
export type OverCharLimit = { wouldHold: number; undone?: true };

export const isOverCharLimit = (answer: object | undefined): answer is OverCharLimit => answer !== undefined && 'wouldHold' in answer;

/** What new sources count against a chatbot's character limit: each at least one (a file or website not yet read). */
export const countedChars = (sources: readonly Pick<NewSource, 'chars'>[]) => sources.reduce((sum, { chars }) => sum + Math.max(1, chars), 0);

export interface SourceRepository {
  /**
   * Stores the sources (of one chatbot), with their texts and files, all or none; each at
   * INSERTED_REVISION. With `maxChars`, none when the chatbot's sources would then hold more than
   * that many characters, each new one counted as at least one: answers then the characters they
   * would hold. The check goes with the write, so concurrent writes never pass the limit
   * together (of two racing writes that would, MongoDB may refuse both); so for put and update.
   */
  insert(sources: NewSource[], maxChars?: number): Promise<OverCharLimit | undefined>;
  /**
   * Stores a new website source as insert does, unless the chatbot has a website source whose
   * `url` is one of `sameSite` (the source's own `url` unless given: the caller's spellings of
   * one site's start page), the oldest should there be several: answers that one then, storing
   * nothing, and before the character limit is checked. The check goes with the write, so of
   * racing adds of one site one stores a source and the others answer it.
   */
  insertWebsite(source: NewSource, maxChars?: number, sameSite?: readonly string[]): Promise<Source | OverCharLimit | undefined>;
  /**
   * Stores the source, replacing the one of the same id (keeping its createdAt), and answers it
   * with the revision its text is stored at. With `maxChars`, changes nothing when the chatbot's
   * sources would then hold more than that (answers then what they would hold), the replaced
   * source's characters left out.
   */
  put(source: NewSource, maxChars?: number): Promise<PutSource | OverCharLimit>;
  /**
   * An owner's correction of the answer to `pair.question`, decided with its write: the chatbot's
   * qa source of that very question (the oldest, should there be several) takes the pair's
   * question, answer, title, text, chars and updatedAt, and the others of that question are
   * deleted; with none, `pair` is stored as insert stores it. Of racing corrections of one
   * question, the first stores a pair and the others correct it. Answers the pair as stored. With
   * `maxChars`, changes nothing when the chatbot's sources would then hold more (answers what they
   * would hold), the pairs of that question left out.
   */
  correctQa(pair: NewSource, maxChars?: number): Promise<Source | OverCharLimit>;
  find(chatbotId: string, id: string): Promise<Source | undefined>;
  /** Oldest first, ties by id. */
  list(chatbotId: string): Promise<Source[]>;
  /**
   * Applies the change in one write and answers the source as stored. With `expected`, only while
   * the source's question and answer are still those (undefined otherwise, as for no source): an
   * edit computed from what it read then never overwrites one made in between. With `maxChars`, a
   * change of `chars` changes nothing when the chatbot's sources would then hold more than that
   * (answers then what they would hold).
   */
  update(chatbotId: string, id: string, change: SourceChange, expected?: QaExpectation, maxChars?: number): Promise<Source | OverCharLimit | undefined>;
  /** Deletes the source with its text, file and pages; answers whether it existed. */
  delete(chatbotId: string, id: string): Promise<boolean>;
  /** The first `limit` characters of the source's text (a website's pages read, in order). */
  text(chatbotId: string, id: string, limit: number): Promise<string>;
  /** The bytes of a file source. */
  file(chatbotId: string, id: string): Promise<Buffer | undefined>;
  /** The characters of the chatbot's sources together, leaving out `except`. */
  totalChars(chatbotId: string, except?: string): Promise<number>;
  /** The source's texts to chunk: its own, or one per website page read. */
  texts(chatbotId: string, id: string): Promise<SourceText[]>;
  /**
   * The sources training takes, oldest first, read from one version of the current material: each
   * ready source, with its chunks there when they were made from its current text (its revision);
   * and each source being read again (queued or processing) that the material holds, with the
   * chunks of its last reading, so that a refresh changes the answers only once it is done. A
   * change of a source's text or status gives it a new revision; a source that fails is left out,
   * and so leaves the material.
   */
  trainedSources(chatbotId: string): Promise<TrainedSource[]>;
  /**
   * A number larger than any answered before for the chatbot, taken after a change to its sources:
   * material built from what is read after it includes the change (TrainingMaterial.revision).
   */
  nextRevision(chatbotId: string): Promise<number>;

  // Processing (files read, websites crawled) is a job leased to one process at a time.
  /**
   * Takes the oldest source that is queued, or processing under a lease that ended before `now`
   * (its process died), in one atomic write: it becomes processing, held by `claimedBy` until
   * `leaseUntil`. Of racing claimers exactly one gets it.
   */
  claimNext(claim: SourceClaim): Promise<Source | undefined>;
  /** Extends the lease while `claimedBy` holds it; answers whether it does. */
  renewLease(id: string, claimedBy: string, leaseUntil: Date): Promise<boolean>;
  /**
   * Applies the change and ends the lease, only while `claimedBy` holds it; answers the source then.
   * With `maxChars`, as update: over the limit it changes nothing, the lease still held.
   */
  settle(id: string, claimedBy: string, change: SourceChange, maxChars?: number): Promise<Source | OverCharLimit | undefined>;
  /** Ends the lease at once (a process stopping), leaving the source to be claimed again. */
  release(id: string, claimedBy: string): Promise<void>;

  // A website's pages: its crawl's frontier.
  /** Adds URLs to the source's pages, in order, skipping known ones; answers how many were new. */
  planPages(sourceId: string, urls: string[]): Promise<number>;
  /** The first page planned after `afterSeq` that has no outcome yet. */
  nextPage(sourceId: string, afterSeq: number): Promise<{ seq: number; url: string } | undefined>;
  /**
   * Gives a planned page the main content of this hash, unless another of the source's pages has
   * it: answers that page's URL then. A page's content hash is kept until its pages are cleared.
   */
  claimPageContent(sourceId: string, url: string, contentHash: string): Promise<string | undefined>;
  /** Records a planned page's outcome and answers the source's page counts, which its `pages` now shows. */
  recordPage(sourceId: string, page: SourcePage): Promise<PageCounts>;
  /** Known (planned) pages, read and failed. */
  pageCounts(sourceId: string): Promise<PageCounts>;
  /** The pages with an outcome, in the order planned, without their texts. */
  pageList(chatbotId: string, sourceId: string): Promise<Omit<SourcePage, 'text'>[]>;
  /** Forgets the source's pages (before a crawl starts again). */
  clearPages(sourceId: string): Promise<void>;
}

export interface AssetRepository {
  /** Stores the asset, replacing any earlier one of the same kind. */
  put(asset: Asset): Promise<void>;
  get(chatbotId: string, kind: AssetKind): Promise<Asset | undefined>;
  /** The asset's etag alone, for its address, without reading its bytes (up to 5 MB). */
  etag(chatbotId: string, kind: AssetKind): Promise<string | undefined>;
  /** Answers whether there was one to delete. */
  delete(chatbotId: string, kind: AssetKind): Promise<boolean>;
}

export type Page = { page: number; size: number };

export type PaymentAccount = { label: string; payment_id: string; payment_email: string };

export type Contact = {
  id: string;
  chatbotId: string;
  /** The caller's identifier; `{contactId}` in paths. Unique per chatbot. */
  externalId: string;
  name: string | null;
  /** Stored lower-cased; unique per chatbot when set. */
  email: string | null;
  phonenumber: string | null;
  paymentAccounts: PaymentAccount[];
  customAttributes: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * Fields absent from a change keep their values; `customAttributes` merge by key, a key set to
 * null removed.
 */
export type ContactChange = Partial<
  Pick<Contact, 'externalId' | 'name' | 'email' | 'phonenumber' | 'paymentAccounts' | 'customAttributes'>
> & { updatedAt: Date };

export type AttributeType = 'text' | 'number' | 'boolean' | 'date';

export type CustomAttribute = {
  chatbotId: string;
  /** The key in a contact's `custom_attributes`. Unique per chatbot. */
  name: string;
  label: string;
  type: AttributeType;
  description: string;
  archived: boolean;
  createdAt: Date;
};

export type AttributeChange = Partial<Pick<CustomAttribute, 'label' | 'description' | 'archived'>>;

export type Lead = {
  id: string;
  chatbotId: string;
  accountId: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  /** Set when the lead was captured in a conversation: at most one lead per conversation. */
  conversationId: string | null;
  createdAt: Date;
};

/**
 * A lead whose leads.submit is not yet enqueued. `revision` is 1 when it is created and one more
 * for each correction (an upsert that changes a stored field), so each version is announced once.
 */
export type PendingLead = Lead & { revision: number };

/** Inclusive bounds on a creation time. */
export type TimeRange = { from?: Date; to?: Date };

/** Which conversations a listing holds; a list absent (or empty) means any. */
export type ConversationListFilter = TimeRange & { sources?: ConversationSource[]; handoffStatuses?: HandoffStatus[] };

export type { ConversationSource };

/** A source an answer drew on, as its message cites it. */
export type MessageSource = { id: string; title: string; url?: string };

/**
 * `sources`: an assistant message's citations, absent when it drew on none (a greeting). `kind`:
 * what an assistant message of the chatbot's is, marked where it was written; absent on a team
 * member's reply (which has an `author`), on user messages, and on messages saved before the mark.
 */
export type ConversationMessage = {
  role: 'user' | 'assistant';
  content: string;
  createdAt: Date;
  sources?: MessageSource[];
  author?: Author;
  kind?: MessageKind;
};
/** Who wrote an assistant message that the chatbot did not: a team member, by display name. */
export type Author = { type: 'human'; name: string };
/**
 * What the chatbot said: an answer to the person's question, a decline (the material does not
 * cover it), or what a handoff says (waiting for the team, nobody came, handed back), which answers
 * no question.
 */
export type MessageKind = 'answer' | 'decline' | 'handoff';
/** A reader's rating of an answer (👍/👎). */
export type Feedback = 'up' | 'down';
/** The owner's correction of an answer; the answer's own content stays as it was. */
export type Revision = { answer: string; createdAt: Date };
/**
 * A saved message: its id is assigned by the store (or reserved with reserveMessageIds) and stays
 * the same across reads; `feedback` once someone rated it, `revision` once the owner corrected it.
 */
export type StoredMessage = ConversationMessage & { id: string; feedback?: Feedback; revision?: Revision };

/** An assistant message with the conversation it is in and the user's question it answered. */
export type AnsweredQuestion = {
  conversationId: string;
  source: ConversationSource;
  answer: StoredMessage;
  /** The user's messages between the previous answer and this one, joined; '' when there were none. */
  question: string;
};
/** A message to append: `id` given for every message of the batch (reserved ids, in order) or for none. */
export type NewMessage = ConversationMessage & { id?: string };

export const HANDOFF_STATUSES = ['pending', 'active', 'resolved', 'missed'] as const;

/** Where a conversation handed to a person stands: `pending` until someone takes it, then `active`. */
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];

export const OPEN_HANDOFF: readonly HandoffStatus[] = ['pending', 'active'];

/** Whether the handoff is open: pending or active. */
export const isOpenHandoff = (handoff: Handoff | undefined): boolean => handoff !== undefined && OPEN_HANDOFF.includes(handoff.status);

export type Handoff = {
  status: HandoffStatus;
  requestedAt: Date;
  /** The team member's display name once someone took it. */
  takenBy: string | null;
  /** When an open handoff times out (missed while pending, resolved while active); null once closed. */
  dueAt: Date | null;
  updatedAt: Date;
};

/**
 * Which conversation, of those ever held under one id: the store names each conversation when it
 * creates it, so one begun afresh under an erased conversation's id is told from it by name, not
 * by the clocks of the processes that wrote them. Null for a conversation created before the store
 * named them.
 */
export type Incarnation = string | null;

/** A handoff as its change left it, with the incarnation of its conversation, read in the same write. */
export type ChangedHandoff = Handoff & { incarnation: Incarnation };

/** An open handoff whose time is up, leased to the process that settles it. */
export type DueHandoff = Handoff & { chatbotId: string; conversationId: string; accountId: string };

export type HandoffChange = Pick<Handoff, 'status' | 'dueAt'> & {
  takenBy?: string | null;
  at: Date;
  /** Enqueued with the change, in the same write, when the change applies. */
  notice?: HandoffFollowUp;
  /**
   * Appended to the conversation with the change, in the same write, when the change applies: what
   * a team member or the chatbot says as the handoff moves, with the notice taking it to the person;
   * or what the person says while it stays open (a change keeping its status and dueAt), with the
   * notices taking it to the team. So nothing said while it was open lands after its closing, and
   * nothing after it closed. `lang`, the language the person says they read, replaces the
   * conversation's as an append's does.
   */
  said?: { messages: ConversationMessage[]; notices: (HandoffFollowUp | HandoffReplyNotice)[]; lang?: Language };
};

export type HandoffClaim = { now: Date; claimedBy: string; leaseUntil: Date; limit: number };

export interface HandoffRepository {
  /**
   * Opens a `pending` handoff on an existing conversation unless one is open (pending or active),
   * in one atomic write (a closed one is replaced), enqueuing `notice` with it; answers it when
   * this call opened it.
   */
  request(chatbotId: string, conversationId: string, at: Date, dueAt: Date, notice?: HandoffRequestNotice): Promise<ChangedHandoff | undefined>;
  /** The conversation's latest handoff, open or closed. */
  find(chatbotId: string, conversationId: string): Promise<Handoff | undefined>;
  /**
   * Applies the change only while the handoff's status is one of `from` (and, when `dueAt` is
   * given, its dueAt is that instant: a timeout loses to a newer message), ending any lease;
   * answers it as changed, else undefined.
   */
  transition(
    chatbotId: string,
    conversationId: string,
    from: readonly HandoffStatus[],
    change: HandoffChange,
    dueAt?: Date,
  ): Promise<ChangedHandoff | undefined>;
  /**
   * Takes up to `limit` open handoffs due at `now` that no live lease holds, soonest first, in
   * atomic writes: of racing claimers, each goes to exactly one.
   */
  claimDue(claim: HandoffClaim): Promise<DueHandoff[]>;
}

/**
 * A handoff's thread on its platform: the root message's channel and id (Slack: the message's ts;
 * Discord: the thread channel's id, the root message's too).
 */
export type HandoffThread = { channelId: string; threadId: string };

/**
 * `requested`, `message` and `closed` go to the team's handoff channel; `reply` goes to the person,
 * where they talk to the chatbot.
 */
export type HandoffNoticeKind = 'requested' | 'message' | 'closed' | 'reply';

/** The handoff as a notice reports it: as it stood when the notice was enqueued. */
export type HandoffSnapshot = Pick<Handoff, 'status' | 'requestedAt' | 'takenBy'>;

export type HandoffPerson = { name: string | null; email: string | null; phone: string | null };

export type TranscriptTurn = Pick<ConversationMessage, 'role' | 'content' | 'author'>;

/** A notice that names where it goes itself: a request, or a reply to the person. */
type AddressedNotice = ChannelRef & {
  id: string;
  accountId: string;
  chatbotId: string;
  chatbotName: string;
  conversationId: string;
  source: ConversationSource;
  handoff: HandoffSnapshot;
  createdAt: Date;
};

/**
 * The notice that opens a handoff's feed to a chat adapter: where the request goes (the chatbot's
 * handoff channel) and what the team needs to pick it up.
 */
export type HandoffRequestNotice = AddressedNotice & {
  kind: 'requested';
  transcript: TranscriptTurn[];
  person: HandoffPerson | null;
};

/**
 * A notice that follows in a handoff's feed: a message the person sent, or the handoff closing.
 * It belongs to the handoff its snapshot's `requestedAt` names, goes where that handoff's
 * `requested` notice went, and is not kept when there is none (the handoff has no feed).
 */
export type HandoffFollowUp = {
  kind: 'message' | 'closed';
  id: string;
  chatbotId: string;
  conversationId: string;
  handoff: HandoffSnapshot;
  /** `message`: what the person wrote. */
  text?: string;
  createdAt: Date;
};

/**
 * What the person is told while handed off, for the chat adapter of the place they talk to the
 * chatbot in (the platform, workspace and channel; `thread` on Slack): a team member's reply (with
 * its `author`), the hand-back or the offline message. It follows no request: it names where it
 * goes, and comes in order with the conversation's other replies only.
 */
export type HandoffReplyNotice = AddressedNotice & {
  kind: 'reply';
  text: string;
  author?: Author;
  thread: HandoffThread | null;
};

/** A notice as the feed offers it. */
export type HandoffNotice = Omit<HandoffRequestNotice, 'kind' | 'transcript' | 'person'> & {
  kind: HandoffNoticeKind;
  transcript?: TranscriptTurn[];
  person?: HandoffPerson | null;
  text?: string;
  /** `reply`: the team member who wrote it. */
  author?: Author;
  /**
   * The handoff's thread, recorded when its `requested` notice was done; null until then. A
   * `reply`'s: the person's thread (Slack), else null.
   */
  thread: HandoffThread | null;
  leaseUntil: Date | null;
  doneAt: Date | null;
};

export type HandoffNoticeClaim = {
  accountId: string;
  platform: Platform;
  now: Date;
  leaseUntil: Date;
  limit: number;
  /**
   * Only notices for these workspaces (Slack teams, Discord servers), and those naming none:
   * what one adapter process can post. Undefined: every workspace's.
   */
  workspaceIds?: string[];
  /** `reply` notices too (an adapter that posts them to people); without, the team's alone. */
  replies?: boolean;
};

/** The conversation whose handoff a thread is. */
export type HandoffInThread = { chatbotId: string; conversationId: string; handoff: Handoff };

/**
 * What the chat adapters post about handoffs, per conversation in the order it happened: a feed
 * each notice of which some adapter process posts at least once.
 */
export interface HandoffNoticeRepository {
  /**
   * Leases to the caller, until `leaseUntil`, up to `limit` of the account's undone notices for
   * the platform, oldest first, in atomic writes: of racing claimers, each goes to exactly one.
   * Only a conversation's oldest undone notice is offered, and only while no live lease holds
   * it, so a `message` or `closed` one comes once the `requested` one before it is done. The
   * person's `reply` notices are in an order of their own: they wait for none of the team's. With
   * `workspaceIds`, the oldest of those in the workspaces asked: a follow-up goes to its
   * request's workspace, so it still waits for its request, and another workspace's notices
   * (another handoff's thread) hold up none of them.
   */
  claim(claim: HandoffNoticeClaim): Promise<HandoffNotice[]>;
  /**
   * Marks the account's notice done (again: no change). Done first, a `requested` notice records
   * `thread` as its handoff's thread, which then stays. Answers the notice, undefined for none.
   */
  complete(accountId: string, id: string, thread: HandoffThread | undefined, at: Date): Promise<HandoffNotice | undefined>;
  /** The account's conversation whose current handoff has this thread, else undefined. */
  findByThread(accountId: string, platform: Platform, thread: HandoffThread): Promise<HandoffInThread | undefined>;
  /**
   * Removes the notices done before `doneBefore`, of every account, but keeps the `requested`
   * notice of a conversation's current handoff (findByThread and the follow-ups need it for as
   * long as the conversation is kept) and one an undone notice still follows. Answers how many
   * it removed.
   */
  prune(doneBefore: Date): Promise<number>;
}

export type Conversation = {
  /** The caller's `conversationId`; unique per chatbot. */
  id: string;
  chatbotId: string;
  accountId: string;
  source: ConversationSource;
  contactId: string | null;
  /** The language its person reads, as the widget's window last said; absent when never said. */
  lang?: Language;
  messages: StoredMessage[];
  /** Once the conversation was handed to a person. */
  handoff?: Handoff;
  createdAt: Date;
  updatedAt: Date;
};

/** What is known of a conversation without reading its messages. */
export type ConversationHeader = Pick<Conversation, 'source' | 'lang'>;

export type ConversationAppend = {
  chatbotId: string;
  accountId: string;
  id: string;
  /** Used only when the append creates the conversation (as is contactId). */
  source: ConversationSource;
  contactId: string | null;
  /** The language the person reads, when the client says: it replaces the conversation's. */
  lang?: Language;
  messages: NewMessage[];
  /** Becomes createdAt of a new conversation; updatedAt only ever moves forward to it. */
  at: Date;
  /**
   * Activity counted with the append, in the same write, at `at` (the reply's credit, a decline);
   * the append itself counts the conversation it creates and its messages.
   */
  tally?: ActivityTally;
};

export interface ContactRepository {
  /** All or nothing. @throws UniqueViolation when an external id or email clashes (with stored contacts or within the batch). */
  insertMany(contacts: Contact[]): Promise<void>;
  find(chatbotId: string, externalId: string): Promise<Contact | undefined>;
  /** Oldest first, ties by id: stable across pages. */
  list(chatbotId: string, page: Page): Promise<Contact[]>;
  /** How many contacts the chatbot has (the total behind a listing's pages). */
  count(chatbotId: string): Promise<number>;
  /** Applies the change in one atomic write. @throws UniqueViolation on an external id or email clash. */
  update(chatbotId: string, externalId: string, change: ContactChange): Promise<Contact | undefined>;
  /** Answers the deleted contact. */
  delete(chatbotId: string, externalId: string): Promise<Contact | undefined>;
}

export interface AttributeRepository {
  /** @throws UniqueViolation when the chatbot already has an attribute of that name. */
  create(attribute: CustomAttribute): Promise<void>;
  /** Oldest first. */
  list(chatbotId: string): Promise<CustomAttribute[]>;
  update(chatbotId: string, name: string, change: AttributeChange): Promise<CustomAttribute | undefined>;
}

export interface LeadRepository {
  /** @throws UniqueViolation when the lead names a conversation that already has a lead. */
  insert(lead: Lead): Promise<void>;
  /**
   * The one lead of (chatbotId, conversationId), atomically: the first call creates it; later
   * calls overwrite the name, email and phone they give (non-null) and keep the rest, id and
   * createdAt included. A call that changes a stored field is a correction: the lead's revision
   * goes up and it is marked for leads.submit again, in the same write; one that changes nothing
   * writes nothing. Answers the lead as stored.
   */
  upsertForConversation(lead: Lead & { conversationId: string }): Promise<Lead>;
  /**
   * As upsertForConversation, but only for a conversation that has its lead already: creates
   * none, and answers undefined when there is none.
   */
  correctForConversation(lead: Lead & { conversationId: string }): Promise<Lead | undefined>;
  /**
   * Newest first (ties by id), served by indexes: the cost depends on the page's size, not on
   * other chatbots' leads or leads outside the range (nor, on SQLite, on the page's depth).
   */
  list(chatbotId: string, range: TimeRange, page: Page): Promise<Lead[]>;
  /** The lead collected in the conversation, if any. */
  findForConversation(chatbotId: string, conversationId: string): Promise<Lead | undefined>;
  /**
   * The leads collected in these conversations of the chatbot (a page of a listing), in no set
   * order: at most one each, none of another chatbot's conversations of the same id. One query.
   */
  findForConversations(chatbotId: string, conversationIds: readonly string[]): Promise<Lead[]>;
  /** The chatbot's lead `id`, if it stands (the webhook job asks before sending its leads.submit). */
  find(chatbotId: string, id: string): Promise<Lead | undefined>;
  /**
   * Erases the chatbot's lead `id` with the webhook deliveries (and their attempts) that carry it,
   * whatever their status; answers the deleted lead. Activity counters stay as they are.
   */
  delete(chatbotId: string, id: string): Promise<Lead | undefined>;
}

export interface ConversationRepository {
  /**
   * Appends messages, creating the conversation if it does not exist yet. Concurrent appends to one
   * conversation all land, each batch kept together and in order.
   */
  append(input: ConversationAppend): Promise<void>;
  find(chatbotId: string, id: string): Promise<Conversation | undefined>;
  /** Where the conversation takes place and in what language, read without its messages; undefined for an unknown conversation. */
  header(chatbotId: string, id: string): Promise<ConversationHeader | undefined>;
  /** The conversation's incarnation, read without its messages; undefined for an unknown conversation. */
  incarnation(chatbotId: string, id: string): Promise<Incarnation | undefined>;
  /**
   * The conversation's last `limit` messages, oldest first ([] for an unknown conversation). Its
   * cost follows `limit`, not the conversation's length.
   */
  recentMessages(chatbotId: string, id: string, limit: number): Promise<ConversationMessage[]>;
  /**
   * Newest first by creation time (ties by id); `sources` empty or absent means all. With
   * `handoffStatuses`, only the conversations whose current handoff is in one of them, found
   * through their handoffs: the cost follows how many of the chatbot's handoffs are in them.
   */
  list(chatbotId: string, filter: ConversationListFilter, page: Page): Promise<Conversation[]>;
  /**
   * Ids, in order, for the `count` messages of a later append: a streamed reply names its message
   * before it is complete. Reservations never repeat, across processes too; an unused one is a gap.
   * Concurrent batches stay whole and in order, but may sort by reservation rather than by append.
   */
  reserveMessageIds(count: number): Promise<string[]>;
  /**
   * Sets (or replaces) the feedback on one of the chatbot's assistant messages, and answers whether
   * it is the message's first 👎 (not when it was 👎 already, nor after a 👍 that followed an
   * earlier 👎), decided in the same write: of racing 👎s, one is first. False when the chatbot has
   * no assistant message of that id.
   */
  setFeedback(chatbotId: string, messageId: string, feedback: Feedback): Promise<{ firstDown: boolean } | false>;
  /** The sources one of the chatbot's assistant messages cites ([] for none); undefined for no such message. */
  messageSources(chatbotId: string, messageId: string): Promise<MessageSource[] | undefined>;
  /** One of the chatbot's assistant messages with the question it answered; undefined for any other id. */
  answeredQuestion(chatbotId: string, messageId: string): Promise<AnsweredQuestion | undefined>;
  /** Sets (or replaces) the revision of one of the chatbot's assistant messages; false as setFeedback. */
  setRevision(chatbotId: string, messageId: string, revision: Revision): Promise<boolean>;
  /**
   * Erases the conversation with everything kept of it: its messages (their feedback and
   * revisions), its handoff and handoff notices, the lead collected in it, its asks in unanswered
   * groups (a group it opened goes whole: the group's question is its words), and the webhook
   * deliveries (and their attempts) that carry any of these, whatever their status. Activity
   * counters, and the asks' counts in other groups, stay. Answers whether the conversation existed;
   * a call cut short (MongoDB without transactions) is finished by calling it again.
   */
  delete(chatbotId: string, id: string): Promise<boolean>;
}

/**
 * Per-day activity, kept as counters per chatbot and UTC hour so a day of any time zone is a sum of
 * whole hours (every offset in use is a whole or half hour; half-hour zones are read at the hour
 * they start in, see the analytics domain). The counters live beside the records they count and
 * are written in the same write: conversations and messages by ConversationRepository.append,
 * feedback by setFeedback (at the answer's hour), leads by LeadRepository (at the lead's hour).
 */
export interface ActivityRepository {
  /** Adds to the counters of the chatbot's hour holding `at`, in one atomic write. */
  add(chatbotId: string, at: Date, tally: ActivityTally): Promise<void>;
  /**
   * The hours in [from, to) with anything counted, oldest first, summed over the scope's chatbots.
   * Its cost follows the number of hours (times chatbots), never the number of messages.
   */
  hours(scope: ActivityScope, from: Date, to: Date): Promise<ActivityHour[]>;
}

export type ActivityScope = { chatbotId: string } | { accountId: string };
export type ActivityHour = { hour: Date; counts: ActivityCounts };

export type UnansweredStatus = 'open' | 'resolved' | 'dismissed';

/** One time a question went unanswered; ids null for a reply that was not saved. */
export type UnansweredExample = {
  conversationId: string | null;
  /** The reply that declined, or was rated 👎. */
  messageId: string | null;
  source: ConversationSource;
  askedAt: Date;
};

/** Questions that went unanswered, grouped by meaning; `question` is the first one asked. */
export type UnansweredGroup = {
  id: string;
  chatbotId: string;
  accountId: string;
  question: string;
  /** What the domain compares questions by: distinct, sorted. */
  terms: string[];
  count: number;
  firstAskedAt: Date;
  lastAskedAt: Date;
  status: UnansweredStatus;
  /** The latest UNANSWERED_EXAMPLES, newest first. */
  examples: UnansweredExample[];
};

/** How many examples a group shows. */
export const UNANSWERED_EXAMPLES = 5;

export type UnansweredAsk = {
  chatbotId: string;
  accountId: string;
  /** The group the domain found the question to belong to, if any. */
  groupId?: string;
  /** The group to open when there is none to add to. */
  opening: { id: string; question: string; terms: string[] };
  example: UnansweredExample;
};

/** An ask of a question whose terms (of a question of none, whose wording) may already have a group. */
export type UnansweredRepeat = { chatbotId: string; terms: string[]; question: string; example: UnansweredExample };

export type UnansweredFilter = TimeRange & { status?: UnansweredStatus };

/** A new group whose unanswered.created is not yet enqueued, with the example that opened it. */
export type UnannouncedGroup = { group: UnansweredGroup; opening: UnansweredExample };

export interface UnansweredRepository {
  /** The chatbot's groups sharing a term with `terms`, most recently asked first, at most `limit`. */
  candidates(chatbotId: string, terms: string[], limit: number): Promise<Pick<UnansweredGroup, 'id' | 'terms'>[]>;
  /**
   * Counts one ask into the chatbot's group of exactly `terms` (of a question of none, the same
   * wording: unansweredKey, as record keys it), when there is one, in one atomic write (a resolved
   * or dismissed group reopens, as with record); answers whether it did. An ask of a conversation
   * that no longer exists is not counted, as with record.
   */
  repeat(ask: UnansweredRepeat): Promise<boolean>;
  /**
   * Counts one ask in one atomic write: into `groupId` when given, else into the chatbot's group
   * of exactly the same terms (of a question of none, the same wording: unansweredKey), else into a new group made of `opening` (marked for its webhook
   * event in the same write). A resolved or dismissed group it counts into reopens. Answers the
   * group as stored and whether this call created it; of racing calls with the same terms, one does.
   * An ask of a conversation that no longer exists (erased, even while the ask was being written)
   * is not kept, nor a group it would open: then it answers undefined.
   */
  record(ask: UnansweredAsk): Promise<{ group: UnansweredGroup; created: boolean } | undefined>;
  /**
   * Most asked first, ties by lastAskedAt (newest first), then id; the range bounds lastAskedAt,
   * an absent status means any.
   */
  list(chatbotId: string, filter: UnansweredFilter, page: Page): Promise<UnansweredGroup[]>;
  count(chatbotId: string, filter: UnansweredFilter): Promise<number>;
  find(chatbotId: string, id: string): Promise<UnansweredGroup | undefined>;
  setStatus(chatbotId: string, id: string, status: UnansweredStatus): Promise<UnansweredGroup | undefined>;
  /** Groups created since webhooks know them whose unanswered.created is not yet enqueued, oldest first. */
  unannounced(limit: number): Promise<UnannouncedGroup[]>;
  /** Clears the group's mark once its deliveries are enqueued. */
  markAnnounced(id: string): Promise<void>;
}

export interface UsageRepository {
  /**
   * Takes one message credit of the account for the period (e.g. `2026-11`) unless `limit`
   * are already taken; answers whether it did. Atomic across instances.
   */
  reserveMessage(accountId: string, period: string, limit: number): Promise<boolean>;
  /** Gives back a credit whose reply was never delivered. */
  releaseMessage(accountId: string, period: string): Promise<void>;
  messagesUsed(accountId: string, period: string): Promise<number>;
}

export interface RateLimitRepository {
  /**
   * Counts one hit against `key` in the fixed window starting at `windowStart` and answers the
   * window's count so far, this hit included. Shared by every hub instance on the store.
   */
  hit(key: string, windowStart: Date, windowMs: number): Promise<number>;
  /** The hits counted against `key` in the window starting at `windowStart`, counting none. */
  count(key: string, windowStart: Date): Promise<number>;
}

export type Platform = 'slack' | 'discord';

/** A channel of a chat platform: `workspaceId` is the Slack team or Discord guild. */
export type ChannelRef = { platform: Platform; workspaceId: string; channelId: string };

/** `channelId` `*` (WORKSPACE_DEFAULT) binds the whole workspace. */
export const WORKSPACE_DEFAULT = '*';

export type BindingMode = 'mentions' | 'all';

/** Which chatbot answers in a channel. One per (account, platform, workspaceId, channelId). */
export type Binding = ChannelRef & {
  id: string;
  accountId: string;
  chatbotId: string;
  mode: BindingMode;
  createdAt: Date;
  updatedAt: Date;
};

/** Exact matches; absent fields match anything. */
export type BindingFilter = Partial<ChannelRef & { chatbotId: string }>;

/** A daily summary of a chatbot's activity, posted to a channel at `time` in `timezone`. */
export type Digest = ChannelRef & {
  id: string;
  accountId: string;
  chatbotId: string;
  /** `HH:MM`, 24-hour. */
  time: string;
  /** IANA time zone name, e.g. `Europe/Oslo`. */
  timezone: string;
  postWhenEmpty: boolean;
  createdAt: Date;
  updatedAt: Date;
};

/** Exact matches; absent fields match anything. */
export type DigestFilter = BindingFilter;

export interface BindingRepository {
  /**
   * The channel's one binding, in one atomic write: the first call creates it; later calls for the
   * same (accountId, platform, workspaceId, channelId) replace chatbotId, mode and updatedAt and keep
   * id and createdAt. Answers the binding as stored.
   */
  upsert(binding: Binding): Promise<Binding>;
  /** Oldest first, ties by id. */
  list(accountId: string, filter: BindingFilter, page: Page): Promise<Binding[]>;
  /** The binding of exactly that channel, else the workspace default (`*`), in one read. */
  resolve(accountId: string, channel: ChannelRef): Promise<Binding | undefined>;
  /** Answers the deleted binding. */
  delete(accountId: string, id: string): Promise<Binding | undefined>;
}

export interface DigestRepository {
  /**
   * The one subscription of (accountId, chatbotId, platform, workspaceId, channelId), in one
   * atomic write: later calls replace time, timezone, postWhenEmpty and updatedAt and keep id and
   * createdAt. Answers the subscription as stored.
   */
  upsert(digest: Digest): Promise<Digest>;
  /** Oldest first, ties by id. */
  list(accountId: string, filter: DigestFilter, page: Page): Promise<Digest[]>;
  /** Answers the deleted subscription. */
  delete(accountId: string, id: string): Promise<Digest | undefined>;
  /** Every account's subscriptions, oldest first (for the digest scheduler). */
  listAll(): Promise<Digest[]>;
}

/**
 * How a digest run ended: `posted` (the message is in the channel), `skipped` (nothing to post:
 * no leads and postWhenEmpty off), `missed` (no clock ran within the catch-up window, so it was
 * never posted) or `failed` (posting failed, or the platform is not configured).
 */
export type DigestRunStatus = 'posted' | 'skipped' | 'missed' | 'failed';

/**
 * One scheduled occurrence of a digest, claimed by the clock process that runs it. Unique per
 * (digestId, localDate), so each subscription posts at most once per local day.
 */
export type DigestRun = {
  digestId: string;
  /** The subscription's local date of the occurrence, `YYYY-MM-DD` in its timezone. */
  localDate: string;
  /** The instant the occurrence was due. */
  scheduledAt: Date;
  /** Which process claimed it (host, pid and a random part), for the operator. */
  claimedBy: string;
  claimedAt: Date;
  /** Until when the claimer holds an unfinished run; after it, another process may claim it again. */
  leaseUntil: Date;
  /** null while the run is in progress. */
  status: DigestRunStatus | null;
  attempts: number;
  error: string | null;
  finishedAt: Date | null;
};

export type DigestRunClaim = Pick<DigestRun, 'digestId' | 'localDate' | 'scheduledAt' | 'claimedBy' | 'claimedAt' | 'leaseUntil'>;

export type DigestRunResult = {
  status: DigestRunStatus;
  attempts: number;
  error?: string;
  finishedAt: Date;
};

export interface DigestRunRepository {
  /**
   * Takes the run of (digestId, localDate), in one atomic write: inserts it, or, when it exists
   * unfinished with a lease that ended before `claimedAt` (its claimer crashed), takes it over.
   * Answers whether the caller now holds it; of racing claimers exactly one does.
   */
  claim(run: DigestRunClaim): Promise<boolean>;
  /** Records how the run ended (the last finish wins). */
  finish(digestId: string, localDate: string, result: DigestRunResult): Promise<void>;
  /** The scheduled instant of the digest's latest `posted` or `skipped` run: where the next one starts. */
  lastPosted(digestId: string): Promise<Date | undefined>;
  /**
   * Each digest's finished run of the latest local date (how its last day went, for its owner), by
   * digest id, in one read for all of them; a digest with none has no entry.
   */
  latestOf(digestIds: readonly string[]): Promise<Map<string, DigestRun>>;
  find(digestId: string, localDate: string): Promise<DigestRun | undefined>;
}

/** What a repair found and fixed (see Store.repair). */
export type RepairReport = { counters: number; orphans: number };

/** Far longer than writing one version of a chatbot's material takes: a repair's default grace. */
export const CHUNK_GRACE_MS = 60 * 60_000;

export type RepairOptions = {
  /** How long a suspect counter must stay unchanged before it is corrected. */
  settleMs?: number;
  /** How old a chunk set that is not current must be before it is removed. */
  chunkGraceMs?: number;
  now?: Date;
};

/** The events a webhook can subscribe to; `ping` is sent only by a test request. */
export type WebhookEvent = 'leads.submit' | 'unanswered.created' | 'handoff.requested' | 'handoff.resolved';
export type WebhookEventType = WebhookEvent | 'ping';

/** An account's subscription to events, delivered as signed POSTs to `url`. */
export type Webhook = {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEvent[];
  /** Only this chatbot's events; null for every chatbot of the account. */
  chatbotId: string | null;
  /** Signs deliveries. Stored as given (it must be usable to sign); never listed or logged. */
  secret: string;
  enabled: boolean;
  /** Why the hub disabled it; null while enabled. */
  disabledReason: string | null;
  /** Since when every delivery has failed; null after a success. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/** What an owner may change of a webhook, and what the change resets with it. */
export type WebhookChange = Partial<Pick<Webhook, 'url' | 'events' | 'chatbotId' | 'secret' | 'enabled' | 'disabledReason' | 'failingSince'>> &
  Pick<Webhook, 'updatedAt'>;

/** Exact matches; absent fields match anything. `event` matches webhooks subscribed to it. */
export type WebhookFilter = { chatbotId?: string; event?: WebhookEvent; enabled?: boolean };

export interface WebhookRepository {
  create(webhook: Webhook): Promise<void>;
  find(accountId: string, id: string): Promise<Webhook | undefined>;
  /** Any account's (for the delivery job). */
  findById(id: string): Promise<Webhook | undefined>;
  /** Oldest first, ties by id. */
  list(accountId: string, filter: WebhookFilter, page: Page): Promise<Webhook[]>;
  /** Answers the webhook as changed; undefined when the account has no such webhook. */
  update(accountId: string, id: string, change: WebhookChange): Promise<Webhook | undefined>;
  /** Answers the deleted webhook; its outbox entries and attempts go with it. */
  delete(accountId: string, id: string): Promise<Webhook | undefined>;
  /** The enabled webhooks of the account subscribed to `event` for this chatbot (theirs or every chatbot). */
  subscribers(accountId: string, chatbotId: string, event: WebhookEvent): Promise<Webhook[]>;
  /** Clears failingSince after a delivery got through. */
  noteSuccess(id: string): Promise<void>;
  /** Sets failingSince unless already set, in one write; answers it as stored. */
  noteFailure(id: string, at: Date): Promise<Date | undefined>;
  /**
   * Disables the webhook for the failing streak that began at `failingSince`: not when that streak
   * has ended since (a success, or the owner turning it on again), so a retry that was already
   * failing cannot undo the owner's change.
   */
  disable(id: string, reason: string, at: Date, failingSince: Date): Promise<void>;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one webhook, in the outbox until it is delivered or given up. */
export type WebhookDelivery = {
  /** Also the event's id (`X-Switchboard-Event-Id`). */
  id: string;
  webhookId: string;
  accountId: string;
  /** The chatbot the event is about (null for a ping of an account-wide webhook): its deletion takes the delivery along. */
  chatbotId: string | null;
  eventType: WebhookEventType;
  /** What the event is about (`leads.submit:<leadId>:<revision>`): unique per webhook, so an event is enqueued once. */
  eventKey: string;
  /** The JSON body, fixed at enqueue: every attempt sends, and signs, the same bytes. */
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  /** Which process holds it, until when; null when none does. */
  claimedBy: string | null;
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export type WebhookDeliveryClaim = { now: Date; claimedBy: string; leaseUntil: Date; limit: number };

/** How one attempt ended, and what becomes of its delivery. */
export type WebhookAttemptOutcome = {
  at: Date;
  /** The receiver's HTTP status; null when there was no answer. */
  responseStatus: number | null;
  error: string | null;
  status: WebhookDeliveryStatus;
  /** When status stays `pending`. */
  nextAttemptAt: Date;
};

export type WebhookAttempt = {
  deliveryId: string;
  webhookId: string;
  eventType: WebhookEventType;
  /** 1 for the first try of the delivery. */
  attempt: number;
  /** The delivery's status after this attempt. */
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  error: string | null;
  at: Date;
};

export interface WebhookOutboxRepository {
  /**
   * Leads whose leads.submit is not yet enqueued, oldest first, at their current revision. The
   * lead repository marks every lead it creates or corrects in the same write, so none is lost to
   * a crash.
   */
  unannouncedLeads(limit: number): Promise<PendingLead[]>;
  /**
   * Enqueues the deliveries of the lead's `revision` (skipping any already there) and clears its
   * mark unless a correction made a later revision meanwhile, which stays marked. Idempotent.
   */
  announceLead(leadId: string, revision: number, deliveries: WebhookDelivery[]): Promise<void>;
  /** Adds a delivery unless its (webhookId, eventKey) is already there. */
  enqueue(delivery: WebhookDelivery): Promise<void>;
  /**
   * Takes up to `limit` pending deliveries due at `now` that no live lease holds, oldest due
   * first, in atomic writes: of racing claimers, each delivery goes to exactly one.
   */
  claimDue(claim: WebhookDeliveryClaim): Promise<WebhookDelivery[]>;
  /**
   * Records an attempt and what becomes of the delivery, releasing the lease, only while
   * `claimedBy` still holds it; answers whether it did.
   */
  settle(id: string, claimedBy: string, outcome: WebhookAttemptOutcome): Promise<boolean>;
  /** Removes a delivery, with its attempts, whoever holds it: what it carries was erased, so it is never sent. */
  drop(id: string): Promise<void>;
  find(id: string): Promise<WebhookDelivery | undefined>;
  /**
   * Makes the webhook's delivery `id`, delivered or failed, pending again and due at `at`, its
   * attempts kept; one still pending stays as it is. Answers it, or undefined when the webhook has
   * no such delivery.
   */
  requeue(webhookId: string, id: string, at: Date): Promise<WebhookDelivery | undefined>;
  /** A webhook's attempts, newest first (ties by delivery and attempt number). */
  attempts(webhookId: string, page: Page): Promise<WebhookAttempt[]>;
  /**
   * Removes the deliveries done (delivered or failed) before `doneBefore`, with their attempts, a
   * batch at a time; pending ones stay, however old. Answers how many deliveries went.
   */
  prune(doneBefore: Date): Promise<number>;
}

/**
 * Keys the chat adapters hold once across every instance on the store: a Discord message being
 * answered, a Slack thread the bot takes part in. Scoped to the account whose key claims them.
 */
export interface AdapterClaimRepository {
  /**
   * Holds `key` until `expiresAt` unless it is held already (an expired hold is taken over);
   * answers whether this call took it. Of racing claimers exactly one does.
   */
  claim(accountId: string, key: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Whether `key` is held at `now`. */
  held(accountId: string, key: string, now: Date): Promise<boolean>;
}

/**
 * The Discord servers where an application's `/chatbot` may be registered, as its adapter last
 * recorded them: those a start looks at for one to remove, rather than every server the bot is
 * in. Per account (the adapter's key) and application.
 */
export interface CommandServerRepository {
  /** The servers recorded; undefined before the first record. */
  find(accountId: string, applicationId: string): Promise<string[] | undefined>;
  /** Replaces the record. */
  save(accountId: string, applicationId: string, serverIds: string[], at: Date): Promise<void>;
}

export interface Store {
  readonly engine: 'sqlite' | 'mongodb';
  readonly accounts: AccountRepository;
  readonly chatbots: ChatbotRepository;
  readonly training: TrainingRepository;
  readonly sources: SourceRepository;
  readonly retrieval: RetrievalRepository;
  readonly assets: AssetRepository;
  readonly contacts: ContactRepository;
  readonly attributes: AttributeRepository;
  readonly leads: LeadRepository;
  readonly conversations: ConversationRepository;
  readonly rateLimits: RateLimitRepository;
  readonly usage: UsageRepository;
  readonly bindings: BindingRepository;
  readonly digests: DigestRepository;
  readonly digestRuns: DigestRunRepository;
  /**
   * Repairs what a crash between two writes of one operation left behind where the engine has no
   * transactions to prevent it: counters recomputed, orphaned records removed. Safe to run at any
   * time, on any number of instances. On SQLite every other multi-row write is one transaction;
   * material and indexes, written in stages, may leave versions that never became current.
   */
  repair(options?: RepairOptions): Promise<RepairReport>;
  readonly webhooks: WebhookRepository;
  readonly webhookOutbox: WebhookOutboxRepository;
  readonly adapterClaims: AdapterClaimRepository;
  readonly commandServers: CommandServerRepository;
  readonly activity: ActivityRepository;
  readonly unanswered: UnansweredRepository;
  readonly consoleSessions: ConsoleSessionRepository;
  readonly handoffs: HandoffRepository;
  readonly handoffNotices: HandoffNoticeRepository;
  /** Cheap round trip for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
