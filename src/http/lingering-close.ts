import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, Middleware } from 'koa';

// How much of a refused body's remainder the hub reads and throws away, at most, before closing.
const DISCARD_MS = 5_000;
const DISCARD_BYTES = 64 * 1024 * 1024;

/**
 * Answers this request with `Connection: close`, then closes in stages (RFC 9112, 9.6): the
 * request's body stops being read now; once the answer is sent, the hub half-closes, reads and
 * discards what the client still sends (until the body ends, DISCARD_MS or DISCARD_BYTES), and
 * only then closes. Closing at once, with the client still sending, makes the kernel reset the
 * connection: the client's next write fails, and it may lose the answer it had not yet read.
 */
export function closeOnceAnswered(ctx: Context): void {
  ctx.set('Connection', 'close');
  const { req } = ctx;
  req.unpipe();
  req.pause();
  // Node ends the last response on a connection with destroySoon(): end, then destroy when flushed.
  const { socket } = req;
  socket.destroySoon = () => {
    socket.end();
    discardInput(req, socket);
  };
}

function discardInput(req: IncomingMessage, socket: Socket): void {
  if (req.readableEnded) {
    socket.destroy();
    return;
  }
  const close = () => socket.destroy();
  const timer = setTimeout(close, DISCARD_MS);
  socket.once('close', () => clearTimeout(timer));
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) close();
  });
  req.once('end', close);
  req.resume();
}

/**
 * Requests that arrive behind one answered with `Connection: close` (read while its body is
 * discarded) are not processed: their answer could not be sent (RFC 9112, 9.6).
 */
export function skipRequestsAfterClose(): Middleware {
  return async (ctx, next) => {
    if (ctx.req.socket.writableEnded) {
      ctx.respond = false;
      return;
    }
    await next();
  };
}
