import Router from '@koa/router';
import type { File } from 'formidable';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { deleteChatbotImage, storeChatbotImage } from '../../domain/assets.js';
import { invalidRequest } from '../../domain/errors.js';
import type { AssetKind, Store } from '../../store/port.js';
import { chatbotIdFromQueryOrBody, chatbotReference } from '../chatbot-ref.js';
import type { AuthState } from '../middleware/auth.js';
import { fileBytes, multipartBody } from '../middleware/body.js';
import { jsonResponse, keyedFailures, messageOf } from '../schemas/responses.js';
import { chatbotId, parseInput } from '../validation.js';

// The Assets tag of API v1: a profile picture and a chat icon per chatbot.

const uploadFields = z.object({ chatbotId });

/** Per kind: the form part carrying the file, and the contract's confirmation texts. */
const KINDS = {
  'profile-picture': {
    part: 'profilePictureFile',
    uploaded: 'Chatbot Profile Picture uploaded successfully.',
    deleted: 'Chatbot Profile Picture deleted successfully.',
  },
  icon: {
    part: 'chatbotIconFile',
    uploaded: 'Chatbot chat icon uploaded successfully.',
    deleted: 'Chatbot icon deleted successfully.',
  },
} as const satisfies Record<AssetKind, object>;

function assetPath(id: string, kind: AssetKind): string {
  return `/assets/chatbots/${encodeURIComponent(id)}/${kind}`;
}

export function assetRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();

  const upload = (kind: AssetKind) => async (ctx: Context & { state: AuthState }) => {
    const { chatbotId: id } = parseInput(uploadFields, ctx.request.body);
    await storeChatbotImage(store, ctx.state.account, id, kind, fileBytes(singleFile(ctx, KINDS[kind].part)));
    ctx.set('Content-Location', assetPath(id, kind));
    ctx.body = { message: KINDS[kind].uploaded };
  };

  router.post('/upload-chatbot-profile-picture', multipartBody(), upload('profile-picture'));
  router.post('/upload-chatbot-icon', multipartBody(), upload('icon'));
  router.delete('/delete-chatbot-profile-picture', async (ctx) => {
    await deleteChatbotImage(store, ctx.state.account, chatbotIdFromQueryOrBody(ctx), 'profile-picture');
    ctx.body = { message: KINDS['profile-picture'].deleted };
  });
  router.delete('/delete-chatbot-icon', async (ctx) => {
    await deleteChatbotImage(store, ctx.state.account, chatbotIdFromQueryOrBody(ctx), 'icon');
    ctx.body = { message: KINDS.icon.deleted };
  });

  return router;
}

function singleFile(ctx: Context, part: string): File {
  const file = ctx.request.files?.[part];
  if (!file || Array.isArray(file)) throw invalidRequest(`expected one file in the ${part} part`);
  return file;
}

function uploadOperation(kind: AssetKind, operationId: string): ZodOpenApiOperationObject {
  return {
    operationId,
    tags: ['Assets'],
    summary: `Upload the chatbot’s ${kind === 'icon' ? 'chat icon' : 'profile picture'} (PNG, JPEG, GIF or WebP)`,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': { schema: uploadFields.extend({ [KINDS[kind].part]: z.string().meta({ format: 'binary' }) }) },
      },
    },
    responses: {
      200: {
        ...jsonResponse('Stored; `Content-Location` names its public URL', messageOf(KINDS[kind].uploaded)),
        headers: { 'Content-Location': { schema: { type: 'string' } } },
      },
      ...keyedFailures(),
    },
  };
}

function deleteOperation(kind: AssetKind, operationId: string): ZodOpenApiOperationObject {
  return {
    operationId,
    tags: ['Assets'],
    summary: `Delete the chatbot’s ${kind === 'icon' ? 'chat icon' : 'profile picture'}`,
    description: '`chatbotId` may also be given in a JSON body.',
    requestParams: { query: chatbotReference },
    responses: { 200: jsonResponse('Deleted', messageOf(KINDS[kind].deleted)), ...keyedFailures() },
  };
}

export const assetPaths: ZodOpenApiPathsObject = {
  '/upload-chatbot-profile-picture': {
    post: uploadOperation('profile-picture', 'uploadChatbotProfilePicture'),
  },
  '/upload-chatbot-icon': { post: uploadOperation('icon', 'uploadChatbotIcon') },
  '/delete-chatbot-profile-picture': { delete: deleteOperation('profile-picture', 'deleteChatbotProfilePicture') },
  '/delete-chatbot-icon': { delete: deleteOperation('icon', 'deleteChatbotIcon') },
};
