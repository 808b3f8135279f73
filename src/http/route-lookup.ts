import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import FindMyWay from 'find-my-way';
import type { Middleware } from 'koa';
import compose from 'koa-compose';

declare module 'koa' {
  interface DefaultContext {
    /** The matched route's pattern (`/api/v1/chatbots/:chatbotId/contacts`), for logs and metrics. */
    routePattern?: string;
  }
}

type Layer = Router['stack'][number];
type Route = { pattern: string; chain: Middleware };

/**
 * The features declare their routes with @koa/router; requests find them in one find-my-way tree
 * (Fastify's router). @koa/router's own dispatch tested the path against each layer's regexp,
 * then built and composed the route's chain anew, on every request: 0.17 of bare Koa's CPU time
 * per /healthz request. Here each route's chain (the middleware of its router that covers it, then its
 * handlers) is composed once, and paths match by @koa/router's rules: case-insensitive, trailing
 * slash optional, parameters decoded and never empty. A route declared twice fails at start-up
 * instead of one copy going unused.
 */
export function routeLookup(routers: Router[]): Middleware {
  const tree = FindMyWay({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // No limit of its own, as with @koa/router: ids are checked by the routes.
    maxParamLength: Number.MAX_SAFE_INTEGER,
  });
  for (const router of routers) {
    for (const route of router.stack.filter(isRoute)) {
      const pattern = String(route.path);
      // A middleware layer (router.use) covers the routes whose pattern its path matches.
      const layers = router.stack.filter((layer) => layer === route || (!isRoute(layer) && layer.match(pattern)));
      const found: Route = { pattern, chain: compose(layers.flatMap((layer) => layer.stack) as Middleware[]) };
      // find() is all that is used: the handler find-my-way wants is never called.
      tree.on(route.methods as FindMyWay.HTTPMethod[], pattern, () => undefined, found);
    }
  }
  return (ctx, next) => {
    const match = tree.find(ctx.method as FindMyWay.HTTPMethod, ctx.path);
    if (!match || hasEmptyParameter(match.params)) return next();
    const { pattern, chain } = match.store as Route;
    ctx.routePattern = pattern;
    // Where @koa/router's handlers read them.
    (ctx as unknown as RouterContext).params = match.params as Record<string, string>;
    return chain(ctx, next);
  };
}

function isRoute(layer: Layer): boolean {
  return layer.methods.length > 0;
}

/** find-my-way lets a parameter match nothing (`/chatbots//config`); @koa/router does not. */
function hasEmptyParameter(params: Record<string, string | undefined>): boolean {
  for (const name in params) if (!params[name]) return true;
  return false;
}
