import type { QueryFilter } from 'mongoose';
import type { TimeRange } from '../port.js';
import type { MongoModels, PageBlockDoc } from './models.js';
import { createdWithin } from './time-range.js';
import { isDuplicateKey } from './unique.js';

// A chatbot's leads, and its contacts, are counted in blocks of rows that follow each other in
// the list's (createdAt, _id) order, each block named by the key of its first row. A page at any
// depth is then found by summing block counts and skipping into one block, where skip() alone
// walks every row before the page.
//
// Every list starts with a head block from the beginning of time; others are opened only after the
// newest, whose count and newest time (`lastAt`) every writer reads first. A row amid those the
// newest block counted is its own. A newer row is taken only if the block still reads as it did,
// until it holds `blockRows`; then one writer closes it, naming the row that opens the next block,
// and any writer creates that block, empty, before counting into it. So two instances never count
// a row in the wrong block: a writer that lost a race reads again (inside a transaction, the two
// writes conflict and one transaction runs again). Rows are written first and counted after, in
// one transaction where the deployment has them; without, a crash in between leaves a row
// uncounted until the repair counts it (page-block-repair.ts).

export const BLOCK_ROWS = 1024;

export type ListName = PageBlockDoc['list'];
/** A row's place in its list: the order of the list's index. */
export type RowKey = { createdAt: Date; id: string };
/**
 * Where a page starts: `skip` rows into the list from `edge`, the first row of the block the
 * page starts in (oldest first) or the first row of the block after it (newest first, exclusive).
 * No edge: from the list's start.
 */
export type PageStart = { edge?: RowKey; skip: number };
export type Block = PageBlockDoc & { _id: unknown };

type Comparison = '$lt' | '$lte' | '$gt' | '$gte';

/**
 * The documents whose (createdAt, `idField`) compares with `key` as `op` says. The plain bound on
 * createdAt is what the index seeks on; the $or only drops the ties at the bound's time. It is an
 * `$and`: to combine two, nest them in another `$and` rather than spreading both.
 */
export function comparedWith(key: RowKey, op: Comparison, idField: '_id' | 'rowId' = '_id') {
  const strictly = op === '$lte' ? '$lt' : op === '$gte' ? '$gt' : op;
  const bound = op === '$lt' || op === '$lte' ? '$lte' : '$gte';
  return {
    $and: [
      { createdAt: { [bound]: key.createdAt } },
      { $or: [{ createdAt: { [strictly]: key.createdAt } }, { [idField]: { [op]: key.id } }] },
    ],
  };
}

const byKey = (a: RowKey, b: RowKey): number =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const firstKeyOf = (block: PageBlockDoc): RowKey => ({ createdAt: block.createdAt, id: block.rowId });
const keyFields = (key: RowKey) => ({ createdAt: key.createdAt, rowId: key.id });
const nextFields = (key: RowKey | undefined) => (key ? { nextAt: key.createdAt, nextId: key.id } : {});
/** The first key of the block after this one: every block but the newest names it. */
const nextKeyOf = (block: PageBlockDoc): RowKey | undefined =>
  block.nextId === undefined ? undefined : { createdAt: block.nextAt as Date, id: block.nextId };
/** Where a list's head block starts: before any row. */
const HEAD: RowKey = { createdAt: new Date(0), id: '' };

export function pageBlocks(models: MongoModels, list: ListName, blockRows = BLOCK_ROWS) {
  const blocks = models.pageBlocks;
  const ofList = (chatbotId: string) => ({ chatbotId, list });
  const containing = (chatbotId: string, key: RowKey) =>
    blocks
      .findOne({ ...ofList(chatbotId), ...comparedWith(key, '$lte', 'rowId') })
      .sort({ createdAt: -1, rowId: -1 })
      .lean<Block>();
  const inOrder = (chatbotId: string, direction: 1 | -1, filter: QueryFilter<PageBlockDoc> = {}) =>
    blocks
      .find({ ...ofList(chatbotId), ...filter }, { createdAt: 1, rowId: 1, rows: 1 })
      .sort({ createdAt: direction, rowId: direction })
      .lean<Block[]>()
      .cursor();
  /** The empty block starting at `key`, unless it exists: several writers may ask at once. */
  const ensure = async (chatbotId: string, key: RowKey) => {
    try {
      await blocks.updateOne(
        { ...ofList(chatbotId), ...keyFields(key) },
        { $setOnInsert: { rows: 0, lastAt: key.createdAt } },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  };
  /** Adds `keys` (sorted) to `block`, if it still reads as `unchanged` says; answers how many it added. */
  const take = async (block: Block, keys: RowKey[], unchanged: QueryFilter<PageBlockDoc> = {}) => {
    const lastAt = (keys.at(-1) as RowKey).createdAt;
    const { modifiedCount } = await blocks.updateOne(
      { _id: block._id, chatbotId: block.chatbotId, ...unchanged },
      { $inc: { rows: keys.length }, $max: { lastAt } },
    );
    return modifiedCount * keys.length;
  };
  /**
   * Counts the first of the sorted `keys`, all from `block`'s first key on: answers how many, 0
   * when it only made way for them (a block created or closed) or lost a race, to read again.
   */
  const countSome = async (chatbotId: string, block: Block | null, keys: RowKey[]) => {
    if (!block) {
      await ensure(chatbotId, HEAD);
      return 0;
    }
    const next = nextKeyOf(block);
    if (next) {
      const within = keys.filter((key) => byKey(key, next) < 0);
      if (within.length > 0) return take(block, within);
      // Closed by a writer that has not created the next block yet (or stopped before it could).
      await ensure(chatbotId, next);
      return 0;
    }
    // The newest block: rows amid those it counted are its own, whatever else happens to it.
    const amid = keys.filter((key) => key.createdAt <= block.lastAt);
    if (amid.length > 0) return take(block, amid);
    const asRead = { nextId: { $exists: false }, lastAt: block.lastAt };
    if (block.rows < blockRows) return take(block, keys.slice(0, blockRows - block.rows), asRead);
    const [first] = keys as [RowKey];
    await blocks.updateOne({ _id: block._id, chatbotId, ...asRead }, { $set: nextFields(first) });
    return 0;
  };

  return {
    /** Counts rows just written. */
    async added(chatbotId: string, keys: RowKey[]): Promise<void> {
      const sorted = [...keys].sort(byKey);
      for (let from = 0; from < sorted.length; ) {
        const block = await containing(chatbotId, sorted[from] as RowKey);
        from += await countSome(chatbotId, block, sorted.slice(from));
      }
    },
    /**
     * Divides a block grown past twice `blockRows` (by rows dated amid those it counted) given
     * the keys of its rows, unless its count changed meanwhile. Answers whether it did.
     */
    async divide(block: Block, keys: RowKey[]): Promise<boolean> {
      const { chatbotId } = block;
      const chunks: RowKey[][] = [];
      for (let i = blockRows; i < keys.length; i += blockRows) chunks.push(keys.slice(i, i + blockRows));
      const opened = await blocks.insertMany(
        chunks.map((chunk, i) => ({
          ...ofList(chatbotId),
          ...keyFields(chunk[0] as RowKey),
          rows: chunk.length,
          lastAt: (chunk.at(-1) as RowKey).createdAt,
          // Each but the last is followed by the next; the last takes what the divided block took.
          ...nextFields(chunks[i + 1]?.[0] ?? nextKeyOf(block)),
        })),
        { lean: true },
      );
      const kept = keys.slice(0, blockRows);
      const { modifiedCount } = await blocks.updateOne(
        { _id: block._id, chatbotId, rows: keys.length },
        { $set: { rows: kept.length, lastAt: (kept.at(-1) as RowKey).createdAt, ...nextFields(chunks[0]?.[0]) } },
      );
      if (modifiedCount === 1) return true;
      // Undone, except where a row was counted in an opened block meanwhile: the next repair
      // recounts those.
      for (const [i, doc] of opened.entries()) {
        await blocks.deleteOne({ _id: doc._id, chatbotId, rows: chunks[i]?.length });
      }
      return false;
    },
    /** Uncounts a row just deleted. */
    async removed(chatbotId: string, key: RowKey): Promise<void> {
      const block = await containing(chatbotId, key);
      if (block) await blocks.updateOne({ _id: block._id, chatbotId }, { $inc: { rows: -1 } });
    },
    async total(chatbotId: string): Promise<number> {
      const [sum] = await blocks.aggregate<{ rows: number }>([
        { $match: ofList(chatbotId) },
        { $group: { _id: null, rows: { $sum: '$rows' } } },
      ]);
      return sum?.rows ?? 0;
    },
    /** Where the page `offset` rows into the list, oldest first, starts. */
    async oldestFirst(chatbotId: string, offset: number): Promise<PageStart> {
      let start: PageStart = { skip: offset };
      let before = 0;
      for await (const block of inOrder(chatbotId, 1)) {
        // Until a row is counted, pages are read from the list's start: rows a crash left uncounted
        // before the first block still show.
        if (before > 0) start = { edge: firstKeyOf(block), skip: offset - before };
        if (offset - before < block.rows) break;
        before += block.rows;
      }
      return start;
    },
    /** Where the page `offset` rows into the range, newest first, starts. */
    async newestFirst(chatbotId: string, range: TimeRange, offset: number): Promise<PageStart> {
      const rowsInRange = (from: RowKey) =>
        models[list].collection.countDocuments({ chatbotId, ...createdWithin(range), ...comparedWith(from, '$gte') });
      let start: PageStart = { skip: offset };
      let before = 0;
      let after: RowKey | undefined;
      for await (const block of inOrder(chatbotId, -1, range.to && { createdAt: { $lte: range.to } })) {
        start = { edge: after, skip: offset - before };
        // The newest block in reach may hold rows past the range's end: those are not counted.
        const counted = !after && range.to ? await rowsInRange(firstKeyOf(block)) : block.rows;
        if (offset - before < counted || (range.from && block.createdAt < range.from)) break;
        before += counted;
        after = firstKeyOf(block);
      }
      return start;
    },
  };
}
