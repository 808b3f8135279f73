import Router from '@koa/router';
import type { File } from 'formidable';
import type { Context } from 'koa';
import { z } from 'zod';
import { deleteChatbotImage, storeChatbotImage } from '../../domain/assets.js';
import { invalidRequest } from '../../domain/errors.js';
import type { AssetKind, Store } from '../../store/port.js';
import { chatbotIdFromQueryOrBody } from '../chatbot-ref.js';
import type { AuthState } from '../middleware/auth.js';
import { fileBytes, multipartBody } from '../middleware/body.js';
import { chatbotId, parseInput } from '../validation.js';

// The Assets tag of API v1: a profile picture and a chat icon per chatbot.

const uploadFields = z.object({ chatbotId });

function assetPath(id: string, kind: AssetKind): string {
  return `/assets/chatbots/${encodeURIComponent(id)}/${kind}`;
}

export function assetRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();

  const upload = (kind: AssetKind, part: string, message: string) => async (ctx: Context & { state: AuthState }) => {
    const { chatbotId: id } = parseInput(uploadFields, ctx.request.body);
    await storeChatbotImage(store, ctx.state.account, id, kind, fileBytes(singleFile(ctx, part)));
    ctx.set('Content-Location', assetPath(id, kind));
    ctx.body = { message };
  };

  router.post(
    '/upload-chatbot-profile-picture',
    multipartBody(),
    upload('profile-picture', 'profilePictureFile', 'Chatbot Profile Picture uploaded successfully.'),
  );
  router.post(
    '/upload-chatbot-icon',
    multipartBody(),
    upload('icon', 'chatbotIconFile', 'Chatbot chat icon uploaded successfully.'),
  );
  router.delete('/delete-chatbot-profile-picture', async (ctx) => {
    await deleteChatbotImage(store, ctx.state.account, chatbotIdFromQueryOrBody(ctx), 'profile-picture');
    ctx.body = { message: 'Chatbot Profile Picture deleted successfully.' };
  });
  router.delete('/delete-chatbot-icon', async (ctx) => {
    await deleteChatbotImage(store, ctx.state.account, chatbotIdFromQueryOrBody(ctx), 'icon');
    ctx.body = { message: 'Chatbot icon deleted successfully.' };
  });

  return router;
}

function singleFile(ctx: Context, part: string): File {
  const file = ctx.request.files?.[part];
  if (!file || Array.isArray(file)) throw invalidRequest(`expected one file in the ${part} part`);
  return file;
}
