import { loadConfig } from './config.js';
import { startHub } from './hub.js';
import { createLogger } from './logger.js';

// `npm start`: the API server in one process (chat adapters and the scheduler join it as they land).

const config = loadConfig();
const logger = createLogger(config.logLevel);
const hub = await startHub(config, logger);
logger.info({ url: hub.apiUrl, store: hub.store.engine }, 'Switchboard is listening');

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
      '',
    ].join('\n'),
  );
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    hub.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
