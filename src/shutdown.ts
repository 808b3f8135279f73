import type { Logger } from 'pino';

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
