import type { Server } from 'node:http';
import { setImmediate as turnEnded } from 'node:timers/promises';
import type { Logger } from 'pino';

const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits 0 (1 if stopping failed). Every
 * process of Switchboard (web, slack, discord, clock) shuts down this one way.
 */
export function onShutdown(logger: Logger, stop: () => Promise<unknown>): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
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

/** Stops accepting connections and lets requests in flight finish, up to a limit. */
export async function drain(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
  await closed;
  clearTimeout(timer);
  // What the last requests left to the end of their turn (atEndOfTurn: log lines, metrics).
  await turnEnded();
}
