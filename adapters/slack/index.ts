import type { IncomingMessage, ServerResponse } from 'node:http';
import { format } from 'node:util';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, type Logger as BoltLogger, type webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { SlackConfig } from '../../src/config.js';
import { STOP_GRACE_MS } from '../../src/shutdown.js';
import type { NoticePoller } from '../handoff-notices.js';
import type { HubClient } from '../hub-client.js';
import { createLearnWatcher, type LearnWatchOptions } from '../learn-watch.js';
import { createRelay, notBoundText, type Relay } from '../relay.js';
import { createAssistant } from './assistant.js';
import { listenForCommands, slackWords } from './commands.js';
import { listenForFeedback } from './feedback.js';
import { createHandoffReplies, listenForHandoffButtons } from './handoff.js';
import { startHandoffNotices } from './handoff-notices.js';
import { listenForAnswers } from './unanswered.js';
import { createMessageHandler, listenForMessages } from './messages.js';
import { instrumentSlack } from './metrics.js';
import { withToken } from './refused-token.js';
import { createUserDirectory } from './users.js';

// The Slack adapter: Bolt, unmodified, receives events and slash commands (over Socket Mode when
// an app token is set, else as signed HTTP requests to POST /slack/events) and this adapter turns
// them into hub API calls through the relay and the command module.

/** As the hub mounts it (src/http/app.ts); the standalone process serves the same path. */
export const SLACK_EVENTS_PATH = '/slack/events';

export type SlackAdapterOptions = {
  config: SlackConfig;
  logger: Logger;
  /** Least time between two edits of a streaming reply (Slack allows about one a second). */
  updateIntervalMs?: number;
  /** How the Web API client retries failed calls; a 429's Retry-After is always waited out. */
  retryConfig?: webApi.RetryOptions;
  /** How `/chatbot learn` watches the website it started (tests look more often). */
  learnWatch?: Partial<Omit<LearnWatchOptions, 'logger'>>;
  /** How often the hub is asked for handoff notices to post (every second unless given). */
  noticePollMs?: number;
};

export type SlackAdapter = {
  mode: 'socket' | 'http';
  /** HTTP mode: serves POST /slack/events (verifying Slack's signature). Undefined in socket mode. */
  requestListener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /**
   * Checks the bot token (auth.test), connects in socket mode, and starts answering through `hub`
   * and posting its handoff notices. A token Slack refuses fails it with a ConfigError naming its variable.
   */
  start(hub: HubClient): Promise<void>;
  /** Resolves once no event or command is being handled. */
  idle(): Promise<void>;
  /** Stops receiving and posting notices, and lets the replies in progress finish (up to `graceMs`). */
  stop(graceMs?: number): Promise<void>;
};

const WEB_API_TIMEOUT_MS = 30_000;
/** How long a `/chatbot learn` watch lasts: within the 30 minutes Slack takes a command's response_url for. */
const LEARN_WATCH_MS = 29 * 60_000;

export function createSlackAdapter({ config, logger, updateIntervalMs, retryConfig, learnWatch, noticePollMs }: SlackAdapterOptions): SlackAdapter {
  const mode = config.appToken ? 'socket' : 'http';
  const boltLogger = toBoltLogger(logger);
  const clientOptions: webApi.WebClientOptions = {
    slackApiUrl: config.apiUrl,
    timeout: WEB_API_TIMEOUT_MS,
    ...(retryConfig ? { retryConfig } : {}),
  };
  const receiver = config.appToken
    ? new SocketModeReceiver({ appToken: config.appToken, logger: boltLogger, installerOptions: { clientOptions } })
    : new HTTPReceiver({
        signingSecret: config.signingSecret ?? '',
        endpoints: SLACK_EVENTS_PATH,
        logger: boltLogger,
        // Acknowledge first, answer after: Slack wants its 200 within 3 seconds.
        processBeforeResponse: false,
      });
  const app = new App({
    token: config.botToken,
    receiver,
    socketMode: mode === 'socket',
    logger: boltLogger,
    clientOptions,
    ignoreSelf: true,
    convoStore: false,
    // auth.test runs in start(), where a bad token is reported instead of thrown at construction.
    deferInitialization: true,
  });

  // Count what Bolt is handling, so tests and shutdown can wait for replies in progress.
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const settle = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const wake of waiters.splice(0)) wake();
  };
  receiver.init({
    processEvent: (event: Parameters<App['processEvent']>[0]) => {
      inFlight += 1;
      return app.processEvent(event).finally(settle);
    },
  } as unknown as App);
  const idle = () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)));

  let hub: HubClient | undefined;
  let relay: Relay | undefined;
  let notices: NoticePoller | undefined;
  let ready = false;
  instrumentSlack(app);
  const users = createUserDirectory(app.client, config.adminUserIds, logger);
  const handoffReplies = createHandoffReplies({ hub: () => hub, users, logger });
  const handleMessage = createMessageHandler({ relay: () => relay, users, logger, notBound: notBoundText(config.command), handoffReplies });
  listenForMessages(app, handleMessage);
  app.assistant(createAssistant({ hub: () => hub, handle: handleMessage, logger, command: config.command }));
  const learning = createLearnWatcher({ logger, timeoutMs: LEARN_WATCH_MS, ...learnWatch });
  listenForCommands(app, { command: config.command, hub: () => hub, users, logger, learning });
  listenForFeedback(app, { hub: () => hub, logger });
  listenForHandoffButtons(app, { hub: () => hub, users, logger });
  listenForAnswers(app, { hub: () => hub, users, words: slackWords(config.command), logger });
  app.error(async (error) => {
    logger.error({ err: error.original ?? error }, 'a Slack event or command failed');
  });

  return {
    mode,
    requestListener:
      receiver instanceof HTTPReceiver
        ? (req, res) => {
            if (!ready) {
              // Not started yet, or stopping: Slack retries later.
              res.writeHead(503).end();
              return;
            }
            receiver.requestListener(req, res);
          }
        : undefined,

    async start(client) {
      hub = client;
      relay = createRelay({ hub: client, platform: 'slack', source: 'Slack', logger, updateIntervalMs });
      const workspaceIds = await withToken('SLACK_BOT_TOKEN', async () => {
        await app.init();
        return postsIn(app.client);
      });
      if (mode === 'socket') await withToken('SLACK_APP_TOKEN', () => app.start());
      ready = true;
      notices = startHandoffNotices({ hub: client, client: app.client, workspaceIds, logger, intervalMs: noticePollMs });
      logger.info({ mode, command: config.command }, 'Slack adapter is running');
    },

    idle,

    async stop(graceMs = STOP_GRACE_MS) {
      const wasReady = ready;
      ready = false;
      learning.stop();
      if (wasReady && mode === 'socket') await app.stop();
      await notices?.stop();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([idle(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const wake of waiters.splice(0)) wake();
    },
  };
}

/**
 * The workspaces the bot token posts in, so this process claims only their handoff notices (the
 * account's other Slack processes post the rest): its team, or every workspace (undefined) for
 * an org-wide install, whose token posts in all of its organisation's.
 */
async function postsIn(client: webApi.WebClient): Promise<string[] | undefined> {
  const { team_id: team, is_enterprise_install: orgWide } = await client.auth.test();
  return orgWide || !team ? undefined : [team];
}

/** Bolt and its Web API client log through pino (which filters by level itself). */
function toBoltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const child = logger.child({ component: 'bolt' });
  return {
    // Formatting is skipped when the level is off: the Web API client logs every request at debug.
    debug: (...message: unknown[]) => {
      if (child.isLevelEnabled('debug')) child.debug(format(...message));
    },
    info: (...message: unknown[]) => child.info(format(...message)),
    warn: (...message: unknown[]) => child.warn(format(...message)),
    error: (...message: unknown[]) => {
      const err = message.find((part) => part instanceof Error);
      child.error(err ? { err } : {}, format(...message.filter((part) => part !== err)));
    },
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
