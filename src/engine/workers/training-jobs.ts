import { Worker } from 'node:worker_threads';
import type { Chunk, SourceRef, SourceText } from '../../store/port.js';

// Training's heavy work (chunking a source, building its lexical index) runs in one worker
// thread shared by the process: a 10 MB source takes seconds of CPU, which on the event loop
// would stall every other request. Jobs queue in the worker; it is started on first use and
// replaced if it dies.

export type TrainingJob =
  | { task: 'chunk'; text: string }
  | { task: 'chunk-sources'; texts: SourceText[] }
  | { task: 'index'; chunks: Chunk[] };

type Pending = { resolve(result: unknown): void; reject(error: Error): void };

// The worker runs TypeScript as the server does, through tsx, whatever loaded this module (node
// --import tsx, or vitest): a worker's entry is resolved before any --import hook would apply, so
// a small script registers tsx and then imports the real entry.
const WORKER_URL = new URL('./training-worker.ts', import.meta.url).href;
const TSX_API = import.meta.resolve('tsx/esm/api');
const BOOTSTRAP = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_URL)}, ${JSON.stringify(WORKER_URL)}))`;

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function startWorker(): Worker {
  const started = new Worker(BOOTSTRAP, { eval: true, execArgv: [] });
  started.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const job = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) started.unref();
    if (error === undefined) job?.resolve(result);
    else job?.reject(new Error(`training worker: ${error}`));
  });
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`training worker exited with code ${code}`)));
  return started;
}

function run(job: TrainingJob): Promise<unknown> {
  worker ??= startWorker();
  const id = (nextId += 1);
  const running = worker;
  // Referenced only while it has work, so an idle worker never holds the process open.
  running.ref();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    running.postMessage({ id, job });
  });
}

/** chunkText, on the worker thread. */
export function chunkOffThread(text: string): Promise<string[]> {
  return run({ task: 'chunk', text }) as Promise<string[]>;
}

/** Each source's text chunked, each chunk naming its source, on the worker thread. */
export function chunkSourcesOffThread(texts: SourceText[]): Promise<{ text: string; source: SourceRef }[]> {
  return run({ task: 'chunk-sources', texts }) as Promise<{ text: string; source: SourceRef }[]>;
}

/** The serialized lexical index of the chunks, built on the worker thread. */
export function buildIndexOffThread(chunks: Chunk[]): Promise<Uint8Array> {
  return run({ task: 'index', chunks }) as Promise<Uint8Array>;
}
