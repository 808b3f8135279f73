import type { AddressInfo } from 'node:net';
import type { DiscordBot } from '../adapters/discord/bot.js';
import { createHubClient } from '../adapters/hub-client.js';
import { createHandoffTimer } from '../jobs/handoffs.js';
import { startMaintenance } from '../jobs/maintenance.js';
import { createScheduler, digestPlatforms } from '../jobs/scheduler.js';
import { createSourceWorker } from '../jobs/sources/worker.js';
import { createWebhookDispatcher } from '../jobs/webhooks/dispatcher.js';
import { ConfigError, consoleUrl, loadConfig } from './config.js';
import { API_PREFIX } from './http/app.js';
import { startHub } from './hub.js';
import { createLogger } from './logger.js';
import { onShutdown } from './shutdown.js';
import { startOrExit } from './startup.js';
import { putHelperThreadsBelowEventLoop } from './worker-thread.js';

// `npm start`: the API server, the chat adapters whose tokens are set, and the digest scheduler, in one process.

putHelperThreadsBelowEventLoop();

const config = await startOrExit('Switchboard', loadConfig);
const logger = createLogger(config.logLevel);
// The Slack adapter joins when SLACK_BOT_TOKEN is set, unless HUB_URL says adapters run as their
// own processes (Procfile `slack`). In HTTP mode Slack posts to /slack/events on this server.
const slack =
  config.slack && !config.hubUrl
    ? (await import('../adapters/slack/index.js')).createSlackAdapter({ config: config.slack, logger })
    : undefined;
const hub = await startOrExit('Switchboard', () => startHub(config, logger, { slack: slack?.requestListener }));
const { port } = hub.server.address() as AddressInfo;
logger.info({ url: hub.apiUrl, console: consoleUrl(config, port), store: hub.store.engine }, 'Switchboard is listening');
// The lead digest scheduler runs here too. A Procfile `clock` beside it is safe: the store's run
// records make each digest post once, whichever process gets there first.
const scheduler = createScheduler({ store: hub.store, platforms: digestPlatforms(config), logger });
scheduler.start();
const maintenance = startMaintenance(hub.store, logger);
// So does webhook delivery, from the store's outbox; the API only ever enqueues.
const webhooks = createWebhookDispatcher({ store: hub.store, logger, ...config.webhooks });
webhooks.start();
// And reading files and crawling websites of knowledge sources, leased like deliveries.
const sourceWorker = createSourceWorker({ store: hub.store, logger, ...config.sources });
sourceWorker.start();
// And handoff timeouts (missed requests, quiet handoffs), leased once across processes.
const handoffTimer = createHandoffTimer({ store: hub.store, logger });
handoffTimer.start();

if (hub.firstApiKey) {
  // Printed, not logged: the key is a secret and log pipelines keep everything.
  process.stdout.write(
    [
      '',
      'Created the account "default". Its API key, shown only this once:',
      '',
      `  ${hub.firstApiKey}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${hub.firstApiKey}" ${hub.apiUrl}/get-chatbots`,
      '',
      'Or sign in to the console with it:',
      `  ${consoleUrl(config, port)}`,
      '',
      '',
    ].join('\n'),
  );
}

// Adapters inside this process reach the API over local HTTP like any client, with HUB_API_KEY
// (or BOOTSTRAP_API_KEY, or the key just printed).
const apiKey = config.hubApiKey ?? hub.firstApiKey;
const localHub = apiKey ? createHubClient(`http://127.0.0.1:${port}${API_PREFIX}`, apiKey) : undefined;
const NEEDS_KEY = 'needs an API key of the hub: set HUB_API_KEY (or BOOTSTRAP_API_KEY)';
/** An adapter that did not start leaves the API serving; a token its platform refused is said in a sentence, without a stack. */
const adapterFailed = (adapter: string) => (error: unknown) =>
  error instanceof ConfigError
    ? logger.error(`the ${adapter} adapter could not start: ${error.message}`)
    : logger.error({ err: error }, `the ${adapter} adapter could not start`);

// The Discord adapter joins when DISCORD_TOKEN is set, unless HUB_URL says adapters run as their
// own processes (Procfile `discord`). If Discord cannot be reached the API keeps serving.
let discordBot: DiscordBot | undefined;
if (config.discord && config.hubUrl) {
  logger.info('HUB_URL is set: the Discord adapter runs as its own process');
} else if (config.discord) {
  if (!localHub) logger.error(`the Discord adapter ${NEEDS_KEY}`);
  else {
    // Loaded only when used: discord.js is a large import.
    const { startDiscordBot } = await import('../adapters/discord/bot.js');
    startDiscordBot({ config: config.discord, hub: localHub, logger }).then(
      (bot) => (discordBot = bot),
      adapterFailed('Discord'),
    );
  }
}

if (config.slack && config.hubUrl) logger.info('HUB_URL is set: the Slack adapter runs as its own process');
if (slack) {
  if (!localHub) logger.error(`the Slack adapter ${NEEDS_KEY}`);
  else {
    slack.start(localHub).catch(adapterFailed('Slack'));
  }
}

onShutdown(logger, () =>
  hub.close(() =>
    Promise.all([scheduler.stop(), webhooks.stop(), handoffTimer.stop(), maintenance.stop(), sourceWorker.stop(), discordBot?.stop(), slack?.stop()]),
  ),
);
