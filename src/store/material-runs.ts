import type { CurrentRuns, MaterialRun, SourceChunk, SourceRun, SourceStatus, TrainedSource } from './port.js';

// A source's chunks are stored once, in the material: each version records where each source's
// run of chunks lies in it (they are contiguous) and the revision of the text they were made from,
// so that a later training takes an unchanged source's chunks from there rather than chunking its
// text again. Material trained before runs were recorded has none: a chatbot's first training
// after the upgrade chunks its sources again.
//
// A source's revision counts from its creation, so a source deleted and created again under the
// same id (the v1 API text) may come back at a revision a run of the deleted one has. Each source
// records the chatbot's revision when it was created (SourceRepository.nextRevision's counter, its
// createdRevision), and each material the revision its training took before it read the sources
// (TrainingMaterial.revision): only material of a later revision read this source, not one it
// replaced.

/** The runs placed one after another from seq 0, as their chunks are. */
export function placeRuns(runs: readonly SourceRun[]): MaterialRun[] {
  let start = 0;
  return runs.map(({ id, revision, count, chunksId }) => {
    const run = { id, revision, start, end: start + count, chunksId };
    start = run.end;
    return run;
  });
}

/**
 * What trainedSources reads at one moment: the current material's version, the revision it was
 * trained from and its runs, and the chatbot's sources.
 */
export type TrainingSnapshot = CurrentRuns & { sources: readonly SnapshotSource[] };

/** `createdRevision` is Infinity while a store has yet to record it (none of its runs is taken). */
export type SnapshotSource = { id: string; status: SourceStatus; revision: number; createdRevision: number };

/**
 * The sources training takes (SourceRepository.trainedSources), their chunks read from the
 * material `snapshot` names. A version's chunks never change and are deleted only once it is
 * displaced: if it is still current after they are read, none was missed; otherwise the snapshot
 * is taken again.
 */
export async function trainedFromMaterial(
  snapshot: () => Promise<TrainingSnapshot>,
  readRun: (version: string, run: MaterialRun) => Promise<SourceChunk[]>,
  currentVersion: () => Promise<string | undefined>,
): Promise<TrainedSource[]> {
  for (;;) {
    const { version, revision: trainedFrom, runs, sources } = await snapshot();
    const runOf = new Map(runs.map((run) => [run.id, run]));
    const trained: TrainedSource[] = [];
    let read = false;
    for (const { id, status, revision, createdRevision } of sources) {
      const readThisSource = trainedFrom !== undefined && trainedFrom > createdRevision;
      const taken = readThisSource ? runTaken(status, revision, runOf.get(id)) : undefined;
      if (taken && version !== undefined) {
        trained.push({ id, revision: taken.revision, chunks: await readRun(version, taken), ...(taken.chunksId ? { chunksId: taken.chunksId } : {}) });
        read = true;
      } else if (status === 'ready') {
        trained.push({ id, revision });
      }
    }
    if (!read || (await currentVersion()) === version) return trained;
  }
}

/** A ready source's run stands for its current text only; one being read again trains with its last reading; a failed one with none. */
function runTaken(status: SourceStatus, revision: number, run: MaterialRun | undefined): MaterialRun | undefined {
  if (status === 'ready') return run?.revision === revision ? run : undefined;
  return status === 'queued' || status === 'processing' ? run : undefined;
}
