import mongoose from 'mongoose';
import type { Store } from '../port.js';
import { mongoAccounts } from './accounts.js';
import { mongoAssets } from './assets.js';
import { mongoAttributes } from './attributes.js';
import { mongoBindings } from './bindings.js';
import { mongoChatbots } from './chatbots.js';
import { mongoContacts } from './contacts.js';
import { mongoConversations } from './conversations.js';
import { mongoDigestRuns } from './digest-runs.js';
import { mongoDigests } from './digests.js';
import { mongoLeads } from './leads.js';
import { mongoModels } from './models.js';
import { mongoRateLimits } from './rate-limits.js';
import { mongoRetrieval } from './retrieval.js';
import { mongoTraining } from './training.js';
import { mongoUsage } from './usage.js';

/** Connects to MongoDB and makes sure every collection's indexes exist. */
export async function openMongoStore(url: string): Promise<Store> {
  // A connection of our own, not mongoose's global one, so several stores can coexist (tests).
  const connection = await mongoose.createConnection(url).asPromise();
  const models = mongoModels(connection);
  try {
    for (const model of Object.values(models)) await model.createIndexes();
  } catch (error) {
    await connection.close();
    throw error;
  }

  return {
    engine: 'mongodb',
    accounts: mongoAccounts(models),
    chatbots: mongoChatbots(models),
    training: mongoTraining(models),
    retrieval: mongoRetrieval(models),
    assets: mongoAssets(models),
    leads: mongoLeads(models),
    conversations: mongoConversations(models),
    contacts: mongoContacts(models),
    attributes: mongoAttributes(models),
    rateLimits: mongoRateLimits(models),
    usage: mongoUsage(models),
    bindings: mongoBindings(models),
    digests: mongoDigests(models),
    digestRuns: mongoDigestRuns(models),
    async ping() {
      await connection.getClient().db().admin().ping();
    },
    async close() {
      await connection.close();
    },
  };
}
