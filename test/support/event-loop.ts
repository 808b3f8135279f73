// How often the event loop got round to other callbacks while some work was awaited: a write
// that holds the loop until it is done (one long synchronous transaction) lets none run.

export function countTurns(): { readonly count: number; stop(): void } {
  let count = 0;
  let timer: NodeJS.Immediate | undefined;
  const turn = () => {
    count += 1;
    timer = setImmediate(turn);
  };
  timer = setImmediate(turn);
  return {
    get count() {
      return count;
    },
    stop: () => clearImmediate(timer),
  };
}
