import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { consoleAssets, type ConsoleAssets } from '../console-assets.js';
import { failures, textResponse } from '../schemas/responses.js';

// The owners' console: one page for every console URL (the browser's router draws the view), and
// its content-hashed assets. The console signs in and works through the API alone.

/** No inline script or style, nothing from elsewhere, no framing, no form posting anywhere. */
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The URL shapes the console draws; each loads on its own. */
const PAGES = [
  '/console',
  '/console/:section',
  '/console/chatbots/:chatbotId',
  '/console/chatbots/:chatbotId/:section',
  '/console/chatbots/:chatbotId/:section/:item',
];

export function consoleRoutes(): Router {
  const router = new Router();

  router.get('/console/assets/:name', async (ctx) => {
    const asset = (await consoleAssets()).files.get(ctx.params.name ?? '');
    if (!asset) return;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.vary('Accept-Encoding');
    ctx.type = asset.type;
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = Buffer.from(asset.gzipped);
    } else {
      ctx.body = Buffer.from(asset.body);
    }
  });

  for (const path of PAGES) {
    router.get(path, async (ctx) => {
      servePage(ctx, await consoleAssets());
    });
  }

  return router;
}

function servePage(ctx: Context, assets: ConsoleAssets): void {
  ctx.set('Content-Security-Policy', POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  // The one-time link's token rides in the fragment, which browsers never send; still, no caching.
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Switchboard console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/${assets.styles}">
<script type="module" src="/console/assets/${assets.script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`;
}

const tags = ['Console'];
const page = (operationId: string, summary: string, params?: z.ZodObject) => ({
  get: {
    operationId,
    tags,
    summary,
    security: [],
    ...(params && { requestParams: { path: params } }),
    responses: { 200: textResponse('The console page; its script draws the view', 'text/html') },
  },
});

/** Public pages: the console asks for a sign-in and then calls the API with its session. */
export const consolePaths: ZodOpenApiPathsObject = {
  '/console': page('consolePage', 'The owners’ console'),
  '/console/{section}': page('consoleSectionPage', 'A console page (e.g. `account`, `link`)', z.object({ section: z.string() })),
  '/console/chatbots/{chatbotId}': page('consoleChatbotPage', 'A chatbot in the console', z.object({ chatbotId: z.string() })),
  '/console/chatbots/{chatbotId}/{section}': page(
    'consoleChatbotSectionPage',
    'A chatbot’s console page (`playground`, `sources`, `settings`, `connect`, `activity`, `analytics`)',
    z.object({ chatbotId: z.string(), section: z.string() }),
  ),
  '/console/chatbots/{chatbotId}/{section}/{item}': page(
    'consoleChatbotItemPage',
    'One item of a chatbot’s console page (e.g. a conversation)',
    z.object({ chatbotId: z.string(), section: z.string(), item: z.string() }),
  ),
  '/console/assets/{name}': {
    get: {
      operationId: 'consoleAsset',
      tags,
      summary: 'A console script or style sheet, by content-hashed name',
      security: [],
      requestParams: { path: z.object({ name: z.string() }) },
      responses: { 200: textResponse('The asset', 'application/javascript', 'text/css'), ...failures('notFound') },
    },
  },
};
