import { workerJobs } from '../../worker-thread.js';
import { joinSectionTerms, readSectionTerms, type SectionTerms } from '../index-parts.js';
import { closeSections, joinedTextBlocks, readBlocks, readBlockSections, readsAsAtStart, type Section } from '../structure.js';
import { packTexts, unpackSections, unpackTexts, type PackedSections, type PackedTexts } from './packed-texts.js';

// Reading a source (its sections, then their terms) is most of a training's work. A large source
// is read in two halves at once: the training worker reads the first half of its blocks while a
// reading helper thread (reading-worker.ts) reads the second as a text of its own, and the two are
// joined. That is what reading it whole gives when the second half reads as it would from a
// text's start: its first line is a heading, or nothing of the first half runs on into it
// (readsAsAtStart). So the halves are parted at a heading near the middle when there is one; when
// they do not read alike after all, the worker reads the second half itself, from where the first
// left off. A section's terms depend on that section alone, so the halves' terms join as well
// (joinSectionTerms). A small source is read on one thread: handing half of it over would cost
// more than it saves.

/** Characters below which a source is read on one thread. */
export const HALVED_FROM_CHARS = 512 * 1024;
/** Blocks after the middle looked at for a heading to part the halves at. */
const HEADING_SEARCH_BLOCKS = 256;

/** What the reading helper answers for the blocks it is handed. */
export type HalfRead = { sections: PackedSections; terms: Omit<SectionTerms, 'vocabulary'> & { vocabulary: PackedTexts } };

const readOnHelper = workerJobs(new URL('./reading-worker.ts', import.meta.url), 'reading helper') as (blocks: PackedTexts) => Promise<HalfRead>;

/** Starts the reading helper, its word lists loaded, so that the first large source read does not wait for it. */
export function startReadingHelper(): void {
  readOnHelper(packTexts(['Warm up.'])).catch(() => {});
}

/** The sections and terms of blocks read as a text of their own (on the reading helper). */
export function readHalf(blocks: string[]): { sections: Section[]; terms: SectionTerms } {
  const sections = readBlockSections(blocks);
  return { sections, terms: readSectionTerms(sections) };
}

/** The sections of a source's texts (read as one text) and their terms, a large source's read in halves on two threads. */
export async function readSourceInHalves(texts: string[]): Promise<{ sections: Section[]; terms: SectionTerms }> {
  const blocks = joinedTextBlocks(texts);
  const parting = texts.reduce((sum, text) => sum + text.length, 0) < HALVED_FROM_CHARS ? undefined : partingBlock(blocks);
  if (parting === undefined) return readHalf(blocks);
  const { split, atHeading } = parting;
  // A helper that failed (gone with its thread) leaves its half to this one.
  const helped = readOnHelper(packTexts(blocks.slice(split))).then(
    ({ sections, terms }) => ({ sections: unpackSections(sections), terms: { ...terms, vocabulary: unpackTexts(terms.vocabulary) } }),
    () => undefined,
  );
  const first = readBlocks(blocks, 0, split);
  if (!atHeading && !readsAsAtStart(first.state)) {
    const rest = readBlocks(blocks, split, blocks.length, first.state);
    const sections = closeSections([...first.sections, ...rest.sections], rest.state);
    return { sections, terms: readSectionTerms(sections) };
  }
  const firstSections = closeSections(first.sections, first.state);
  const firstTerms = readSectionTerms(firstSections);
  const second = (await helped) ?? readHalf(blocks.slice(split));
  return { sections: [...firstSections, ...second.sections], terms: joinSectionTerms([firstTerms, second.terms]) };
}

/**
 * The block the halves part at: the first after the middle (by characters) to begin with a
 * heading, if one is near, else that one; and whether it begins with one.
 */
function partingBlock(blocks: string[]): { split: number; atHeading: boolean } | undefined {
  const total = blocks.reduce((sum, block) => sum + block.length, 0);
  let middle = 0;
  for (let chars = 0; middle < blocks.length && chars < total / 2; middle += 1) chars += (blocks[middle] as string).length;
  if (middle <= 0 || middle >= blocks.length) return undefined;
  for (let k = middle; k < Math.min(blocks.length, middle + HEADING_SEARCH_BLOCKS); k += 1) {
    if (readBlocks(blocks, k, k + 1).beganWithHeading) return { split: k, atHeading: true };
  }
  return { split: middle, atHeading: false };
}
