import { availableParallelism } from 'node:os';
import { workerJobs } from '../../worker-thread.js';
import { joinReadings, sourceReading, type SourceReading } from '../index-parts.js';
import { closeSections, joinedTextBlocks, readBlocks, readsOnAsAtStart, type ReadsOn } from '../structure.js';
import { packTexts, unpackReading, type PackedReading, type PackedTexts } from './packed-texts.js';

// Reading a source (its sections, then their terms) is most of a training's work. A large source
// is read in pieces at once, one a core (but the event loop's) up to four: the training worker
// reads the first piece of its blocks while reading helper threads (reading-worker.ts) read the
// others, each as a text of its own, and the pieces are joined. That is what reading it whole
// gives when each piece reads as it would from a text's start: its first line is a heading outside
// a code block, or nothing of the piece before runs on into it (readsOnAsAtStart). So pieces are
// parted at a heading near each parting point when there is one; from the first piece that does
// not read alike after all, the worker reads the rest itself, so the index is always the one
// reading on one thread gives. A section's terms depend on that section alone, so the pieces'
// readings join as well (joinReadings). A small source is read on one thread: handing pieces of it
// over would cost more than it saves.

/** Characters of a piece at least: a source of fewer than twice this is read on one thread. */
export const PIECE_CHARS = 256 * 1024;
/** Threads that may read a source at once: the machine's cores, up to four (each helper holds its own word lists). */
export const READING_THREADS = Math.min(availableParallelism(), 4);
/**
 * Threads a source is read on unless told otherwise: a core fewer than the machine has, so that the
 * event loop keeps one. Reading in pieces takes more CPU in all than reading on one thread (pieces
 * handed over and joined, each thread with its own compiled code and collector): it pays only where
 * a core would otherwise idle, and on a two-core hub serving requests none does.
 */
export const DEFAULT_READING_THREADS = Math.max(1, Math.min(availableParallelism() - 1, READING_THREADS));
/** Blocks after a parting point looked at for a heading to part the pieces at. */
const HEADING_SEARCH_BLOCKS = 256;

/** What a reading helper is handed: a piece's blocks, and whether text follows them. */
export type PieceJob = { blocks: PackedTexts; followed: boolean };

/** What a reading helper answers for the piece it is handed. */
export type PieceRead = {
  reading: PackedReading;
  /** Which blocks after these read as from a text's start (readsOnAsAtStart of the state these end in). */
  readsOn: ReadsOn;
};

type Piece = { reading: SourceReading; readsOn: ReadsOn };

/** Whether a piece read from a text's start reads as it does after blocks that leave `readsOn`. */
const readsAlike = (readsOn: ReadsOn, atHeading: boolean) => readsOn === 'all' || (readsOn === 'headed' && atHeading);

type ReadOnHelper = (job: PieceJob) => Promise<PieceRead>;

const helpers = Array.from(
  { length: READING_THREADS - 1 },
  (_, k) => workerJobs(new URL('./reading-worker.ts', import.meta.url), `reading helper ${k + 1}`) as ReadOnHelper,
);

/**
 * Starts the reading helpers a source is read on by default, their word lists loaded, so that the
 * first large source read does not wait for them (the others start when first handed a piece).
 */
export function startReadingHelpers(): void {
  for (const readOnHelper of helpers.slice(0, DEFAULT_READING_THREADS - 1)) readOnHelper({ blocks: packTexts(['Warm up.']), followed: false }).catch(() => {});
}

/** The reading of a piece's blocks, read as a text of its own (on a reading helper); `followed`: text follows them. */
export function readPiece(blocks: string[], followed: boolean): Piece {
  const { sections, state } = readBlocks(blocks, 0, blocks.length, undefined, followed);
  return { reading: sourceReading(closeSections(sections, state)), readsOn: readsOnAsAtStart(state) };
}

/** A source to read: its chunks' texts, or their blocks (passageBlocks of the passages they are packed from). */
export type SourceTexts = { chunks: string[] } | { blocks: string[] };

/** A source parted into pieces to read at once (pieces after the first, if any, begin where they may be read alone). */
type Parted = {
  count: number;
  /** Whether piece k begins with a heading (the first's is not asked). */
  atHeading: boolean[];
  /** Whether text follows piece k. */
  followed: boolean[];
  /** The blocks of pieces `from` up to `to`, read as one text. */
  blocksOf(from: number, to: number): string[];
  /** What a helper is handed to read piece k. */
  job(k: number): PieceJob;
};

/** The pieces all but the first of which are handed to helpers (handOutPieces). */
export type HandedOut = { parted: Parted; helped: Promise<Piece | undefined>[] };

/** The reading of a source (read as one text), a large source's read in up to `threads` pieces at once. */
export function readSourceInPieces(source: SourceTexts, threads = DEFAULT_READING_THREADS): Promise<SourceReading> {
  return readHandedOut(handOutPieces(source, threads));
}

/**
 * A source parted into up to `threads` pieces (more than there are helpers queue on them), all but
 * the first handed to helpers at once: readHandedOut reads the first and joins them.
 */
export function handOutPieces(source: SourceTexts, threads = DEFAULT_READING_THREADS): HandedOut {
  const blocks = 'blocks' in source ? source.blocks : joinedTextBlocks(source.chunks);
  const chars = blocks.reduce((sum, block) => sum + block.length, 0);
  const count = helpers.length === 0 ? 1 : Math.min(threads, Math.floor(chars / PIECE_CHARS));
  const parted = partedBlocks(blocks, count);
  // A helper that failed (gone with its thread) leaves its piece to this one.
  const helped = Array.from({ length: parted.count - 1 }, (_, k) => readOnHelper(k, parted.job(k + 1)).then(unpackPiece, () => undefined));
  return { parted, helped };
}

/** The reading of a source handed out: its first piece read here, and the helpers' pieces joined to it. */
export async function readHandedOut({ parted, helped }: HandedOut): Promise<SourceReading> {
  const { count, atHeading, followed } = parted;
  const firstBlocks = parted.blocksOf(0, 1);
  const first = readBlocks(firstBlocks, 0, firstBlocks.length, undefined, followed[0]);
  if (count > 1 && !readsAlike(readsOnAsAtStart(first.state), atHeading[1] as boolean)) {
    // The first piece runs on into the second: read on from where it stands.
    const rest = parted.blocksOf(1, count);
    const on = readBlocks(rest, 0, rest.length, first.state);
    return sourceReading(closeSections([...first.sections, ...on.sections], on.state));
  }
  const pieces: Piece[] = [{ reading: sourceReading(closeSections(first.sections, first.state)), readsOn: readsOnAsAtStart(first.state) }];
  for (let k = 1; k < count; k += 1) {
    const before = pieces[k - 1] as Piece;
    if (!readsAlike(before.readsOn, atHeading[k] as boolean)) {
      // The piece before runs on into this one: it and the rest are read as one, from its start.
      pieces[k - 1] = readPiece(parted.blocksOf(k - 1, count), false);
      break;
    }
    pieces.push((await helped[k - 1]) ?? readPiece(parted.blocksOf(k, k + 1), followed[k] as boolean));
  }
  return joinReadings(pieces.map((piece) => piece.reading));
}

/** Piece k+1 read on a helper, the helpers taken in turn (a source is parted only when there is one). */
function readOnHelper(k: number, job: PieceJob): Promise<PieceRead> {
  return (helpers[k % helpers.length] as ReadOnHelper)(job);
}

function unpackPiece({ reading, readsOn }: PieceRead): Piece {
  return { reading: unpackReading(reading), readsOn };
}

/** Blocks parted into `count` pieces (fewer when some would be empty) at partingBlocks. */
function partedBlocks(blocks: string[], count: number): Parted {
  const partings = count > 1 ? partingBlocks(blocks, count) : [];
  const starts = [0, ...partings.map(({ split }) => split)];
  const ends = [...starts.slice(1), blocks.length];
  const blocksOf = (from: number, to: number) => blocks.slice(starts[from], ends[to - 1]);
  const followed = ends.map((end) => HAS_TEXT.test(blocks[end] ?? ''));
  return {
    count: starts.length,
    atHeading: [false, ...partings.map(({ atHeading }) => atHeading)],
    followed,
    blocksOf,
    job: (k) => ({ blocks: packTexts(blocksOf(k, k + 1)), followed: followed[k] as boolean }),
  };
}

type Parting = { split: number; atHeading: boolean };

const HAS_TEXT = /\S/;

/**
 * The blocks `count` pieces part at, in order: for each parting point (by characters), the first
 * block after it to begin with a heading, if one is near, else the one at it; and whether it begins
 * with one. Fewer when pieces would be empty.
 */
function partingBlocks(blocks: string[], count: number): Parting[] {
  const total = blocks.reduce((sum, block) => sum + block.length, 0);
  const partings: Parting[] = [];
  let block = 0;
  let chars = 0;
  for (let k = 1; k < count; k += 1) {
    for (; block < blocks.length && chars < (total * k) / count; block += 1) chars += (blocks[block] as string).length;
    // A heading found past this point already parts there.
    if (block <= (partings.at(-1)?.split ?? 0) || block >= blocks.length) continue;
    partings.push(headingNear(blocks, block));
  }
  return partings;
}

function headingNear(blocks: string[], at: number): Parting {
  for (let k = at; k < Math.min(blocks.length, at + HEADING_SEARCH_BLOCKS); k += 1) {
    if (readBlocks(blocks, k, k + 1).beganWithHeading) return { split: k, atHeading: true };
  }
  return { split: at, atHeading: false };
}
