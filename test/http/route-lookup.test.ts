import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { routeLookup } from '../../src/http/route-lookup.js';

// Routes declared with @koa/router, found by find-my-way: @koa/router's matching rules must hold.

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** An app that answers what ran: the route's pattern, its params, and the middleware on its way. */
async function serve(...routers: Router[]): Promise<string> {
  const app = new Koa();
  app.use(routeLookup(routers));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { unmatched: true };
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server?.once('listening', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

function answering(router: Router, method: 'get' | 'post', path: string): Router {
  router[method](path, (ctx) => {
    ctx.body = { pattern: ctx.routePattern, params: { ...ctx.params }, ran: ctx.state.ran ?? [] };
  });
  return router;
}

const ran = (name: string) => async (ctx: Koa.Context, next: Koa.Next) => {
  ctx.state.ran = [...(ctx.state.ran ?? []), name];
  await next();
};

describe('routeLookup', () => {
  it("matches paths as @koa/router does: case-insensitive, trailing slash optional, parameters decoded", async () => {
    const origin = await serve(answering(new Router({ prefix: '/api' }), 'get', '/chatbots/:chatbotId/contacts/:id'));
    const response = await fetch(`${origin}/API/Chatbots/Bot%20One/contacts/a%2Fb/`);
    expect(await response.json()).toEqual({
      pattern: '/api/chatbots/:chatbotId/contacts/:id',
      params: { chatbotId: 'Bot One', id: 'a/b' },
      ran: [],
    });
  });

  it('passes on what no route answers: another path, another method, a missing or empty parameter', async () => {
    const origin = await serve(answering(new Router(), 'get', '/chatbots/:id/config'));
    for (const [method, path] of [['GET', '/bots/1/config'], ['POST', '/chatbots/1/config'], ['GET', '/chatbots/config'], ['GET', '/chatbots//config']]) {
      const response = await fetch(`${origin}${path}`, { method });
      expect([response.status, await response.json()]).toEqual([404, { unmatched: true }]);
    }
  });

  it('answers HEAD where a GET route is declared', async () => {
    const origin = await serve(answering(new Router(), 'get', '/healthz'));
    expect((await fetch(`${origin}/healthz`, { method: 'HEAD' })).status).toBe(200);
  });

  it("runs a router's middleware, in order, before the routes its path covers and no others", async () => {
    const router = new Router();
    router.use(ran('first'), ran('second'));
    router.use('/private', ran('guard'));
    answering(router, 'get', '/private/things');
    answering(router, 'post', '/open');
    const origin = await serve(router, answering(new Router(), 'get', '/elsewhere'));
    expect(await (await fetch(`${origin}/private/things`)).json()).toMatchObject({ ran: ['first', 'second', 'guard'] });
    expect(await (await fetch(`${origin}/open`, { method: 'POST' })).json()).toMatchObject({ ran: ['first', 'second'] });
    expect(await (await fetch(`${origin}/elsewhere`)).json()).toMatchObject({ ran: [] });
  });

  it('prefers a fixed path to a parameter, whichever was declared first', async () => {
    const router = answering(new Router(), 'get', '/docs/:file');
    answering(router, 'get', '/docs/start.js');
    const origin = await serve(router);
    expect(await (await fetch(`${origin}/docs/start.js`)).json()).toMatchObject({ pattern: '/docs/start.js' });
    expect(await (await fetch(`${origin}/docs/page.css`)).json()).toMatchObject({ pattern: '/docs/:file' });
  });

  it('refuses, at start-up, a route two routers declare', () => {
    expect(() => routeLookup([answering(new Router(), 'get', '/x'), answering(new Router(), 'get', '/X')])).toThrow();
  });
});
