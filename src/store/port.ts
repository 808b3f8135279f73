import type { ChatbotSettings, SettingsPatch } from '../domain/settings.js';

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
  accountId: string;
  createdAt: Date;
};

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

export type ChatbotChange = {
  name?: string;
  status?: ChatbotStatus;
  settings?: SettingsPatch;
  updatedAt: Date;
};

export type Chunk = { seq: number; text: string };

export type TrainingMaterial = { sourceText: string; chunks: string[] };

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
}

export interface ChatbotRepository {
  /** Inserts unless the account already holds `limit` chatbots; answers whether it did. */
  insertWithinLimit(chatbot: Chatbot, limit: number): Promise<boolean>;
  find(accountId: string, id: string): Promise<Chatbot | undefined>;
  /** Oldest first. */
  list(accountId: string): Promise<Chatbot[]>;
  /** Applies the change atomically (omitted fields keep their values) and answers the result. */
  update(accountId: string, id: string, change: ChatbotChange): Promise<Chatbot | undefined>;
  /** Deletes the chatbot with its training material and assets; answers whether it existed. */
  delete(accountId: string, id: string): Promise<boolean>;
}

export interface TrainingRepository {
  /** Replaces a chatbot's material in one step: readers see the old material or the new, never a mix. */
  replace(chatbotId: string, material: TrainingMaterial): Promise<void>;
  /** In source order. */
  chunks(chatbotId: string): Promise<Chunk[]>;
  sourceText(chatbotId: string): Promise<string | undefined>;
}

export interface AssetRepository {
  /** Stores the asset, replacing any earlier one of the same kind. */
  put(asset: Asset): Promise<void>;
  get(chatbotId: string, kind: AssetKind): Promise<Asset | undefined>;
  /** Answers whether there was one to delete. */
  delete(chatbotId: string, kind: AssetKind): Promise<boolean>;
}

export interface Store {
  readonly engine: 'sqlite' | 'mongodb';
  readonly accounts: AccountRepository;
  readonly chatbots: ChatbotRepository;
  readonly training: TrainingRepository;
  readonly assets: AssetRepository;
  /** Cheap round trip for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
