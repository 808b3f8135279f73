import type { Context } from 'koa';
import { accessDenied } from '../../domain/errors.js';

// Console sessions ride on a cookie, which a browser attaches to requests other sites make too
// (SameSite=Strict keeps cross-site ones out, not same-site siblings such as evil.example.com).
// So a state-changing call made with a session must carry a header no form can set and come
// from the hub's own origin; a key-authenticated call needs neither.

/** Set to `1` by the console on every state-changing call. */
export const CONSOLE_HEADER = 'X-Switchboard-Console';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The hub's own origin as browsers see it: PUBLIC_URL's, else the request's scheme and Host. */
function ownOrigin(ctx: Context, publicOrigin: string | undefined): string | undefined {
  if (publicOrigin) return publicOrigin;
  try {
    // Not ctx.origin: Koa 3 answers the Origin header there.
    return new URL(`${ctx.protocol}://${ctx.host}`).origin;
  } catch {
    return undefined;
  }
}

/** Refuses (403) a request whose Origin is not the hub's own. */
export function requireOwnOrigin(ctx: Context, publicOrigin: string | undefined): void {
  const origin = ctx.get('Origin');
  if (!origin || origin !== ownOrigin(ctx, publicOrigin)) {
    throw accessDenied(`console call from origin ${JSON.stringify(origin)}`);
  }
}

/** Refuses (403) a state-changing console call without the console's header or from another origin. */
export function requireConsoleCall(ctx: Context, publicOrigin: string | undefined): void {
  if (!STATE_CHANGING.has(ctx.method)) return;
  if (ctx.get(CONSOLE_HEADER) !== '1') throw accessDenied(`console call without ${CONSOLE_HEADER}`);
  requireOwnOrigin(ctx, publicOrigin);
}
