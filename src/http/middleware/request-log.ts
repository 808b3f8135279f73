import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { flatLineLogger } from '../../logger.js';
import { atEndOfTurn } from '../../end-of-turn.js';
import { recordHttpRequest } from '../../metrics.js';

declare module 'koa' {
  interface DefaultContext {
    /** This request's id, echoed in `X-Request-Id`. */
    requestId: string;
    /** The app's logger bound to this request's id, made when asked for (failures only). */
    log: Logger;
  }
}

const CALLER_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** What the request line and the HTTP metrics take of a request once it has ended. */
type EndedRequest = {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  accountId: string | undefined;
};

/**
 * One compact line per request (method, route pattern, status, duration, request id, account
 * id) and its HTTP metrics. Nothing is copied from the headers, so nothing secret can ride
 * along; a caller's own `X-Request-Id` is kept when it is sane.
 */
export function requestLog(app: Koa, logger: Logger): Middleware {
  Object.defineProperty(app.context, 'log', {
    get(this: Context) {
      return logger.child({ requestId: this.requestId });
    },
  });
  const lines = flatLineLogger(logger);
  const report = atEndOfTurn((ended: EndedRequest) => {
    recordHttpRequest(ended.method, ended.route, ended.status, ended.ms / 1000);
    const level = ended.status >= 500 ? 'error' : ended.status >= 400 ? 'warn' : 'info';
    if (!lines.isLevelEnabled(level)) return;
    const { requestId, method, route, status, ms, accountId } = ended;
    lines[level]({ requestId, method, route, status, ms: Math.round(ms * 10) / 10, accountId }, 'request');
  });
  return async (ctx, next) => {
    const start = performance.now();
    const given = ctx.get('X-Request-Id');
    ctx.requestId = CALLER_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.requestId);
    // Counted when the response ends, so streamed replies include their whole body.
    ctx.res.once('close', () => {
      report({
        requestId: ctx.requestId,
        method: ctx.method,
        route: routePattern(ctx),
        // 499 (nginx's "client closed request"): the caller left before any answer was sent.
        status: ctx.res.headersSent ? ctx.res.statusCode : 499,
        ms: performance.now() - start,
        accountId: (ctx.state as { account?: { id: string } }).account?.id,
      });
    });
    await next();
  };
}

/**
 * The matched route's pattern (`/api/v1/chatbots/:chatbotId/contacts`), never the path, so the
 * metrics' label values stay few. A request refused before it reached a route (no key, bad JSON)
 * carries its router's mount pattern (`/api/v1(?:\/|$)`), kept as the prefix alone.
 */
function routePattern(ctx: Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? (matched.split('(?:')[0] as string) : 'unmatched';
}
