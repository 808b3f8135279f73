import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { remoteHub, stayIdle } from '../standalone.js';
import { createSlackAdapter, SLACK_EVENTS_PATH, type SlackAdapter } from './index.js';
import { drainer, onShutdown } from '../../src/shutdown.js';
import { startOrExit } from '../../src/startup.js';

// `node --import tsx adapters/slack/main.ts` (the Procfile's `slack` process): the Slack adapter on
// its own, reaching the hub over HTTP at HUB_URL with HUB_API_KEY. In HTTP mode it serves
// POST /slack/events on PORT; in socket mode it needs no port.

const config = await startOrExit('The Slack adapter', loadConfig);
const logger = createLogger(config.logLevel);
// A stray failure is logged, never fatal: the adapter keeps serving the other conversations.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

let adapter: SlackAdapter | undefined;
let server: Server | undefined;
let stopServer: (() => Promise<void>) | undefined;
if (!config.slack || !config.hubUrl) {
  stayIdle(
    logger,
    config.slack
      ? 'HUB_URL is not set: the Slack adapter runs inside `npm start`'
      : 'SLACK_BOT_TOKEN is not set: the Slack adapter is off',
  );
} else {
  const { hubUrl, hubApiKey } = config;
  // A missing key and a port in use are the operator's to fix: one sentence on stderr, like every process's start.
  const { hub, apiUrl } = await startOrExit('The Slack adapter', () => remoteHub(hubUrl, hubApiKey));
  try {
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
      stopServer = drainer(server);
      const listening = server;
      await startOrExit('The Slack adapter', () => new Promise<void>((resolve, reject) => listening.once('error', reject).listen(config.port, resolve)));
      const { port } = server.address() as AddressInfo;
      logger.info({ port, path: SLACK_EVENTS_PATH }, 'listening for Slack');
    }
    logger.info({ hub: apiUrl }, 'starting the Slack adapter');
    await adapter.start(hub);
  } catch (error) {
    logger.fatal({ err: error }, 'the Slack adapter could not start');
    process.exit(1);
  }
}

onShutdown(logger, async () => {
  await Promise.all([adapter?.stop(), stopServer?.()]);
});
