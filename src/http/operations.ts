import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { drainer } from '../shutdown.js';
import type { NodeListener } from './app.js';
import { livenessRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';

// What a process without the API (clock, Discord, Slack) serves over HTTP, with the web process's
// own routes: GET /healthz, and GET /metrics for what the process counts (METRICS_TOKEN as there).

export function operationsListener(metricsToken: string | undefined): NodeListener {
  const app = new Koa();
  for (const router of [livenessRoutes(), metricsRoutes(metricsToken)]) app.use(router.routes()).use(router.allowedMethods());
  return app.callback();
}

export type Serving = { port: number; close(): Promise<void> };

/** Listens on `port` (0: any free one); closing drains the requests in flight. */
export async function serve(listener: NodeListener, port: number): Promise<Serving> {
  const server = createServer(listener);
  const close = drainer(server);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, resolve));
  return { port: (server.address() as AddressInfo).port, close };
}

/**
 * Serves the operations routes on PORT when it is set, for a process that needs no port otherwise
 * (it keeps working without one: `npm start` and the Procfile need no new setting). A PORT another
 * process holds (one env file shared by every process on a machine) costs the scrape, not the
 * process's own work: digests, deliveries and replies go on, and the log says why it is not served.
 */
export async function serveOperations(
  config: Pick<Config, 'operationsPort' | 'metricsToken'>,
  logger: Logger,
): Promise<Serving | undefined> {
  if (config.operationsPort === undefined) return undefined;
  try {
    const serving = await serve(operationsListener(config.metricsToken), config.operationsPort);
    logger.info({ port: serving.port }, 'serving /healthz and /metrics');
    return serving;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.warn({ port: config.operationsPort }, 'another process listens on PORT: /healthz and /metrics are not served by this one; give it a PORT of its own');
    return undefined;
  }
}
