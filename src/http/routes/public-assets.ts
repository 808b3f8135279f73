import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { findChatbotImage } from '../../domain/assets.js';
import type { AssetKind, Store } from '../../store/port.js';
import { failures } from '../schemas/responses.js';

const KINDS: AssetKind[] = ['profile-picture', 'icon'];

/**
 * Chatbot images at stable public URLs (widgets and chat platforms load them without a key).
 * Served with the type detected at upload, nosniff, and an ETag for cheap revalidation.
 */
export function publicAssetRoutes(store: Store): Router {
  const router = new Router();
  for (const kind of KINDS) {
    router.get(`/assets/chatbots/:chatbotId/${kind}`, async (ctx) => {
      const asset = await findChatbotImage(store, ctx.params.chatbotId ?? '', kind);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'public, max-age=60, must-revalidate');
      ctx.set('Content-Security-Policy', "default-src 'none'");
      // Koa counts a request fresh only with a 2xx status, and the default is 404.
      ctx.status = 200;
      ctx.etag = asset.etag;
      ctx.lastModified = asset.updatedAt;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.type = asset.contentType;
      ctx.body = asset.data;
    });
  }
  return router;
}

export const publicAssetPaths: ZodOpenApiPathsObject = Object.fromEntries(
  KINDS.map((kind) => [
    `/assets/chatbots/{chatbotId}/${kind}`,
    {
      get: {
        operationId: kind === 'icon' ? 'getChatbotIcon' : 'getChatbotProfilePicture',
        tags: ['Assets'],
        summary: `The chatbot’s ${kind === 'icon' ? 'chat icon' : 'profile picture'}, public`,
        security: [],
        requestParams: { path: z.object({ chatbotId: z.string() }) },
        responses: {
          200: { description: 'The image, as uploaded', content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } } },
          304: { description: 'Unchanged since the ETag given in `If-None-Match`' },
          ...failures('notFound'),
        },
      },
    },
  ]),
);
