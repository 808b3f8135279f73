import mongoose from 'mongoose';
import { CHUNK_GRACE_MS, type Store } from '../port.js';
import { mongoAccounts, nameUnnamedKeys } from './accounts.js';
import { mongoActivity, mongoActivityCount } from './activity.js';
import { mongoHandoffNotices, mongoHandoffOutbox } from './handoff-notices.js';
import { mongoHandoffs } from './handoffs.js';
import { mongoAdapterClaims } from './adapter-claims.js';
import { mongoCommandServers } from './command-servers.js';
import { mongoAssets } from './assets.js';
import { atomicWrites } from './atomic.js';
import { mongoAttributes } from './attributes.js';
import { mongoBindings } from './bindings.js';
import { mongoChatbots } from './chatbots.js';
import { mongoConsoleSessions } from './console-sessions.js';
import { mongoContacts } from './contacts.js';
import { mongoConversations } from './conversations.js';
import { mongoDigestRuns } from './digest-runs.js';
import { mongoDigests } from './digests.js';
import { moveSourceTexts } from './api-text-sources.js';
import { migrateIndexes } from './indexes.js';
import { moveEmbeddedMessages } from './legacy-messages.js';
import { dropSourceChunks } from './legacy-source-chunks.js';
import { partSourceTexts } from './legacy-source-texts.js';
import { nameDeliveryChatbots } from './legacy-webhook-deliveries.js';
import { mongoLeads } from './leads.js';
import { mongoModels } from './models.js';
import { countUncountedLists } from './page-block-repair.js';
import { mongoRateLimits } from './rate-limits.js';
import { repairMongo } from './repair.js';
import { mongoRetrieval } from './retrieval.js';
import { mongoSourceTexts } from './source-texts.js';
import { mongoSources } from './sources.js';
import { mongoTraining } from './training.js';
import { mongoUnanswered } from './unanswered.js';
import { mongoUsage } from './usage.js';
import { mongoWebhookOutbox } from './webhook-outbox.js';
import { mongoWebhooks } from './webhooks.js';

const REPAIR_SETTLE_MS = 30_000;

/** Connects to MongoDB and migrates every collection's indexes to the declared ones. */
export async function openMongoStore(url: string): Promise<Store> {
  // A connection of our own, not mongoose's global one, so several stores can coexist (tests).
  const connection = await mongoose.createConnection(url).asPromise();
  const models = mongoModels(connection);
  const sourceTexts = mongoSourceTexts(models);
  const training = mongoTraining(models, sourceTexts);
  let writes;
  try {
    for (const model of Object.values(models)) await migrateIndexes(model as never);
    await moveEmbeddedMessages(models);
    await countUncountedLists(models);
    await nameUnnamedKeys(models);
    await moveSourceTexts(models);
    await partSourceTexts(models, sourceTexts);
    await dropSourceChunks(models);
    await nameDeliveryChatbots(models);
    writes = await atomicWrites(connection);
  } catch (error) {
    await connection.close();
    throw error;
  }

  const countActivity = mongoActivityCount(models);
  const handoffOutbox = mongoHandoffOutbox(models);
  return {
    engine: 'mongodb',
    accounts: mongoAccounts(models),
    chatbots: mongoChatbots(models, writes),
    training,
    sources: mongoSources(models, sourceTexts, training),
    retrieval: mongoRetrieval(models),
    assets: mongoAssets(models),
    leads: mongoLeads(models, writes, countActivity),
    conversations: mongoConversations(models, writes, countActivity),
    contacts: mongoContacts(models, writes),
    attributes: mongoAttributes(models),
    rateLimits: mongoRateLimits(models),
    usage: mongoUsage(models),
    bindings: mongoBindings(models),
    digests: mongoDigests(models),
    digestRuns: mongoDigestRuns(models),
    repair({ settleMs = REPAIR_SETTLE_MS, chunkGraceMs = CHUNK_GRACE_MS, now = new Date() } = {}) {
      return repairMongo(models, writes, { settleMs, chunkGraceMs, now });
    },
    webhooks: mongoWebhooks(models),
    webhookOutbox: mongoWebhookOutbox(models),
    adapterClaims: mongoAdapterClaims(models),
    commandServers: mongoCommandServers(models),
    activity: mongoActivity(models, countActivity),
    unanswered: mongoUnanswered(models),
    consoleSessions: mongoConsoleSessions(models),
    handoffs: mongoHandoffs(models, writes, countActivity, handoffOutbox),
    handoffNotices: mongoHandoffNotices(models),
    async ping() {
      await connection.getClient().db().admin().ping();
    },
    async close() {
      await connection.close();
    },
  };
}
