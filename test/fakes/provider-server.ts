import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

// A scriptable stand-in for an LLM provider's HTTP API, on 127.0.0.1. The wire details of each
// provider (paths, bodies, SSE events, error bodies) come from a Dialect; this module records
// what arrives and plays the scripted behaviour: a reply (JSON, or SSE when the request asks to
// stream), an HTTP error, silence, a malformed stream or a connection cut mid-stream.

export type Behaviour =
  /** Replies with the pieces joined (JSON), or one SSE event per piece, `delayMs` apart. */
  | { type: 'reply'; pieces: string[]; delayMs?: number; beforeLast?: Promise<unknown> }
  | { type: 'error'; status: 401 | 429 | 500; retryAfterSeconds?: number }
  /** Never answers: for timeouts. */
  | { type: 'hang' }
  /** Streams a first piece, then an event whose data is not JSON, then finishes normally; or a body that is not JSON. */
  | { type: 'malformed' }
  /** Streams a first piece, or half the body, then destroys the connection; or, `cleanly`, ends the response. */
  | { type: 'truncate'; cleanly?: boolean };

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** True once the whole response has been written. */
  finished: boolean;
  /** Settles when the connection closes; `completed` says whether the response was whole. */
  closed: Promise<{ completed: boolean }>;
};

/** One SSE event, already framed (`event: …\ndata: …\n\n`). */
export type Frame = string;

export type Dialect = {
  /** The one path served, e.g. /v1/messages. */
  path: string;
  completion(model: string, text: string): unknown;
  /** The events before the text, one per text piece, and after it, for a request's body. */
  stream(model: string, pieces: string[], body: Record<string, unknown>): { opening: Frame[]; pieces: Frame[]; closing: Frame[] };
  /** A frame whose data is cut off in the middle of its JSON. */
  malformed: Frame;
  error(status: number, request: RecordedRequest): { body: unknown; headers: Record<string, string> };
  /** An embeddings endpoint besides the completions one: its path and its reply to a request body. */
  embeddings?: { path: string; reply(body: Record<string, unknown>): unknown };
};

export type FakeProvider = {
  baseURL: string;
  requests: RecordedRequest[];
  /** Sets the behaviour for every request from now on. */
  script(behaviour: Behaviour): void;
  close(): Promise<void>;
};

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

export async function startFakeProvider(dialect: Dialect): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  let behaviour: Behaviour = { type: 'reply', pieces: ['Hello', ' from', ' the', ' fake.'] };

  const server = createServer((req, res) => {
    void record(req, res).then((request) => {
      requests.push(request);
      return play(dialect, behaviour, request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    // Both providers version their API under /v1, as the real base addresses do.
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script(next) {
      behaviour = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function record(req: IncomingMessage, res: ServerResponse): Promise<RecordedRequest> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  // Writes after the client has gone are expected here (that is what the tests provoke).
  res.on('error', () => {});
  const request: RecordedRequest = {
    method: req.method ?? '',
    path: new URL(req.url ?? '/', 'http://fake').pathname,
    headers: req.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    finished: false,
    closed: new Promise((resolve) => res.on('close', () => resolve({ completed: res.writableFinished }))),
  };
  res.on('finish', () => {
    request.finished = true;
  });
  return request;
}

async function play(dialect: Dialect, behaviour: Behaviour, request: RecordedRequest, res: ServerResponse) {
  const { embeddings } = dialect;
  if (request.method === 'POST' && request.path === embeddings?.path) {
    // Scripted failures and silence apply here too; any other behaviour answers the vectors.
    if (behaviour.type === 'error' || behaviour.type === 'hang') {
      return play({ ...dialect, path: embeddings.path, embeddings: undefined }, behaviour, request, res);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(embeddings.reply(request.body)));
    return;
  }
  if (request.method !== 'POST' || request.path !== dialect.path) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
    return;
  }
  const model = String(request.body.model);
  const streaming = request.body.stream === true;
  switch (behaviour.type) {
    case 'hang':
      return;
    case 'error': {
      const { body, headers } = dialect.error(behaviour.status, request);
      const retryAfter = behaviour.retryAfterSeconds ?? (behaviour.status === 429 ? 20 : undefined);
      res.writeHead(behaviour.status, {
        'content-type': 'application/json',
        ...headers,
        ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
      });
      res.end(JSON.stringify(body));
      return;
    }
    case 'reply': {
      if (!streaming) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(dialect.completion(model, behaviour.pieces.join(''))));
        return;
      }
      const { opening, pieces, closing } = dialect.stream(model, behaviour.pieces, request.body);
      res.writeHead(200, SSE_HEADERS);
      await send(res, opening, 0);
      await send(res, pieces.slice(0, -1), behaviour.delayMs ?? 10);
      await behaviour.beforeLast;
      await send(res, [...pieces.slice(-1), ...closing], behaviour.delayMs ?? 10);
      res.end();
      return;
    }
    case 'malformed':
    case 'truncate': {
      if (!streaming) {
        const whole = JSON.stringify(dialect.completion(model, 'Hello there'));
        const half = whole.slice(0, whole.length / 2);
        // Truncated: the promised length never arrives. Malformed: a complete body that is not JSON.
        const length = behaviour.type === 'truncate' ? whole.length : half.length;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(length) });
        res.write(half);
        if (behaviour.type === 'truncate') res.destroy();
        else res.end();
        return;
      }
      const { opening, pieces, closing } = dialect.stream(model, ['Hello', ' there'], request.body);
      res.writeHead(200, SSE_HEADERS);
      await send(res, [...opening, pieces[0] ?? ''], 10);
      if (behaviour.type === 'truncate') {
        if (behaviour.cleanly) res.end();
        else res.destroy();
        return;
      }
      await send(res, [dialect.malformed, ...pieces.slice(1), ...closing], 10);
      res.end();
      return;
    }
  }
}

async function send(res: ServerResponse, frames: Frame[], delayMs: number) {
  for (const frame of frames) {
    if (res.destroyed) return;
    res.write(frame);
    if (delayMs > 0) await sleep(delayMs);
  }
}

export function sse(data: unknown, event?: string): Frame {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}
