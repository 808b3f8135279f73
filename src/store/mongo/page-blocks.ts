import type { QueryFilter } from 'mongoose';
import type { TimeRange } from '../port.js';
import type { MongoModels, PageBlockDoc } from './models.js';
import { createdWithin } from './time-range.js';

// A chatbot's leads, and its contacts, are counted in blocks of rows that follow each other in
// the list's (createdAt, _id) order, each block named by the key of its first row. A page at any
// depth is then found by summing block counts and skipping into one block, where skip() alone
// walks every row before the page.
//
// Rows are written first and counted after, in one transaction where the deployment has them.
// Without transactions, a crash in between leaves a row uncounted, and two instances opening a
// block at the same moment can count a row in its neighbour: pages near it are a row off until
// the repair recounts (page-block-repair.ts). Rows carry the server's time, so nearly every one lands
// after all others, in the newest block, which closes at `blockRows`: older blocks hardly grow.

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

type Comparison = '$lt' | '$lte' | '$gt' | '$gte';

/**
 * The documents whose (createdAt, `idField`) compares with `key` as `op` says. The plain bound on
 * createdAt is what the index seeks on; the $or only drops the ties at the bound's time.
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

export type Block = PageBlockDoc & { _id: unknown };

const startOf = (block: PageBlockDoc): RowKey => ({ createdAt: block.createdAt, id: block.rowId });

export function pageBlocks(models: MongoModels, list: ListName, blockRows = BLOCK_ROWS) {
  const blocks = models.pageBlocks;
  const ofList = (chatbotId: string) => ({ chatbotId, list });
  const containing = (chatbotId: string, key: RowKey) =>
    blocks
      .findOne({ ...ofList(chatbotId), ...comparedWith(key, '$lte', 'rowId') })
      .sort({ createdAt: -1, rowId: -1 })
      .lean<Block>();
  const following = (chatbotId: string, key: RowKey) =>
    blocks
      .findOne({ ...ofList(chatbotId), ...comparedWith(key, '$gt', 'rowId') })
      .sort({ createdAt: 1, rowId: 1 })
      .lean<Block>();
  const inOrder = (chatbotId: string, direction: 1 | -1, filter: QueryFilter<PageBlockDoc> = {}) =>
    blocks
      .find({ ...ofList(chatbotId), ...filter }, { createdAt: 1, rowId: 1, rows: 1, lastAt: 1 })
      .sort({ createdAt: direction, rowId: direction })
      .lean<Block[]>()
      .cursor();
  /** Blocks of `blockRows` rows for sorted rows no existing block takes. */
  const open = async (chatbotId: string, keys: RowKey[]) => {
    const opened: PageBlockDoc[] = [];
    for (let i = 0; i < keys.length; i += blockRows) {
      const chunk = keys.slice(i, i + blockRows);
      const [first, last] = [chunk[0], chunk.at(-1)] as [RowKey, RowKey];
      opened.push({ ...ofList(chatbotId), createdAt: first.createdAt, rowId: first.id, rows: chunk.length, lastAt: last.createdAt });
    }
    if (opened.length === 0) return [];
    return (await blocks.insertMany(opened, { lean: true })).map((doc) => doc._id);
  };
  /** How many of the sorted `keys`, all in `block`'s range, it takes: the rest open new blocks. */
  const takenBy = (block: Block | null, hasNext: boolean, keys: RowKey[]) => {
    if (!block) return 0;
    if (hasNext) return keys.length;
    // The newest block takes every row amid those it counted, and newer ones until it is full.
    const amid = keys.filter((key) => key.createdAt <= block.lastAt).length;
    return amid + Math.min(keys.length - amid, Math.max(0, blockRows - block.rows - amid));
  };

  return {
    /** Counts rows just written. */
    async added(chatbotId: string, keys: RowKey[]): Promise<void> {
      const sorted = [...keys].sort(byKey);
      for (let from = 0; from < sorted.length; ) {
        const first = sorted[from] as RowKey;
        const block = await containing(chatbotId, first);
        const next = await following(chatbotId, first);
        const end = next ? sorted.findIndex((key) => byKey(key, startOf(next)) >= 0) : -1;
        const segment = sorted.slice(from, end === -1 ? sorted.length : end);
        const taken = takenBy(block, next !== null, segment);
        if (block && taken > 0) {
          const lastAt = (segment[taken - 1] as RowKey).createdAt;
          await blocks.updateOne({ _id: block._id, chatbotId }, { $inc: { rows: taken }, $max: { lastAt } });
        }
        await open(chatbotId, segment.slice(taken));
        from += segment.length;
      }
    },
    /**
     * Divides a block grown past twice `blockRows` (by rows dated amid those it counted) given
     * the keys of its rows, unless its count changed meanwhile. Answers whether it did.
     */
    async divide(block: Block, keys: RowKey[]): Promise<boolean> {
      const { chatbotId } = block;
      const kept = keys.slice(0, blockRows);
      const opened = await open(chatbotId, keys.slice(blockRows));
      const { modifiedCount } = await blocks.updateOne(
        { _id: block._id, chatbotId, rows: keys.length },
        { $set: { rows: kept.length, lastAt: (kept.at(-1) as RowKey).createdAt } },
      );
      if (modifiedCount === 0) await blocks.deleteMany({ chatbotId, _id: { $in: opened } });
      return modifiedCount === 1;
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
        if (before > 0) start = { edge: startOf(block), skip: offset - before };
        if (offset - before < block.rows) break;
        before += block.rows;
      }
      return start;
    },
    /** Where the page `offset` rows into the range, newest first, starts. */
    async newestFirst(chatbotId: string, range: TimeRange, offset: number): Promise<PageStart> {
      let start: PageStart = { skip: offset };
      let before = 0;
      let after: RowKey | undefined;
      for await (const block of inOrder(chatbotId, -1, range.to && { createdAt: { $lte: range.to } })) {
        start = { edge: after, skip: offset - before };
        // The newest block in reach may hold rows past the range's end: those are not counted.
        const counted = !after && range.to ? await rowsInRange(chatbotId, range, startOf(block)) : block.rows;
        if (offset - before < counted || (range.from && block.createdAt < range.from)) break;
        before += counted;
        after = startOf(block);
      }
      return start;
    },
  };

  function rowsInRange(chatbotId: string, range: TimeRange, from: RowKey): Promise<number> {
    return models[list].collection.countDocuments({ chatbotId, ...createdWithin(range), ...comparedWith(from, '$gte') });
  }
}
