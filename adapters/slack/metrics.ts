import { webApi, type App } from '@slack/bolt';
import { platformEvents, recordPlatformApiError } from '../../src/metrics.js';

type Body = { type?: string; event?: { type?: string }; command?: string };

/**
 * Counts the events and commands Bolt handles, the Web API calls that fail in a handler, and
 * the 429s Bolt's clients wait out (Bolt makes a client per workspace, each watched once).
 */
export function instrumentSlack(app: App): void {
  const watched = new WeakSet<webApi.WebClient>();
  app.use(async ({ body, client, next }) => {
    const { type, event, command } = body as Body;
    platformEvents.inc({ platform: 'slack', event: event?.type ?? (command ? 'command' : (type ?? 'unknown')) });
    if (!watched.has(client)) {
      watched.add(client);
      client.on(webApi.WebClientEvent.RATE_LIMITED, () => recordPlatformApiError('slack', 429));
    }
    try {
      await next();
    } catch (error) {
      countSlackError(error);
      throw error;
    }
  });
}

const counted = new WeakSet<object>();

/**
 * Counts a failed Web API call once, wherever it is caught: handlers that carry on without the
 * call (a thread they cannot read, a user they cannot look up) call this in their catch. Errors
 * that are not the Web API's (the hub's, say) are left alone.
 */
export function countSlackError(error: unknown): void {
  if (typeof error !== 'object' || error === null || counted.has(error)) return;
  const { code, statusCode } = error as { code?: unknown; statusCode?: number };
  if (code === webApi.ErrorCode.RateLimitedError) recordPlatformApiError('slack', 429);
  else if (typeof code === 'string' && code.startsWith('slack_webapi_')) recordPlatformApiError('slack', statusCode);
  else return;
  counted.add(error);
}

/** The `error` of an `{ok: false}` answer, or undefined for any other failure. */
export const platformError = (error: unknown) =>
  error instanceof Error && (error as webApi.WebAPIPlatformError).code === webApi.ErrorCode.PlatformError
    ? (error as webApi.WebAPIPlatformError).data.error
    : undefined;
