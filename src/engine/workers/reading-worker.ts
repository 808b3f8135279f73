import { answerJobs } from '../../worker-thread.js';
import { readSectionTerms } from '../index-parts.js';
import { packTexts, unpackSections, type PackedSections } from './packed-texts.js';
import type { PackedSectionTerms } from './terms-in-halves.js';

// The reading helper: the training worker's second thread, which reads the terms of the second
// half of a large source's sections while the training worker reads the first (terms-in-halves.ts).

answerJobs<PackedSections>(async (sections) => {
  const { vocabulary, ...lists } = readSectionTerms(unpackSections(sections));
  const result: PackedSectionTerms = { ...lists, vocabulary: packTexts(vocabulary) };
  const transfer = [lists.keyTerms, lists.keyTermStart, lists.sentenceTerms, lists.sentenceTermStart, result.vocabulary.lengths].map((list) => list.buffer as ArrayBuffer);
  return { result, transfer };
});
