import { loadConfig } from '../../src/config.js';
import { serveOperations, type Serving } from '../../src/http/operations.js';
import { createLogger } from '../../src/logger.js';
import { remoteHub, stayIdle } from '../standalone.js';
import { startDiscordBot, type DiscordBot } from './bot.js';
import { onShutdown } from '../../src/shutdown.js';
import { startOrExit } from '../../src/startup.js';

// `node --import tsx adapters/discord/main.ts` (the Procfile's `discord` process): the Discord
// adapter on its own, reaching the hub over HTTP at HUB_URL with HUB_API_KEY.

const config = await startOrExit('The Discord adapter', loadConfig);
const logger = createLogger(config.logLevel);
// A stray failure is logged, never fatal: the bot keeps serving the other conversations.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

let bot: DiscordBot | undefined;
let operations: Serving | undefined;
if (!config.discord || !config.hubUrl) {
  stayIdle(
    logger,
    config.discord ? 'HUB_URL is not set: the Discord adapter runs inside `npm start`' : 'DISCORD_TOKEN is not set',
  );
} else {
  const { hubUrl, hubApiKey } = config;
  const { hub, apiUrl } = await startOrExit('The Discord adapter', () => remoteHub(hubUrl, hubApiKey));
  operations = await startOrExit('The Discord adapter', () => serveOperations(config, logger));
  logger.info({ hub: apiUrl }, 'starting the Discord adapter');
  // A token Discord refuses, or an application id it does not match, is said in one sentence.
  const { discord } = config;
  bot = await startOrExit('The Discord adapter', () => startDiscordBot({ config: discord, hub, logger }));
}

onShutdown(logger, async () => Promise.all([bot?.stop(), operations?.close()]));
