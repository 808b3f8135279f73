import type { MongoModels } from './models.js';
import { BLOCK_ROWS, comparedWith, pageBlocks, type Block, type ListName, type RowKey } from './page-blocks.js';

// Keeps the page blocks (page-blocks.ts) true to the rows. At start-up, lists written before
// blocks existed are counted. The periodic repair recounts every block, counts rows a crash left
// uncounted, and divides blocks grown past twice their size. Work in flight is never mistaken for
// a miscount: a block is changed only if it read the same after `settleMs`, conditionally on that
// value, and only rows older than `settleMs` count as left behind.

const LISTS: ListName[] = ['leads', 'contacts'];
/** Keys read at a time when counting a whole list. */
const KEYS_PER_READ = 64 * BLOCK_ROWS;

type Survey = {
  /** Blocks whose count differs from their rows, with the count they should have. */
  miscounted: { block: Block; actual: number }[];
  /** Blocks counted right but grown past twice their size, with the filter of their rows. */
  oversized: { block: Block; rows: object }[];
  /** Rows in no block's range: before the first block, or newer than any the newest one took. */
  strays: { before?: RowKey; after?: Date; rows: number }[];
};

/** Counts the rows of every list that has none counted yet (hubs before page blocks). */
export async function countUncountedLists(models: MongoModels, blockRows = BLOCK_ROWS): Promise<number> {
  let counted = 0;
  for (const list of LISTS) {
    const withRows = (await models[list].collection.distinct('chatbotId')) as string[];
    const withBlocks = new Set((await models.pageBlocks.distinct('chatbotId', { list })) as string[]);
    for (const chatbotId of withRows.filter((id) => !withBlocks.has(id))) {
      counted += await countStrays(models, list, chatbotId, {}, blockRows);
    }
  }
  return counted;
}

/** Makes page blocks true to their rows again; answers how many blocks and rows it changed or counted. */
export async function recountPageBlocks(
  models: MongoModels,
  { settleMs, now }: { settleMs: number; now: Date },
  blockRows = BLOCK_ROWS,
): Promise<number> {
  const settled = new Date(now.getTime() - settleMs);
  const suspects: { list: ListName; chatbotId: string; survey: Survey }[] = [];
  for (const list of LISTS) {
    const chatbotIds = new Set([
      ...((await models[list].collection.distinct('chatbotId')) as string[]),
      ...((await models.pageBlocks.distinct('chatbotId', { list })) as string[]),
    ]);
    for (const chatbotId of chatbotIds) {
      const survey = await surveyList(models, list, chatbotId, settled, blockRows);
      if (Object.values(survey).some((found) => found.length > 0)) suspects.push({ list, chatbotId, survey });
    }
  }
  if (suspects.length === 0) return 0;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  let repaired = 0;
  for (const { list, chatbotId, survey } of suspects) {
    const again = await surveyList(models, list, chatbotId, settled, blockRows);
    if (JSON.stringify(again) !== JSON.stringify(survey)) continue;
    for (const { block, actual } of survey.miscounted) {
      const { modifiedCount } = await models.pageBlocks.updateOne(
        { _id: block._id, chatbotId, rows: block.rows },
        { $set: { rows: actual } },
      );
      repaired += modifiedCount;
    }
    for (const { block, rows } of survey.oversized) {
      const keys = await keysOf(models, list, { chatbotId, ...rows });
      if (await pageBlocks(models, list, blockRows).divide(block, keys)) repaired += 1;
    }
    for (const { before, after } of survey.strays) {
      const range = {
        ...(before && comparedWith(before, '$lt')),
        createdAt: { ...(after && { $gt: after }), $lte: settled },
      };
      repaired += await countStrays(models, list, chatbotId, range, blockRows);
    }
  }
  return repaired;
}

async function surveyList(
  models: MongoModels,
  list: ListName,
  chatbotId: string,
  settled: Date,
  blockRows: number,
): Promise<Survey> {
  const rows = models[list].collection;
  const blocks = await models.pageBlocks
    .find({ chatbotId, list })
    .sort({ createdAt: 1, rowId: 1 })
    .lean<Block[]>();
  const survey: Survey = { miscounted: [], oversized: [], strays: [] };
  const keyOf = (block: Block): RowKey => ({ createdAt: block.createdAt, id: block.rowId });
  const [first, newest] = [blocks[0], blocks.at(-1)];
  const before = first && keyOf(first);
  const strayBefore = await rows.countDocuments({
    chatbotId,
    createdAt: { $lte: settled },
    ...(before && comparedWith(before, '$lt')),
  });
  if (strayBefore > 0) survey.strays.push({ ...(before && { before }), rows: strayBefore });
  for (const [i, block] of blocks.entries()) {
    const next = blocks[i + 1];
    const within = {
      $and: [
        comparedWith(keyOf(block), '$gte'),
        next ? comparedWith(keyOf(next), '$lt') : { createdAt: { $lte: block.lastAt } },
      ],
    };
    const actual = await rows.countDocuments({ chatbotId, ...within });
    if (actual !== block.rows) survey.miscounted.push({ block, actual });
    else if (actual > 2 * blockRows) survey.oversized.push({ block, rows: within });
  }
  if (newest) {
    const after = newest.lastAt;
    const strayAfter = await rows.countDocuments({ chatbotId, createdAt: { $gt: after, $lte: settled } });
    if (strayAfter > 0) survey.strays.push({ after, rows: strayAfter });
  }
  return survey;
}

/** Counts the rows `filter` selects (uncounted ones), reading their keys in order. */
async function countStrays(
  models: MongoModels,
  list: ListName,
  chatbotId: string,
  filter: object,
  blockRows: number,
): Promise<number> {
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
