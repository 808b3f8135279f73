import type { Middleware } from 'koa';
import { HubError, notFound, type FailureKind } from '../../domain/errors.js';
import { FAILURES } from '../failures.js';

/**
 * Turns every failure into the contract's `{message}` body. Client errors raised by the body
 * parsers (malformed JSON, oversized or broken uploads) count as invalid requests; anything
 * unexpected is logged with its stack and answered 500 without it.
 */
export function failureBodies(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound(`no route for ${ctx.method} ${ctx.path}`);
    } catch (error) {
      const kind = classify(error);
      const { status, message } = FAILURES[kind];
      if (kind === 'internal') ctx.req.log.error({ err: error }, 'request failed');
      else ctx.req.log.debug({ reason: (error as Error).message }, `answered ${status}`);
      ctx.status = status;
      ctx.body = { message };
      ctx.remove('Content-Disposition');
    }
  };
}

function classify(error: unknown): FailureKind | 'internal' {
  if (error instanceof HubError) return error.kind;
  const status = clientStatus(error);
  return status !== undefined && status >= 400 && status < 500 ? 'invalid' : 'internal';
}

/** co-body sets `status`, formidable sets `httpCode`. */
function clientStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, httpCode } = error as { status?: unknown; httpCode?: unknown };
  if (typeof status === 'number') return status;
  return typeof httpCode === 'number' ? httpCode : undefined;
}
