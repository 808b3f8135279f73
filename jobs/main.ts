import { loadConfig } from '../src/config.js';
import { serveOperations } from '../src/http/operations.js';
import { createLogger } from '../src/logger.js';
import { openStore } from '../src/store/index.js';
import { createHandoffTimer } from './handoffs.js';
import { startMaintenance } from './maintenance.js';
import { createScheduler, digestPlatforms } from './scheduler.js';
import { onShutdown } from '../src/shutdown.js';
import { startOrExit } from '../src/startup.js';
import { createSourceWorker } from './sources/worker.js';
import { createWebhookDispatcher } from './webhooks/dispatcher.js';

// `node --import tsx jobs/main.ts` (the Procfile's `clock` process): the scheduler and webhook
// delivery on their own. It
// reads subscriptions and leads from the store at DATABASE_URL (the hub's own) and posts with
// SLACK_BOT_TOKEN / DISCORD_TOKEN. Any number may run beside `npm start`, which runs one too:
// each digest is posted once, whoever's clock gets there first.

const config = await startOrExit('The clock', loadConfig);
const logger = createLogger(config.logLevel);
// A stray failure is logged, never fatal: the next tick goes on.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

const store = await startOrExit('The clock', () => openStore(config.databaseUrl));
// Its counters (digests, webhook deliveries, store calls) are scraped here, when PORT is set.
const operations = await startOrExit('The clock', () => serveOperations(config, logger));
const platforms = digestPlatforms(config);
if (!platforms.slack && !platforms.discord) {
  logger.warn('neither SLACK_BOT_TOKEN nor DISCORD_TOKEN is set: due digests will be recorded as failed');
}
const scheduler = createScheduler({ store, platforms, logger });
scheduler.start();
const maintenance = startMaintenance(store, logger);
const webhooks = createWebhookDispatcher({ store, logger, ...config.webhooks });
webhooks.start();
const handoffTimer = createHandoffTimer({ store, logger });
handoffTimer.start();
// And reading files and crawling websites of knowledge sources, leased like deliveries.
const sourceWorker = createSourceWorker({ store: store, logger, ...config.sources });
sourceWorker.start();
logger.info({ store: store.engine }, 'clock started');

onShutdown(logger, async () => {
  await Promise.all([scheduler.stop(), webhooks.stop(), handoffTimer.stop(), maintenance.stop(), sourceWorker.stop(), operations?.close()]);
  await store.close();
});
