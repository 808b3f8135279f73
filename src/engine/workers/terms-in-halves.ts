import { workerJobs } from '../../worker-thread.js';
import { joinSectionTerms, readSectionTerms, type SectionTerms } from '../index-parts.js';
import type { Section } from '../structure.js';
import { packSections, unpackTexts, type PackedSections, type PackedTexts } from './packed-texts.js';

// Reading a source's terms is most of a training's work, and a section's terms depend on that
// section alone. So the training worker reads the first half of a large source's sections while a
// reading helper thread (reading-worker.ts) reads the second, and joins the two, which is what
// reading them at once gives (joinSectionTerms). A small source is read on one thread: handing
// half of it over would cost more than it saves.

/** Sentences below which a source is read on one thread (about 0.5 MB of text). */
export const HALVED_FROM_SENTENCES = 5_000;

export type PackedSectionTerms = Omit<SectionTerms, 'vocabulary'> & { vocabulary: PackedTexts };

const readOnHelper = workerJobs(new URL('./reading-worker.ts', import.meta.url), 'reading helper') as (
  sections: PackedSections,
) => Promise<PackedSectionTerms>;

/** Starts the reading helper, its word lists loaded, so that the first large source read does not wait for it. */
export function startReadingHelper(): void {
  readOnHelper(packSections([{ key: '', sentences: ['Warm up.'] }])).catch(() => {});
}

/** readSectionTerms(sections), a large source's halves read at once on two threads. */
export async function readTermsInHalves(sections: Section[]): Promise<SectionTerms> {
  const split = halfway(sections);
  if (split === undefined) return readSectionTerms(sections);
  const second = sections.slice(split);
  // A helper that failed (gone with its thread) leaves its half to this one.
  const helped = readOnHelper(packSections(second)).then(
    ({ vocabulary, ...lists }) => ({ ...lists, vocabulary: unpackTexts(vocabulary) }),
    () => undefined,
  );
  const first = readSectionTerms(sections.slice(0, split));
  return joinSectionTerms([first, (await helped) ?? readSectionTerms(second)]);
}

/** The first section of the half with half the sentences, or undefined for a source too small to halve. */
function halfway(sections: Section[]): number | undefined {
  const total = sections.reduce((sum, section) => sum + section.sentences.length, 0);
  if (total < HALVED_FROM_SENTENCES) return undefined;
  let sentences = 0;
  for (const [k, section] of sections.entries()) {
    if (sentences >= total / 2) return k;
    sentences += section.sentences.length;
  }
  return undefined;
}
