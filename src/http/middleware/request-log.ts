import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { atEndOfTurn } from '../../end-of-turn.js';
import { flatLineLogger } from '../../logger.js';
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

/** A request as it ended: the rest of what its line needs is read from it later. */
type EndedRequest = { ctx: Context; status: number; ms: number };

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
  const report = atEndOfTurn(({ ctx, status, ms }: EndedRequest) => {
    // The pattern, never the path, so the metrics' label values stay few.
    const route = ctx.routePattern ?? 'unmatched';
    recordHttpRequest(ctx.method, route, status, ms / 1000);
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!lines.isLevelEnabled(level)) return;
    lines[level](
      {
        requestId: ctx.requestId,
        method: ctx.method,
        route,
        status,
        ms: Math.round(ms * 10) / 10,
        accountId: (ctx.state as { account?: { id: string } }).account?.id,
      },
      'request',
    );
  });
  return async (ctx, next) => {
    const start = performance.now();
    const given = ctx.get('X-Request-Id');
    ctx.requestId = CALLER_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.requestId);
    // Counted when the response ends, so streamed replies include their whole body.
    ctx.res.once('close', () => {
      // 499 (nginx's "client closed request"): the caller left before any answer was sent.
      report({ ctx, status: ctx.res.headersSent ? ctx.res.statusCode : 499, ms: performance.now() - start });
    });
    await next();
  };
}
