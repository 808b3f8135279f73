import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { endSession, signInWithKey, signInWithLink } from '../../domain/console-sessions.js';
import { HubError } from '../../domain/errors.js';
import type { Account, Store } from '../../store/port.js';
import { requireConsoleSession, SESSION_COOKIE, type AuthState, type ConsoleSessionOptions } from '../middleware/auth.js';
import { failedAttempts } from '../failed-attempts.js';
import { CONSOLE_HEADER, requireOwnOrigin } from '../middleware/console-origin.js';
import { failures, jsonRequest, jsonResponse, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// The console's sign-in: POST /console/sessions trades an API key or a one-time link's token for
// a session cookie; GET /console/session reads it, DELETE /console/session ends it.

const secret = z.string().trim().min(1).max(512);
const signInBody = z.union([z.strictObject({ apiKey: secret }), z.strictObject({ linkToken: secret })]);

const consoleAccount = z.object({ account: z.object({ id: z.string(), name: z.string() }) }).meta({ id: 'ConsoleAccount' });

/** Wrong keys or links one IP address may send before its sign-ins are refused, and for how long. */
export const SIGN_IN_FAILURES = { name: 'console-sign-in', limit: 10, windowMs: 10 * 60_000 };

const accountOf = ({ id, name }: Account): z.infer<typeof consoleAccount> => ({ account: { id, name } });

export type ConsoleSessionRouteOptions = ConsoleSessionOptions & {
  /** Cookies get `Secure` (PUBLIC_URL is https); unset, they do when the request came over https. */
  secureCookies: boolean | undefined;
};

export function consoleSessionRoutes(store: Store, options: ConsoleSessionRouteOptions): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/console' });
  const session = requireConsoleSession(store, options);
  const refusedSignIns = failedAttempts(store, SIGN_IN_FAILURES);
  const setCookie = (ctx: Context, value: string, attributes: string[] = []) => {
    const secure = options.secureCookies ?? ctx.secure;
    const parts = [`${SESSION_COOKIE}=${value}`, 'HttpOnly', 'SameSite=Strict', 'Path=/', ...attributes];
    ctx.set('Set-Cookie', [...parts, ...(secure ? ['Secure'] : [])].join('; '));
    ctx.set('Cache-Control', 'no-store');
  };

  router.post('/sessions', async (ctx) => {
    requireOwnOrigin(ctx, options.publicOrigin);
    const waitMs = await refusedSignIns.waitMs(ctx.ip);
    if (waitMs > 0) {
      ctx.set('Retry-After', String(Math.ceil(waitMs / 1000)));
      throw new HubError('rateLimited', `console sign-in: ${SIGN_IN_FAILURES.limit} refused from one address`);
    }
    const input = parseInput(signInBody, ctx.request.body);
    const signIn = 'apiKey' in input ? signInWithKey(store, input.apiKey, options.idleMs) : signInWithLink(store, input.linkToken, options.idleMs);
    const signedIn = await signIn.catch(async (error: unknown) => {
      if (error instanceof HubError && error.kind === 'unauthorized') await refusedSignIns.fail(ctx.ip);
      throw error;
    });
    setCookie(ctx, signedIn.token);
    ctx.body = success(accountOf(signedIn.account));
  });

  router.get('/session', session, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = success(accountOf(ctx.state.account));
  });

  router.delete('/session', session, async (ctx) => {
    await endSession(store, ctx.state.consoleSession!);
    setCookie(ctx, '', ['Max-Age=0']);
    ctx.body = success(accountOf(ctx.state.account));
  });

  return router;
}

const tags = ['Console'];
const signedIn = successOf(consoleAccount);
const example = { message: 'Success', data: { account: { id: 'Xk3p9LrT2vQw8sYz1bNcA', name: 'default' } } };
const sessionCookie = {
  description:
    `\`${SESSION_COOKIE}\`, HttpOnly, SameSite=Strict, Path=/, and Secure when PUBLIC_URL is https. ` +
    'Every `/api/v1` route then accepts the cookie in place of `Authorization: Bearer`.',
  schema: { type: 'string' as const },
};

export const consoleSessionPaths: ZodOpenApiPathsObject = {
  '/console/sessions': {
    post: {
      operationId: 'signIn',
      tags,
      summary: 'Sign in to the console with an API key or a one-time link’s token; answers a session cookie',
      description:
        'Needs no key, but its `Origin` must be the hub’s own (PUBLIC_URL’s origin, else the request’s Host). ' +
        'A link token (from `npm run admin -- console-link ACCOUNT`) works once, for 15 minutes. A session ' +
        `ends after CONSOLE_SESSION_IDLE_HOURS unused (default 12), when signed out, or when its key is revoked. ` +
        `Calls made with it that change anything (POST, PUT, PATCH, DELETE) need the header \`${CONSOLE_HEADER}: 1\` ` +
        'and the hub’s own `Origin`, or are refused with 403; a request with both a key and the cookie uses the key. ' +
        `After ${SIGN_IN_FAILURES.limit} refused keys or links from one IP address in one window of ${SIGN_IN_FAILURES.windowMs / 60_000} minutes ` +
        '(counted by every hub process on the database together), its sign-ins are refused with 429 and `Retry-After` until the window ends; ' +
        'a sign-in that succeeds is not counted.',
      security: [],
      requestBody: jsonRequest(signInBody, { apiKey: 'sb_…' }),
      responses: {
        200: { ...jsonResponse('Signed in', signedIn, example), headers: { 'Set-Cookie': sessionCookie } },
        ...failures('invalid', 'unauthorized', 'denied', 'rateLimited'),
      },
    },
  },
  '/console/session': {
    get: {
      operationId: 'getConsoleSession',
      tags,
      summary: 'The account of the console session in the cookie',
      description: 'A key will not do: without a live session this answers 401.',
      responses: { 200: jsonResponse('Signed in', signedIn, example), ...failures('unauthorized') },
    },
    delete: {
      operationId: 'signOut',
      tags,
      summary: 'Sign out: end the console session on the server and clear its cookie',
      description: `Needs \`${CONSOLE_HEADER}: 1\` and the hub’s own \`Origin\`. The old cookie then gets 401 everywhere.`,
      responses: { 200: jsonResponse('Signed out', signedIn, example), ...failures('unauthorized', 'denied') },
    },
  },
};
