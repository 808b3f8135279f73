import type { Middleware } from 'koa';
import { HubError } from '../../domain/errors.js';
import type { Store } from '../../store/port.js';
import type { AuthState } from './auth.js';

const WINDOW_MS = 60_000;

/**
 * A fixed one-minute window per API key, counted in the store so that every hub instance
 * draws on the same budget. Over the limit: 429 with Retry-After until the window ends.
 */
export function perKeyRateLimit(
  store: Store,
  options: { scope: string; perMinute: number },
): Middleware<AuthState> {
  return async (ctx, next) => {
    const at = Date.now();
    const windowStart = at - (at % WINDOW_MS);
    const key = `${options.scope}:${ctx.state.apiKeyHash}`;
    const count = await store.rateLimits.hit(key, new Date(windowStart), WINDOW_MS);
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000));
    ctx.set('RateLimit-Limit', String(options.perMinute));
    ctx.set('RateLimit-Remaining', String(Math.max(0, options.perMinute - count)));
    ctx.set('RateLimit-Reset', String(resetSeconds));
    if (count > options.perMinute) {
      ctx.set('Retry-After', String(resetSeconds));
      throw new HubError('rateLimited', `${options.scope} limit of ${options.perMinute}/min reached`);
    }
    await next();
  };
}
