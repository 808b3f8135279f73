import type { Context, Middleware } from 'koa';
import { authenticate } from '../../domain/accounts.js';
import { hashApiKey } from '../../domain/api-keys.js';
import { resumeSession } from '../../domain/console-sessions.js';
import { unauthorized } from '../../domain/errors.js';
import type { Account, ConsoleSession, Store } from '../../store/port.js';
import { requireConsoleCall } from './console-origin.js';

export type AuthState = {
  account: Account;
  /**
   * Identifies the credential (not the account) for per-key limits: the key's hash, also for a
   * console session signed in with that key (a link session's own token hash otherwise). The key
   * itself is not kept.
   */
  apiKeyHash: string;
  /** Set when the caller is a console session rather than a key. */
  consoleSession?: ConsoleSession;
};

/** The cookie holding a console session's token. */
export const SESSION_COOKIE = 'sb_session';

export type ConsoleSessionOptions = {
  /** Unused this long, a session ends (CONSOLE_SESSION_IDLE_HOURS). */
  idleMs: number;
  /** PUBLIC_URL's origin; the request's own when unset. */
  publicOrigin: string | undefined;
};

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * How long a known key's account is reused without asking the store. Looking the key up is the
 * largest part of a light request; a second is too short for a quota changed with the admin CLI
 * to matter, and keys are never reassigned (a revoked key is forgotten at once by the instance
 * that revoked it). Unknown keys are never remembered.
 */
const REMEMBER_MS = 1000;
const MAX_REMEMBERED = 10_000;

/** The accounts of known keys, by the keys' hashes. */
export type KeyAccounts = { accountOf(apiKeyHash: string): Promise<Account>; forget(apiKeyHash: string): void };

export function keyAccounts(store: Store): KeyAccounts {
  const remembered = new Map<string, { account: Account; until: number }>();
  return {
    async accountOf(apiKeyHash) {
      const now = Date.now();
      const known = remembered.get(apiKeyHash);
      if (known && known.until > now) return known.account;
      const account = await authenticate(store, apiKeyHash);
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(apiKeyHash, { account, until: now + REMEMBER_MS });
      return account;
    },
    forget(apiKeyHash) {
      remembered.delete(apiKeyHash);
    },
  };
}

/**
 * Requires `Authorization: Bearer <API key>` or, without that header, a console session's cookie
 * (state-changing calls with a session must also pass requireConsoleCall), and puts the caller's
 * account in `ctx.state.account`.
 */
export function requireCaller(
  store: Store,
  keys: KeyAccounts,
  sessions: ConsoleSessionOptions,
): Middleware<AuthState> {
  return async (ctx, next) => {
    const authorization = ctx.get('Authorization');
    const token = authorization ? undefined : ctx.cookies.get(SESSION_COOKIE);
    if (token) await useSession(ctx, store, token, sessions);
    else {
      const key = BEARER.exec(authorization)?.[1];
      if (!key) throw unauthorized('missing or malformed Authorization header');
      ctx.state.apiKeyHash = hashApiKey(key);
      ctx.state.account = await keys.accountOf(ctx.state.apiKeyHash);
    }
    await next();
  };
}

/** Requires a console session's cookie (a key will not do) and puts its account in `ctx.state.account`. */
export function requireConsoleSession(store: Store, sessions: ConsoleSessionOptions): Middleware<AuthState> {
  return async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token) throw unauthorized('no console session');
    await useSession(ctx, store, token, sessions);
    await next();
  };
}

async function useSession(
  ctx: Context & { state: AuthState },
  store: Store,
  token: string,
  { idleMs, publicOrigin }: ConsoleSessionOptions,
): Promise<void> {
  // Before the store is asked: a forged request costs nothing.
  requireConsoleCall(ctx, publicOrigin);
  const { account, session } = await resumeSession(store, token, idleMs);
  ctx.state.account = account;
  ctx.state.consoleSession = session;
  ctx.state.apiKeyHash = session.apiKeyHash ?? session.tokenHash;
  // Shared caches may keep answers to requests with cookies (not those with Authorization).
  ctx.set('Cache-Control', 'no-store');
}
