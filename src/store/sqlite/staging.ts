import { setImmediate as betweenRequests } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';

// Large writes (a 10 MB source is about 15,000 chunks) go in as many short transactions, with
// other requests served between them: better-sqlite3 is synchronous, so one long transaction
// would hold the event loop, and every other request, until it commits.

/** Rows per transaction: about a millisecond of writing. */
export const STAGE_ROWS = 256;

/**
 * Runs `step` for each slice of `items`, one transaction per slice, yielding between them. Rows
 * of about a megabyte (parts) go one at a time. Items made as they are asked for (a generator) are
 * made a slice at a time too, between the same yields.
 */
export async function inStages<T>(
  items: Iterable<T>,
  step: (slice: readonly T[], start: number) => void,
  rowsPerStage = STAGE_ROWS,
): Promise<void> {
  let slice: T[] = [];
  let start = 0;
  const written = async () => {
    if (start > 0) await betweenRequests();
    step(slice, start);
    start += slice.length;
    slice = [];
  };
  for (const item of items) {
    slice.push(item);
    if (slice.length === rowsPerStage) await written();
  }
  if (slice.length > 0) await written();
}

/**
 * Repeats a `DELETE … LIMIT ?` statement (the limit its last parameter) until it deletes fewer
 * rows than the limit. Rows of about a megabyte (parts) go one at a time.
 */
export async function deleteInStages(statement: Statement, params: unknown[], rowsPerStage = STAGE_ROWS): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { changes } = statement.run(...params, rowsPerStage);
    deleted += changes;
    if (changes < rowsPerStage) return deleted;
    await betweenRequests();
  }
}

