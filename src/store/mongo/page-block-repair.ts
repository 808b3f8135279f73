import { holding } from './holds.js';
import type { AtomicWrites } from './atomic.js';
import type { MongoModels } from './models.js';
import {
  BLOCK_ROWS,
  comparedWith,
  firstKeyOf,
  pageBlocks,
  type Block,
  type ListName,
  type RowKey,
} from './page-blocks.js';

// Makes the page blocks (page-blocks.ts) true to the rows. At start-up, lists written before page
// blocks existed are counted, before the hub serves. The periodic repair recounts every block,
// counts rows no block counts (a crash between a row and its count on a deployment without
// transactions), and divides blocks grown past twice their size. Work in flight is never mistaken
// for a miscount: a finding is acted on only if a second survey, `settleMs` later, finds it again,
// and then conditionally on the count read; rows newer than `settleMs` are left to the writes
// still counting them. One instance at a time does either (a hold in the claims collection): two
// would count the same rows.

const LISTS: ListName[] = ['leads', 'contacts'];
/** Keys read at a time when counting many rows. */
const KEYS_PER_READ = 64 * BLOCK_ROWS;
const HOLD_ID = 'store-repair:page-blocks';
/** Far longer than a recount takes; a recount cut short by a crash frees the hold this late. */
const HOLD_MS = 30 * 60_000;

type Finding =
  /** A block whose count differs from its rows, with the count it should have. */
  | { miscounted: Block; actual: number }
  /** A block counted right but grown past twice its size, with the filter of its rows. */
  | { oversized: Block; filter: object }
  /** Rows in no block's range: newer than the newest block counted, or in a list without blocks. */
  | { strays: number; after?: Date };

export type RecountOptions = { settleMs: number; now: Date; blockRows?: number };

/**
 * Counts every list that has rows and no blocks: a database written before page blocks existed.
 * Instances starting together wait for the one counting; stop hubs of the older version first,
 * since they write rows without counting them.
 */
export async function countUncountedLists(models: MongoModels, blockRows = BLOCK_ROWS): Promise<number> {
  if ((await uncountedLists(models)).length === 0) return 0;
  for (;;) {
    const counted = await holding(models, HOLD_ID, new Date(), HOLD_MS, async () => {
      let rows = 0;
      for (const { list, chatbotId } of await uncountedLists(models)) {
        rows += await countAll(models, list, chatbotId, {}, blockRows);
      }
      return rows;
    });
    if (counted !== undefined) return counted;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function uncountedLists(models: MongoModels): Promise<{ list: ListName; chatbotId: string }[]> {
  const uncounted = [];
  for (const list of LISTS) {
    const counted = await chatbotsWith(models.pageBlocks.collection, { list });
    for (const chatbotId of await chatbotsWith(models[list].collection)) {
      if (!counted.has(chatbotId)) uncounted.push({ list, chatbotId });
    }
  }
  return uncounted;
}

/** Answers how many blocks it corrected or divided, plus the rows it counted. */
export async function recountPageBlocks(
  models: MongoModels,
  { atomic }: AtomicWrites,
  { settleMs, now, blockRows = BLOCK_ROWS }: RecountOptions,
): Promise<number> {
  const recounted = await holding(models, HOLD_ID, now, HOLD_MS, async () => {
    const settled = new Date(now.getTime() - settleMs);
    const suspects: { list: ListName; chatbotId: string; findings: Finding[] }[] = [];
    for (const list of LISTS) {
      const chatbotIds = new Set([
        ...(await chatbotsWith(models[list].collection)),
        ...(await chatbotsWith(models.pageBlocks.collection, { list })),
      ]);
      for (const chatbotId of chatbotIds) {
        const findings = await survey(models, list, chatbotId, settled, blockRows);
        if (findings.length > 0) suspects.push({ list, chatbotId, findings });
      }
    }
    if (suspects.length === 0) return 0;
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    let repaired = 0;
    for (const { list, chatbotId, findings } of suspects) {
      const again = new Set(
        (await survey(models, list, chatbotId, settled, blockRows)).map((found) => JSON.stringify(found)),
      );
      const blocks = pageBlocks(models, list, blockRows);
      for (const found of findings.filter((finding) => again.has(JSON.stringify(finding)))) {
        if ('miscounted' in found) {
          const { _id, rows } = found.miscounted;
          const { modifiedCount } = await models.pageBlocks.updateOne(
            { _id, chatbotId, rows },
            { $set: { rows: found.actual } },
          );
          repaired += modifiedCount;
        } else if ('oversized' in found) {
          const keys = await keysOf(models, list, { chatbotId, ...found.filter });
          if (await atomic(() => blocks.divide(found.oversized, keys))) repaired += 1;
        } else {
          const stray = { createdAt: { ...(found.after && { $gt: found.after }), $lte: settled } };
          repaired += await countAll(models, list, chatbotId, stray, blockRows);
        }
      }
    }
    return repaired;
  });
  return recounted ?? 0;
}

/** The chatbots `collection` holds documents of (matching `match`), read as a cursor: they may be many. */
async function chatbotsWith(collection: MongoModels['leads']['collection'], match: object = {}): Promise<Set<string>> {
  const ids = new Set<string>();
  const pipeline = [{ $match: match }, { $sort: { chatbotId: 1 } }, { $group: { _id: '$chatbotId' } }];
  for await (const { _id } of collection.aggregate<{ _id: string }>(pipeline)) ids.add(_id);
  return ids;
}

async function survey(
  models: MongoModels,
  list: ListName,
  chatbotId: string,
  settled: Date,
  blockRows: number,
): Promise<Finding[]> {
  const rows = models[list].collection;
  const blocks = await models.pageBlocks.find({ chatbotId, list }).sort({ createdAt: 1, rowId: 1 }).lean<Block[]>();
  const findings: Finding[] = [];
  for (const [i, block] of blocks.entries()) {
    const next = blocks[i + 1];
    const filter = {
      $and: [
        comparedWith(firstKeyOf(block), '$gte'),
        next ? comparedWith(firstKeyOf(next), '$lt') : { createdAt: { $lte: block.lastAt } },
      ],
    };
    const actual = await rows.countDocuments({ chatbotId, ...filter });
    if (actual !== block.rows) findings.push({ miscounted: block, actual });
    else if (actual > 2 * blockRows) findings.push({ oversized: block, filter });
  }
  const after = blocks.at(-1)?.lastAt;
  const strays = await rows.countDocuments({ chatbotId, createdAt: { ...(after && { $gt: after }), $lte: settled } });
  if (strays > 0) findings.push({ strays, ...(after && { after }) });
  return findings;
}

/** Counts every row `filter` selects, reading their keys in order. */
async function countAll(models: MongoModels, list: ListName, chatbotId: string, filter: object, blockRows: number) {
  const blocks = pageBlocks(models, list, blockRows);
  let counted = 0;
  for (let keys = await keysOf(models, list, { chatbotId, ...filter }); keys.length > 0; ) {
    await blocks.added(chatbotId, keys);
    counted += keys.length;
    const last = keys.at(-1) as RowKey;
    keys = await keysOf(models, list, { chatbotId, $and: [filter, comparedWith(last, '$gt')] });
  }
  return counted;
}

/** The keys of the rows `filter` selects, in order, at most KEYS_PER_READ of them. */
async function keysOf(models: MongoModels, list: ListName, filter: object): Promise<RowKey[]> {
  const rows = await models[list].collection
    .find(filter, { projection: { createdAt: 1 } })
    .sort({ createdAt: 1, _id: 1 })
    .limit(KEYS_PER_READ)
    .toArray();
  return rows.map((row) => ({ createdAt: row.createdAt as Date, id: row._id as unknown as string }));
}
