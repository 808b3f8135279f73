import type { Middleware } from 'koa';
import { authenticate } from '../../domain/accounts.js';
import { hashApiKey } from '../../domain/api-keys.js';
import { unauthorized } from '../../domain/errors.js';
import type { Account, Store } from '../../store/port.js';

/** `apiKeyHash` identifies the key (not the account) for per-key limits; the key itself is not kept. */
export type AuthState = { account: Account; apiKeyHash: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * How long a known key's account is reused without asking the store. Looking the key up is the
 * largest part of a light request; a second is too short for a quota changed with the admin CLI
 * to matter, and keys are never reassigned. Unknown keys are never remembered.
 */
const REMEMBER_MS = 1000;
const MAX_REMEMBERED = 10_000;

/** Requires `Authorization: Bearer <API key>` and puts the key's account in `ctx.state.account`. */
export function requireApiKey(store: Store): Middleware<AuthState> {
  const remembered = new Map<string, { account: Account; until: number }>();
  const accountOf = async (apiKeyHash: string) => {
    const now = Date.now();
    const known = remembered.get(apiKeyHash);
    if (known && known.until > now) return known.account;
    const account = await authenticate(store, apiKeyHash);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(apiKeyHash, { account, until: now + REMEMBER_MS });
    return account;
  };
  return async (ctx, next) => {
    const key = BEARER.exec(ctx.get('Authorization'))?.[1];
    if (!key) throw unauthorized('missing or malformed Authorization header');
    ctx.state.apiKeyHash = hashApiKey(key);
    ctx.state.account = await accountOf(ctx.state.apiKeyHash);
    await next();
  };
}
