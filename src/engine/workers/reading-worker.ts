import { answerJobs } from '../../worker-thread.js';
import { packReading, unpackTexts } from './packed-texts.js';
import { readPiece, type PieceJob, type PieceRead } from './read-in-pieces.js';

// A reading helper: one of the training worker's other threads, which reads a piece of a large
// source while the training worker reads the first (read-in-pieces.ts).

answerJobs<PieceJob>(async (job) => {
  const { reading, readsOn } = readPiece(unpackTexts(job.blocks), job.followed);
  const { packed, transfer } = packReading(reading);
  return { result: { reading: packed, readsOn } satisfies PieceRead, transfer };
});
