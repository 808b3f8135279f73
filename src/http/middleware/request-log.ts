import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const SECRET_HEADERS = ['authorization', 'cookie'];
const CALLER_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * One log line per request, with a request id that is echoed in `X-Request-Id` (a caller's own
 * id is kept when it is sane). Authorization headers are redacted by the logger.
 */
export function requestLog(logger: Logger): Middleware {
  const log = pinoHttp({
    logger,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && CALLER_REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Redacted here as well as by the logger, so no caller's logger can leak a key.
    serializers: {
      req(req: { headers?: Record<string, unknown> }) {
        const headers = { ...req.headers };
        for (const name of SECRET_HEADERS) if (name in headers) headers[name] = '[redacted]';
        return { ...req, headers };
      },
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
  });
  return (ctx, next) => {
    log(ctx.req, ctx.res);
    return next();
  };
}
