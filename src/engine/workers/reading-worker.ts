import { answerJobs } from '../../worker-thread.js';
import { packReading, unpackTexts, type PackedTexts } from './packed-texts.js';
import { readPiece, type PieceRead } from './read-in-pieces.js';

// A reading helper: one of the training worker's other threads, which reads a piece of a large
// source's blocks while the training worker reads the first (read-in-pieces.ts).

answerJobs<PackedTexts>(async (blocks) => {
  const { reading, endsAsAtStart } = readPiece(unpackTexts(blocks));
  const { packed, transfer } = packReading(reading);
  return { result: { reading: packed, endsAsAtStart } satisfies PieceRead, transfer };
});
