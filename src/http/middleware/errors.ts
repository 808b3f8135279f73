import type { Middleware } from 'koa';
import { HubError, notFound, type FailureKind } from '../../domain/errors.js';
import { FAILURES } from '../failures.js';

/**
 * Turns every failure into the contract's `{message}` body: a HubError by its kind; anything
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
      if (kind === 'internal') ctx.log.error({ err: error }, 'request failed');
      else ctx.log.debug({ reason: (error as Error).message }, `answered ${status}`);
      ctx.status = status;
      ctx.body = { message };
      ctx.remove('Content-Disposition');
    }
  };
}

function classify(error: unknown): FailureKind | 'internal' {
  return error instanceof HubError ? error.kind : 'internal';
}
