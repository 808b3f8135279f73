import { loadConfig } from '../../src/config.js';
import type { NodeListener } from '../../src/http/app.js';
import { operationsListener, serve, serveOperations, type Serving } from '../../src/http/operations.js';
import { createLogger } from '../../src/logger.js';
import { remoteHub, stayIdle } from '../standalone.js';
import { createSlackAdapter, SLACK_EVENTS_PATH, type SlackAdapter } from './index.js';
import { onShutdown } from '../../src/shutdown.js';
import { startOrExit } from '../../src/startup.js';

// `node --import tsx adapters/slack/main.ts` (the Procfile's `slack` process): the Slack adapter on
// its own, reaching the hub over HTTP at HUB_URL with HUB_API_KEY. In HTTP mode it serves
// POST /slack/events, GET /healthz and GET /metrics on PORT; in socket mode the last two, only
// when PORT is set.

const config = await startOrExit('The Slack adapter', loadConfig);
const logger = createLogger(config.logLevel);
// A stray failure is logged, never fatal: the adapter keeps serving the other conversations.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

let adapter: SlackAdapter | undefined;
let served: Serving | undefined;
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
  const started = createSlackAdapter({ config: config.slack, logger });
  adapter = started;
  const events = started.requestListener;
  if (events) {
    const operations = operationsListener(config.metricsToken);
    const listener: NodeListener = (req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      (path === SLACK_EVENTS_PATH && req.method === 'POST' ? events : operations)(req, res);
    };
    served = await startOrExit('The Slack adapter', () => serve(listener, config.port));
    logger.info({ port: served.port, path: SLACK_EVENTS_PATH }, 'listening for Slack');
  } else {
    served = await startOrExit('The Slack adapter', () => serveOperations(config, logger));
  }
  logger.info({ hub: apiUrl }, 'starting the Slack adapter');
  // A token Slack refuses is said in one sentence, naming its variable.
  await startOrExit('The Slack adapter', () => started.start(hub));
}

onShutdown(logger, async () => {
  await Promise.all([adapter?.stop(), served?.close()]);
});
