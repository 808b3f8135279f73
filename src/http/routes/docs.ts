import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { jsonResponse, failures, textResponse } from '../schemas/responses.js';

// The API's description: GET /api/v1/openapi.json, and a readable reference at /docs drawn by
// Swagger UI, served from its npm package (swagger-ui-dist), so the page loads nothing from
// elsewhere.

const OPENAPI_FILE = '/openapi.json';

const SWAGGER_UI_DIR = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));
/** The package's files the page uses, by the name they are served under. */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const startScript = (openApiPath: string) => `window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({ url: ${JSON.stringify(openApiPath)}, dom_id: '#reference', deepLinking: true });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchboard API reference</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<script src="/docs/swagger-ui-bundle.js" defer></script>
<script src="/docs/start.js" defer></script>
</head>
<body><div id="reference"></div></body>
</html>
`;

// Swagger UI sets style attributes, so inline styles are allowed; scripts and fetches are the hub's own.
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The document at `{apiPrefix}/openapi.json`, and the page at /docs. */
export function docsRoutes(apiPrefix: string, document: () => object): Router {
  const router = new Router();
  const openApiPath = `${apiPrefix}${OPENAPI_FILE}`;

  router.get(openApiPath, (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = document();
  });

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', PAGE_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });

  router.get('/docs/start.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = startScript(openApiPath);
  });

  router.get('/docs/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    const type = SWAGGER_UI_FILES[file];
    if (!type) return;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = type;
    ctx.body = await readFile(join(SWAGGER_UI_DIR, file));
  });

  return router;
}

const tags = ['Reference'];

/** Under the API's prefix. */
export const openApiPaths: ZodOpenApiPathsObject = {
  [OPENAPI_FILE]: {
    get: {
      operationId: 'openApiDocument',
      tags,
      summary: 'This document',
      security: [],
      responses: { 200: jsonResponse('The OpenAPI 3.1 document', z.looseObject({ openapi: z.literal('3.1.0') })) },
    },
  },
};

export const referencePaths: ZodOpenApiPathsObject = {
  '/docs': {
    get: {
      operationId: 'apiReference',
      tags,
      summary: 'This document as a readable page',
      security: [],
      responses: { 200: textResponse('The page', 'text/html') },
    },
  },
  '/docs/start.js': {
    get: {
      operationId: 'apiReferenceStartScript',
      tags,
      summary: 'The page’s start-up script',
      security: [],
      responses: { 200: textResponse('The script', 'text/javascript') },
    },
  },
  '/docs/{file}': {
    get: {
      operationId: 'apiReferenceAsset',
      tags,
      summary: 'The page’s Swagger UI files',
      security: [],
      requestParams: { path: z.object({ file: z.enum(Object.keys(SWAGGER_UI_FILES)) }) },
      responses: {
        200: {
          description: 'The file',
          content: {
            'text/css': { schema: z.string() },
            'text/javascript': { schema: z.string() },
            'image/png': { schema: z.string().meta({ format: 'binary' }) },
          },
        },
        ...failures('notFound'),
      },
    },
  },
};
