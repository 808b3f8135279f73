import type { Middleware } from 'koa';
import { authenticate } from '../../domain/accounts.js';
import { hashApiKey } from '../../domain/api-keys.js';
import { unauthorized } from '../../domain/errors.js';
import type { Account, Store } from '../../store/port.js';

/** `apiKeyHash` identifies the key (not the account) for per-key limits; the key itself is not kept. */
export type AuthState = { account: Account; apiKeyHash: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Requires `Authorization: Bearer <API key>` and puts the key's account in `ctx.state.account`. */
export function requireApiKey(store: Store): Middleware<AuthState> {
  return async (ctx, next) => {
    const key = BEARER.exec(ctx.get('Authorization'))?.[1];
    if (!key) throw unauthorized('missing or malformed Authorization header');
    ctx.state.apiKeyHash = hashApiKey(key);
    ctx.state.account = await authenticate(store, ctx.state.apiKeyHash);
    await next();
  };
}
