import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setImmediate as turnEnded } from 'node:timers/promises';
import type { Logger } from 'pino';

/**
 * How long a stop waits for the requests and answers in flight. Docker kills 10 s after SIGTERM
 * by default (Kubernetes 30 s): this leaves room to close the store and exit before then.
 */
export const STOP_GRACE_MS = 8_000;
/** A stop still going by then (a store that hangs as it closes) is given up: the process exits 1. */
const STOP_DEADLINE_MS = 9_000;

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits 0 (1 if stopping failed or outlasted
 * STOP_DEADLINE_MS). Every process of Switchboard (web, slack, discord, clock) shuts down this one way.
 */
export function onShutdown(logger: Logger, stop: () => Promise<unknown>): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      setTimeout(() => {
        logger.error(`shutdown took longer than ${STOP_DEADLINE_MS / 1000} s: exiting`);
        process.exit(1);
      }, STOP_DEADLINE_MS).unref();
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

/**
 * Follows the server's connections from now on, and answers what stops it: no new connections, the
 * requests in flight finish (up to a limit), and every connection is closed.
 */
export function drainer(server: Server): () => Promise<void> {
  // Browsers open spare connections ahead of need (Chromium preconnects to a page's origins). One
  // that has not sent a byte has no request to finish, yet Node's closeIdleConnections leaves it
  // open, and the drain would wait for its deadline.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    const timer = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
    await closed;
    clearTimeout(timer);
    // What the last requests left to the end of their turn (atEndOfTurn: log lines, metrics).
    await turnEnded();
  };
}
