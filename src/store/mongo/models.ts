import { Schema, type Connection } from 'mongoose';
import type { ChatbotSettings } from '../../domain/settings.js';
import type { AssetKind, ChatbotStatus, Quota } from '../port.js';

// Documents as stored. Entities keep their own string id as `_id`.

export type AccountDoc = {
  _id: string;
  name: string;
  quota: Quota;
  /** Chatbots the account holds, kept in step by the chatbot repository to enforce the quota. */
  chatbotCount: number;
  createdAt: Date;
};

export type ApiKeyDoc = { _id: string; accountId: string; createdAt: Date };

export type ChatbotDoc = {
  _id: string;
  accountId: string;
  name: string;
  status: ChatbotStatus;
  settings: ChatbotSettings;
  createdAt: Date;
  updatedAt: Date;
};

/** `version` names the chunk set that goes with `sourceText`. */
export type TrainingSourceDoc = { _id: string; sourceText: string; version: string };

export type TrainingChunkDoc = { chatbotId: string; version: string; seq: number; text: string };

export type AssetDoc = {
  chatbotId: string;
  kind: AssetKind;
  contentType: string;
  data: Buffer;
  etag: string;
  updatedAt: Date;
};

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
  { _id: required(String), accountId: required(String), createdAt: required(Date) },
  { ...options, collection: 'apiKeys' },
);
apiKeySchema.index({ accountId: 1 });

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
  { _id: required(String), sourceText: required(String), version: required(String) },
  { ...options, collection: 'trainingSources' },
);

const trainingChunkSchema = new Schema<TrainingChunkDoc>(
  {
    chatbotId: required(String),
    version: required(String),
    seq: required(Number),
    text: required(String),
  },
  { ...options, collection: 'trainingChunks' },
);
trainingChunkSchema.index({ chatbotId: 1, version: 1, seq: 1 }, { unique: true });

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

/** The models, bound to one connection (never mongoose's global one). */
export function mongoModels(connection: Connection) {
  return {
    accounts: connection.model('Account', accountSchema),
    apiKeys: connection.model('ApiKey', apiKeySchema),
    chatbots: connection.model('Chatbot', chatbotSchema),
    trainingSources: connection.model('TrainingSource', trainingSourceSchema),
    trainingChunks: connection.model('TrainingChunk', trainingChunkSchema),
    assets: connection.model('Asset', assetSchema),
  };
}

export type MongoModels = ReturnType<typeof mongoModels>;
