import { answerJobs } from '../../worker-thread.js';
import { packSections, packTexts, unpackTexts, type PackedTexts } from './packed-texts.js';
import { readHalf, type HalfRead } from './read-in-halves.js';

// The reading helper: the training worker's second thread, which reads the second half of a large
// source's blocks while the training worker reads the first (read-in-halves.ts).

answerJobs<PackedTexts>(async (blocks) => {
  const { sections, terms } = readHalf(unpackTexts(blocks));
  const { vocabulary, ...lists } = terms;
  const result: HalfRead = { sections: packSections(sections), terms: { ...lists, vocabulary: packTexts(vocabulary) } };
  const transfer = [...Object.values(lists), result.terms.vocabulary.lengths, result.sections.sentenceCounts].map((list) => list.buffer as ArrayBuffer);
  return { result, transfer };
});
