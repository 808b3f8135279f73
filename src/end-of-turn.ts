/**
 * Hands `write` what it is given at the end of the event loop's turn, all of a turn's together.
 * For bookkeeping that need not happen at once (log lines, metrics): run back to back, its code
 * stays in the CPU's caches; run between requests, it made a light request cost a sixth more
 * CPU time.
 */
export function atEndOfTurn<T>(write: (item: T) => void): (item: T) => void {
  let batch: T[] = [];
  const writeBatch = () => {
    const written = batch;
    batch = [];
    written.forEach(write);
  };
  return (item) => {
    if (batch.push(item) === 1) setImmediate(writeBatch);
  };
}
