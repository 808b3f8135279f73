import { availableParallelism } from 'node:os';
import { workerJobs } from '../../worker-thread.js';
import { joinReadings, readSectionTerms, sourceReading, type SourceReading } from '../index-parts.js';
import { closeSections, joinedTextBlocks, readBlocks, readsAsAtStart, type Section } from '../structure.js';
import { packTexts, unpackReading, type PackedReading, type PackedTexts } from './packed-texts.js';

// Reading a source (its sections, then their terms) is most of a training's work. A large source
// is read in pieces at once, one a core up to four: the training worker reads the first piece of
// its blocks while reading helper threads (reading-worker.ts) read the others, each as a text of
// its own, and the pieces are joined. That is what reading it whole gives when each piece reads as
// it would from a text's start: its first line is a heading, or nothing of the piece before runs
// on into it (readsAsAtStart). So pieces are parted at a heading near each parting point when
// there is one; from the first piece that does not read alike after all, the worker reads the
// rest itself, so the index is always the one reading on one thread gives. A section's terms
// depend on that section alone, so the pieces' terms join as well (joinSectionTerms). A small
// source is read on one thread: handing pieces of it over would cost more than it saves.

/** Characters of a piece at least: a source of fewer than twice this is read on one thread. */
export const PIECE_CHARS = 256 * 1024;
/** Threads reading a source at once: the machine's cores, up to four (each helper holds its own word lists). */
export const READING_THREADS = Math.min(availableParallelism(), 4);
/** Blocks after a parting point looked at for a heading to part the pieces at. */
const HEADING_SEARCH_BLOCKS = 256;

/** What a reading helper answers for the blocks it is handed. */
export type PieceRead = {
  reading: PackedReading;
  /** Whether the blocks after these read as from a text's start (readsAsAtStart of the state these end in). */
  endsAsAtStart: boolean;
};

type Piece = { reading: SourceReading; endsAsAtStart: boolean };

type ReadOnHelper = (blocks: PackedTexts) => Promise<PieceRead>;

const helpers = Array.from(
  { length: READING_THREADS - 1 },
  (_, k) => workerJobs(new URL('./reading-worker.ts', import.meta.url), `reading helper ${k + 1}`) as ReadOnHelper,
);

/** Starts the reading helpers, their word lists loaded, so that the first large source read does not wait for them. */
export function startReadingHelpers(): void {
  for (const readOnHelper of helpers) readOnHelper(packTexts(['Warm up.'])).catch(() => {});
}

/** The reading of blocks read as a text of their own (on a reading helper). */
export function readPiece(blocks: string[]): Piece {
  const { sections, state } = readBlocks(blocks, 0, blocks.length);
  return { reading: readingOf(closeSections(sections, state)), endsAsAtStart: readsAsAtStart(state) };
}

const readingOf = (sections: Section[]) => sourceReading(sections, readSectionTerms(sections));

/** A source's blocks, parted into pieces, all but the first handed to helpers (handOutPieces). */
export type HandedOut = { blocks: string[]; partings: Parting[]; starts: number[]; ends: number[]; helped: Promise<Piece | undefined>[] };

/** The reading of a source's texts (read as one text), a large source's read in up to `threads` pieces at once. */
export function readSourceInPieces(texts: string[], threads = READING_THREADS): Promise<SourceReading> {
  return readHandedOut(handOutPieces(texts, threads));
}

/**
 * A source's texts (read as one text) parted into up to `threads` pieces (more than there are
 * helpers queue on them), all but the first handed to helpers at once: readHandedOut reads the
 * first and joins them.
 */
export function handOutPieces(texts: string[], threads = READING_THREADS): HandedOut {
  const blocks = joinedTextBlocks(texts);
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  const partings = helpers.length === 0 ? [] : partingBlocks(blocks, Math.min(threads, Math.floor(chars / PIECE_CHARS)));
  const starts = [0, ...partings.map(({ split }) => split)];
  const ends = [...starts.slice(1), blocks.length];
  // A helper that failed (gone with its thread) leaves its piece to this one.
  const helped = starts.slice(1).map((start, k) => readOnHelper(k, blocks.slice(start, ends[k + 1])).then(unpackPiece, () => undefined));
  return { blocks, partings, starts, ends, helped };
}

/** The reading of a source handed out: its first piece read here, and the helpers' pieces joined to it. */
export async function readHandedOut({ blocks, partings, starts, ends, helped }: HandedOut): Promise<SourceReading> {
  const [firstParting] = partings;
  if (!firstParting) return readPiece(blocks).reading;
  const first = readBlocks(blocks, 0, firstParting.split);
  if (!(firstParting.atHeading || readsAsAtStart(first.state))) {
    // The first piece runs on into the second: read on from where it stands.
    const rest = readBlocks(blocks, firstParting.split, blocks.length, first.state);
    return readingOf(closeSections([...first.sections, ...rest.sections], rest.state));
  }
  const pieces: Piece[] = [{ reading: readingOf(closeSections(first.sections, first.state)), endsAsAtStart: readsAsAtStart(first.state) }];
  for (let k = 1; k < starts.length; k += 1) {
    const before = pieces[k - 1] as Piece;
    if (!(partings[k - 1]?.atHeading || before.endsAsAtStart)) {
      // The piece before runs on into this one: it and the rest are read as one, from its start.
      pieces[k - 1] = readPiece(blocks.slice(starts[k - 1]));
      break;
    }
    pieces.push((await helped[k - 1]) ?? readPiece(blocks.slice(starts[k], ends[k])));
  }
  return joinReadings(pieces.map((piece) => piece.reading));
}

/** Piece k+1 read on a helper, the helpers taken in turn (a source is parted only when there is one). */
function readOnHelper(k: number, blocks: string[]): Promise<PieceRead> {
  return (helpers[k % helpers.length] as ReadOnHelper)(packTexts(blocks));
}

function unpackPiece({ reading, endsAsAtStart }: PieceRead): Piece {
  return { reading: unpackReading(reading), endsAsAtStart };
}

type Parting = { split: number; atHeading: boolean };

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
