import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

// Load through autocannon: requests per second at many connections, and per-request latency at one.

export type Request = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
};

export type LoadResult = {
  rps: number;
  /** Raw response times in ms (autocannon's histogram rounds to whole milliseconds). */
  latencies: number[];
};

export type LoadOptions = {
  connections: number;
  /** How long the load runs, or (`amount`) how many requests it sends. */
  seconds?: number;
  amount?: number;
  /** A request still unanswered after this long is an error (autocannon's default: 10). */
  timeoutSeconds?: number;
};

/** Runs the work with the event loop watched: its duration and the loop's longest wait, in ms. */
export async function watched(work: () => Promise<unknown>): Promise<{ ms: number; longestWaitMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  delay.disable();
  return { ms, longestWaitMs: delay.max / 1e6 };
}

/** CPU time the server spends per request (µs), over `amount` requests at `connections`. */
export async function cpuPerRequest(server: { cpuMicros(): Promise<number> }, request: Request, amount: number, connections: number): Promise<number> {
  const before = await server.cpuMicros();
  await load(request, { connections, amount });
  return ((await server.cpuMicros()) - before) / amount;
}

export function load(request: Request, options: LoadOptions): Promise<LoadResult> {
  return startLoad(request, options).done;
}

/** Load that runs until `stop()` (or for `seconds`, or `amount` requests). */
export function startLoad(request: Request, options: LoadOptions) {
  const latencies: number[] = [];
  const started = performance.now();
  let instance: autocannon.Instance | undefined;
  const done = new Promise<LoadResult>((resolve, reject) => {
    const { connections, seconds: duration, amount, timeoutSeconds: timeout } = options;
    const length = amount === undefined ? { duration } : { amount };
    instance = autocannon({ ...request, connections, ...length, ...(timeout ? { timeout } : {}) }, (error, result) => {
      if (error) return reject(error);
      // Stopping a run cuts the requests in flight, one per connection: those are not failures.
      if (result.errors > connections || result.non2xx) {
        return reject(new Error(`${request.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`));
      }
      resolve({ rps: (result.requests.total * 1000) / (performance.now() - started), latencies });
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  return {
    done,
    stop(): Promise<LoadResult> {
      instance?.stop();
      return done;
    },
  };
}

export const median = (values: number[]) => quantile(values, 0.5);
export const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
