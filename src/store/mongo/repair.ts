import type { mongo } from 'mongoose';
import type { RepairReport } from '../port.js';
import type { AtomicWrites } from './atomic.js';
import type { MongoModels, SourceDoc } from './models.js';
import { recountPageBlocks } from './page-block-repair.js';

// Repairs what a crash between two compensating writes can leave behind on a deployment without
// transactions: an account's chatbot counter above its real count (a chatbot deleted, the counter
// not yet lowered), the children of a deleted chatbot (the cascade cut short: its records, its
// index, its webhooks and its sources' crawled pages among them), training chunks,
// source text parts and file parts of a version that never became current or was superseded (or
// whose source is gone), and page blocks
// that miscount their rows (page-block-repair.ts). Work in flight is never mistaken for debris: a
// counter is lowered only if it read the same after `settleMs`, and chunk sets and text parts are
// removed only once older than `chunkGraceMs`.

export type RepairOptions = { settleMs: number; chunkGraceMs: number; now: Date };

const CHILDREN = [
  'trainingChunks',
  'sources',
  'sourceTextParts',
  'assets',
  'contacts',
  'attributes',
  'leads',
  'pageBlocks',
  'conversations',
  'conversationMessages',
  'handoffNotices',
  'bindings',
  'digests',
  'activityHours',
  'unansweredGroups',
  'webhookDeliveries',
  'webhookAttempts',
  'webhooks',
  'retrievalIndexParts',
  'retrievalVectors',
] as const;

/** Documents whose `_id` is their chatbot's id. */
const KEYED_BY_CHATBOT = ['trainingSources', 'sourceRevisions'] as const;

export async function repairMongo(
  models: MongoModels,
  writes: AtomicWrites,
  options: RepairOptions,
): Promise<RepairReport> {
  const orphans = await removeChildrenOfDeletedChatbots(models);
  const chunks = await removeStaleVersions(models, options);
  // Both wait `settleMs` before correcting: side by side, the repair waits once.
  const [counters, blocks] = await Promise.all([
    correctChatbotCounters(models, options.settleMs),
    recountPageBlocks(models, writes, options),
  ]);
  return { counters: counters + blocks, orphans: orphans + chunks };
}

async function correctChatbotCounters(models: MongoModels, settleMs: number): Promise<number> {
  const suspects = await inflatedCounters(models);
  if (suspects.length === 0) return 0;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const again = new Map((await inflatedCounters(models)).map((suspect) => [suspect.accountId, suspect]));
  let corrected = 0;
  for (const { accountId, counter, actual } of suspects) {
    const now = again.get(accountId);
    if (now?.counter !== counter || now.actual !== actual) continue;
    // Conditional on the value read: a reservation made meanwhile keeps its slot.
    const { modifiedCount } = await models.accounts.updateOne(
      { _id: accountId, chatbotCount: counter },
      { $set: { chatbotCount: actual } },
    );
    corrected += modifiedCount;
  }
  return corrected;
}

type Inflated = { accountId: string; counter: number; actual: number };

async function inflatedCounters(models: MongoModels): Promise<Inflated[]> {
  const counts = await models.chatbots.aggregate<{ _id: string; actual: number }>([
    { $group: { _id: '$accountId', actual: { $sum: 1 } } },
  ]);
  const actualOf = new Map(counts.map((count) => [count._id, count.actual]));
  const accounts = await models.accounts
    .find({ chatbotCount: { $gt: 0 } }, { chatbotCount: 1 })
    .lean<{ _id: string; chatbotCount: number }[]>();
  return accounts
    .map((account) => ({ accountId: account._id, counter: account.chatbotCount, actual: actualOf.get(account._id) ?? 0 }))
    .filter((account) => account.counter > account.actual);
}

/** Of these owner ids, those `owners` holds no document of. */
async function missing(owners: mongo.Collection<{ _id: string }>, ids: (string | null)[]): Promise<string[]> {
  // A webhook's ping names no chatbot when the webhook is the whole account's.
  const named = ids.filter((id) => id !== null);
  const living = new Set((await owners.find({ _id: { $in: named } }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id));
  return named.filter((id) => !living.has(id));
}

const raw = (collection: unknown) => collection as mongo.Collection<{ _id: string }>;

async function removeChildrenOfDeletedChatbots(models: MongoModels): Promise<number> {
  const chatbots = raw(models.chatbots.collection);
  let removed = 0;
  for (const name of CHILDREN) {
    const { collection } = models[name];
    const gone = await missing(chatbots, (await collection.distinct('chatbotId')) as (string | null)[]);
    if (gone.length === 0) continue;
    if (name === 'digests') {
      const digestIds = (await models.digests.find({ chatbotId: { $in: gone } }, { _id: 1 }).lean<{ _id: string }[]>()).map(
        (doc) => doc._id,
      );
      await models.digestRuns.deleteMany({ digestId: { $in: digestIds } });
    }
    removed += (await collection.deleteMany({ chatbotId: { $in: gone } })).deletedCount;
  }
  for (const name of KEYED_BY_CHATBOT) {
    const collection = raw(models[name].collection);
    const gone = await missing(chatbots, await collection.distinct('_id'));
    if (gone.length > 0) removed += (await collection.deleteMany({ _id: { $in: gone } })).deletedCount;
  }
  // A crawled page names its source only: it is an orphan once the source is gone.
  const goneSources = await missing(raw(models.sources.collection), (await models.sourcePages.distinct('sourceId')) as string[]);
  if (goneSources.length > 0) removed += (await models.sourcePages.deleteMany({ sourceId: { $in: goneSources } })).deletedCount;
  return removed;
}

/** Documents written under versions, one of which their owner (a chatbot, a source) names as current. */
type VersionedSets = {
  parts: mongo.Collection;
  owner: 'chatbotId' | 'sourceId';
  /** The current version of each of these owners; an owner gone has none. */
  current(owners: string[]): Promise<Map<string, string | null | undefined>>;
};

/** Sets other than their owner's current one, written before the grace period: never to become current. */
async function removeStaleSets({ parts, owner, current }: VersionedSets, { chunkGraceMs, now }: RepairOptions): Promise<number> {
  // A document's ObjectId holds the time it was written.
  const sets = await parts
    .aggregate<{ _id: { owner: string; version?: string | null }; newest: mongo.ObjectId }>([
      { $group: { _id: { owner: `$${owner}`, version: '$version' }, newest: { $max: '$_id' } } },
    ])
    .toArray();
  const versions = await current([...new Set(sets.map((set) => set._id.owner))]);
  let removed = 0;
  for (const { _id: set, newest } of sets) {
    // Documents without a version (file parts stored before versions) group without one.
    const version = set.version ?? null;
    if (versions.get(set.owner) === version) continue;
    if (now.getTime() - newest.getTimestamp().getTime() < chunkGraceMs) continue;
    removed += (await parts.deleteMany({ [owner]: set.owner, version })).deletedCount;
  }
  return removed;
}

/** A source's version of its text or of its file's bytes, by source id (null for bytes stored before versions). */
function currentOfSources(models: MongoModels, field: 'textVersion' | 'fileVersion') {
  return async (ids: string[]) =>
    new Map(
      (await models.sources.find({ _id: { $in: ids } }, { [field]: 1 }).lean<(Pick<SourceDoc, '_id'> & Partial<Record<typeof field, string | null>>)[]>()).map(
        (source) => [source._id, source[field] ?? null],
      ),
    );
}

/** Training chunk sets, source text parts and file parts of versions that are not current. */
async function removeStaleVersions(models: MongoModels, options: RepairOptions): Promise<number> {
  const chunks = await removeStaleSets(
    {
      parts: models.trainingChunks.collection as unknown as mongo.Collection,
      owner: 'chatbotId',
      current: async (ids) =>
        new Map(
          (await models.trainingSources.find({ _id: { $in: ids } }, { version: 1 }).lean<{ _id: string; version: string }[]>()).map(
            (source) => [source._id, source.version],
          ),
        ),
    },
    options,
  );
  const texts = await removeStaleSets(
    { parts: models.sourceTextParts.collection as unknown as mongo.Collection, owner: 'sourceId', current: currentOfSources(models, 'textVersion') },
    options,
  );
  const files = await removeStaleSets(
    { parts: models.sourceFileParts.collection as unknown as mongo.Collection, owner: 'sourceId', current: currentOfSources(models, 'fileVersion') },
    options,
  );
  return chunks + texts + files;
}
