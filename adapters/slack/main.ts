import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createHubClient } from '../hub-client.js';
import { createSlackAdapter, hubApiUrl, SLACK_EVENTS_PATH, type SlackAdapter } from './index.js';
import { onShutdown } from '../../src/shutdown.js';

// `node --import tsx adapters/slack/main.ts` (the Procfile's `slack` process): the Slack adapter on
// its own, reaching the hub over HTTP at HUB_URL with HUB_API_KEY. In HTTP mode it serves
// POST /slack/events on PORT; in socket mode it needs no port.

/**
 * Why this process has nothing to do, if so. It then idles rather than exits: process managers
 * (foreman, Heroku) stop or restart every process of the Procfile when one of them exits.
 */
function idleReason(config: Config): string | undefined {
  if (!config.slack) return 'SLACK_BOT_TOKEN is not set: the Slack adapter is off';
  // Without HUB_URL, `npm start` runs the adapter itself; a second one would answer twice.
  if (!config.hubUrl) return 'HUB_URL is not set: the Slack adapter runs inside `npm start`';
  return undefined;
}

const config = loadConfig();
const logger = createLogger(config.logLevel);
// A stray failure is logged, never fatal: the adapter keeps serving the other conversations.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

let adapter: SlackAdapter | undefined;
let server: Server | undefined;
const idle = idleReason(config);
if (idle || !config.slack || !config.hubUrl) {
  logger.warn(`${idle}; this process stays idle`);
  setInterval(() => undefined, 2 ** 30);
} else {
  const apiKey = config.hubApiKey ?? config.bootstrapApiKey;
  const apiUrl = hubApiUrl(config.hubUrl);
  try {
    if (!apiKey) throw new Error('HUB_API_KEY is not set: the adapter needs an API key of the hub');
    adapter = createSlackAdapter({ config: config.slack, logger });
    const listener = adapter.requestListener;
    if (listener) {
      server = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        if (path === SLACK_EVENTS_PATH && req.method === 'POST') return listener(req, res);
        if (path === '/healthz' && req.method === 'GET') {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
          return;
        }
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve, reject) => server?.once('error', reject).listen(config.port, resolve));
      const { port } = server.address() as AddressInfo;
      logger.info({ port, path: SLACK_EVENTS_PATH }, 'listening for Slack');
    }
    logger.info({ hub: apiUrl }, 'starting the Slack adapter');
    await adapter.start(createHubClient(apiUrl, apiKey));
  } catch (error) {
    logger.fatal({ err: error }, 'the Slack adapter could not start');
    process.exit(1);
  }
}

onShutdown(logger, async () => {
  const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server?.closeIdleConnections();
  await Promise.all([adapter?.stop(), closed]);
});
