import { answerJobs } from '../../worker-thread.js';
import { packSections, packTexts, unpackTexts, type PackedTexts } from './packed-texts.js';
import { readPiece, type PieceRead } from './read-in-pieces.js';

// A reading helper: one of the training worker's other threads, which reads a piece of a large
// source's blocks while the training worker reads the first (read-in-pieces.ts).

answerJobs<PackedTexts>(async (blocks) => {
  const { sections, terms, endsAsAtStart } = readPiece(unpackTexts(blocks));
  const { vocabulary, ...lists } = terms;
  const result: PieceRead = { sections: packSections(sections), terms: { ...lists, vocabulary: packTexts(vocabulary) }, endsAsAtStart };
  const transfer = [...Object.values(lists), result.terms.vocabulary.lengths, result.sections.sentenceCounts].map((list) => list.buffer as ArrayBuffer);
  return { result, transfer };
});
