import Router from '@koa/router';
import { findChatbotImage } from '../../domain/assets.js';
import type { AssetKind, Store } from '../../store/port.js';

/**
 * Chatbot images at stable public URLs (widgets and chat platforms load them without a key).
 * Served with the type detected at upload, nosniff, and an ETag for cheap revalidation.
 */
export function publicAssetRoutes(store: Store): Router {
  const router = new Router();
  const kinds: AssetKind[] = ['profile-picture', 'icon'];

  for (const kind of kinds) {
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
