import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Context, Middleware } from 'koa';

// How much of what a client still sends after a refusal the hub reads and throws away, at most.
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
    endThenLinger(socket);
    discardInput(req, socket);
  };
}

function discardInput(req: IncomingMessage, socket: Socket): void {
  if (req.readableEnded) {
    socket.destroy();
    return;
  }
  const close = () => socket.destroy();
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) close();
  });
  req.once('end', close);
  req.resume();
}

/**
 * Half-closes the connection after `last` and leaves it to the client to close, or destroys it
 * after DISCARD_MS; meanwhile what the client sends is read and discarded (by the caller, or by
 * Node's HTTP parser, which refuses every byte after one it refused).
 */
export function endThenLinger(socket: Duplex, last?: string): void {
  socket.end(last);
  const timer = setTimeout(() => socket.destroy(), DISCARD_MS);
  socket.once('close', () => clearTimeout(timer));
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
