import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

// A Server-Sent Events response (text/event-stream, as browsers' EventSource reads it): events
// with an id the browser sends back as Last-Event-ID when it reconnects, a comment line now and
// then so proxies and load balancers keep an idle connection open, and an end after `maxMs`,
// after which the browser reconnects by itself.

export type ServerSentEvent = { event: string; id?: string; data: unknown };

export type EventStreamOptions = {
  /** How long the browser waits before reconnecting (its default is about 3 s). */
  retryMs: number;
  heartbeatMs: number;
  maxMs: number;
  /** Called once when the stream ends, whichever side ended it. */
  onEnd(): void;
};

export type EventStream = {
  send(event: ServerSentEvent): void;
  end(): void;
};

export function openEventStream(ctx: Context, options: EventStreamOptions): EventStream {
  const body = new PassThrough();
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-store');
  // nginx and similar proxies buffer responses unless told not to.
  ctx.set('X-Accel-Buffering', 'no');
  // A stream's connection is not reused: closed with the stream, it never holds up a shutdown.
  ctx.set('Connection', 'close');
  ctx.body = body;
  body.write(`retry: ${options.retryMs}\n\n`);

  const heartbeat = setInterval(() => body.write(':\n\n'), options.heartbeatMs);
  const lifetime = setTimeout(end, options.maxMs);
  let ended = false;
  function end(): void {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    body.end();
    options.onEnd();
  }
  // The browser went away (or the hub closed the connection).
  ctx.res.once('close', end);

  return {
    send({ event, id, data }) {
      if (ended) return;
      // JSON has no line breaks, so the data is one line; an id never holds one either.
      const lines = [`event: ${event}`, ...(id === undefined ? [] : [`id: ${id.replace(/[\r\n]/g, '')}`]), `data: ${JSON.stringify(data)}`];
      body.write(`${lines.join('\n')}\n\n`);
    },
    end,
  };
}
