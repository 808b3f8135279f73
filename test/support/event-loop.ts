import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// Whether some work held the event loop. countTurns counts how often the loop got round to other
// callbacks while the work was awaited: a write that holds the loop until it is done (one long
// synchronous transaction) lets none run. finishOrder tells whether a request sent meanwhile was
// answered before the work finished.

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

/** A local HTTP server answering every request at once: the other request sent while some work runs. */
export async function startBystander(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // A process's first fetch loads its HTTP client and connects: tens of milliseconds that would
  // count against the work a test watches, which a fast machine may finish meanwhile.
  await (await fetch(url)).text();
  return {
    url,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * Starts `work`, then sends a request to `url`, and answers the order they finished in: a
 * request answered first shows that the work let the event loop serve others while it ran.
 */
export async function finishOrder(url: string, work: () => Promise<unknown>): Promise<string[]> {
  const order: string[] = [];
  const working = work().then(() => order.push('work'));
  const request = fetch(url)
    .then((res) => res.text())
    .then(() => order.push('request'));
  await Promise.all([working, request]);
  return order;
}
