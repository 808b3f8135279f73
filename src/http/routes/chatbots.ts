import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { createChatbot, deleteChatbot, listChatbots, updateChatbotData, updateChatbotSettings } from '../../domain/chatbots.js';
import { findOwnedChatbot } from '../../domain/owned-chatbot.js';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from '../../domain/sources.js';
import { chatbotName, chatbotSettingsSchema, settingsPatchSchema } from '../../settings/chatbot-settings.js';
import type { ChatEngine } from '../../engine/index.js';
import { MODEL_IDS } from '../../settings/models.js';
import type { Chatbot, ChatbotSummary, Store } from '../../store/port.js';
import { chatbotIdFromQueryOrBody, chatbotReference } from '../chatbot-ref.js';
import { imageUrl } from '../image-url.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, messageOf, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { chatbotId, parseInput } from '../validation.js';

// The Chatbots tag of API v1, plus the DELETE /delete-chatbot and GET /chatbots/{chatbotId} extensions.

const MAX_SOURCE_CHARS = 12_000_000;
const sourceText = z.string().max(MAX_SOURCE_CHARS);

// As in the hosted reference: only the name is required, so a chatbot may start (or be renamed)
// without material; with none it declines politely.
const newName = chatbotName.min(3);
const createBody = z.object({ chatbotName: newName, sourceText: sourceText.optional() });
const updateDataBody = z.object({ chatbotId, chatbotName: newName, sourceText: sourceText.optional() });
const updateSettingsBody = settingsPatchSchema.extend({ chatbotId, name: chatbotName.optional() }).strict();

const chatbotRef = z.object({ chatbotId: z.string() });
const savedText = 'Your changes are saved.';
const deletedText = 'Deleted successfully';

const statuses = z.enum(['training', 'ready']);

const chatbotItem = z
  .object({
    id: z.string(),
    name: z.string(),
    status: statuses,
    model: z.enum(MODEL_IDS),
    instructions: z.string(),
    visibility: z.enum(['public', 'private']),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Chatbot' });

/** A list item carries exactly the contract's fields. */
function toChatbotItem(chatbot: ChatbotSummary): z.infer<typeof chatbotItem> {
  return {
    id: chatbot.id,
    name: chatbot.name,
    status: chatbot.status,
    model: chatbot.settings.model,
    instructions: chatbot.settings.instructions,
    visibility: chatbot.settings.visibility,
    created_at: isoTime(chatbot.createdAt),
    updated_at: isoTime(chatbot.updatedAt),
  };
}

const chatbotPath = z.object({ chatbotId });

/** A path on the hub that changes with each upload (see image-url.ts). */
const imageAddress = z.string().nullable();

/**
 * One chatbot with every setting, in the shape update-chatbot-settings takes them, and where its
 * images are, so a client shows them without asking for one that is not there.
 */
const chatbotDetails = z
  .object({
    id: z.string(),
    name: z.string(),
    status: statuses,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    settings: chatbotSettingsSchema,
    profilePictureUrl: imageAddress.meta({ description: 'The profile picture’s public address; null when there is none' }),
    iconUrl: imageAddress.meta({ description: 'The chat icon’s public address; null when there is none' }),
  })
  .meta({ id: 'ChatbotDetails' });

async function toChatbotDetails(store: Store, chatbot: Chatbot): Promise<z.infer<typeof chatbotDetails>> {
  const [profilePictureUrl, iconUrl] = await Promise.all([imageUrl(store, chatbot.id, 'profile-picture'), imageUrl(store, chatbot.id, 'icon')]);
  return {
    id: chatbot.id,
    name: chatbot.name,
    status: chatbot.status,
    created_at: isoTime(chatbot.createdAt),
    updated_at: isoTime(chatbot.updatedAt),
    settings: chatbot.settings,
    profilePictureUrl,
    iconUrl,
  };
}

export function chatbotRoutes(store: Store, engine: ChatEngine, limits: SourceLimits = DEFAULT_SOURCE_LIMITS): Router<AuthState> {
  const router = new Router<AuthState>();

  router.post('/create-chatbot', async (ctx) => {
    const input = parseInput(createBody, ctx.request.body);
    const chatbot = await createChatbot(store, ctx.state.account, {
      name: input.chatbotName,
      sourceText: input.sourceText,
    }, limits);
    // Ready means answerable: the index is built (off the event loop) before the answer; the
    // chunks are embedded after it, in the background.
    await engine.retriever.prepare(chatbot.id);
    ctx.body = { chatbotId: chatbot.id };
  });

  router.post('/update-chatbot-data', async (ctx) => {
    const input = parseInput(updateDataBody, ctx.request.body);
    const chatbot = await updateChatbotData(store, ctx.state.account, {
      chatbotId: input.chatbotId,
      name: input.chatbotName,
      sourceText: input.sourceText,
    }, limits);
    await engine.retriever.prepare(chatbot.id);
    ctx.body = { chatbotId: chatbot.id };
  });

  router.post('/update-chatbot-settings', async (ctx) => {
    const { chatbotId: id, name, ...settings } = parseInput(updateSettingsBody, ctx.request.body);
    await updateChatbotSettings(store, ctx.state.account, id, { name, settings });
    // The hosted reference answers 202 here; the contract names only the body.
    ctx.status = 202;
    ctx.body = { message: savedText };
  });

  router.get('/get-chatbots', async (ctx) => {
    const chatbots = await listChatbots(store, ctx.state.account);
    ctx.body = { chatbots: chatbots.map(toChatbotItem) };
  });

  router.get('/chatbots/:chatbotId', async (ctx) => {
    const { chatbotId: id } = parseInput(chatbotPath, ctx.params);
    ctx.body = success(await toChatbotDetails(store, await findOwnedChatbot(store, ctx.state.account, id)));
  });

  router.delete('/delete-chatbot', async (ctx) => {
    await deleteChatbot(store, ctx.state.account, chatbotIdFromQueryOrBody(ctx));
    ctx.body = { message: deletedText };
  });

  return router;
}

export const chatbotPaths: ZodOpenApiPathsObject = {
  '/create-chatbot': {
    post: {
      operationId: 'createChatbot',
      tags: ['Chatbots'],
      summary: 'Create a chatbot, trained on `sourceText` when given',
      requestBody: jsonRequest(createBody, { chatbotName: 'Support', sourceText: 'We open at 9am and close at 5pm.' }),
      responses: {
        200: jsonResponse('The new chatbot, ready to answer', chatbotRef, { chatbotId: 'V1StGXR8_Z5jdHi6B-myT' }),
        ...keyedFailures('denied'),
      },
    },
  },
  '/update-chatbot-data': {
    post: {
      operationId: 'updateChatbotData',
      tags: ['Chatbots'],
      summary: 'Rename a chatbot, and retrain it when `sourceText` is given',
      description:
        'The `sourceText` replaces the chatbot’s `API text` source and counts against the SOURCES_MAX_CHARS_PER_CHATBOT characters ' +
        'of its sources, the text it replaces left out: past it, 403 and nothing changed.',
      requestBody: jsonRequest(updateDataBody, { chatbotId: 'V1StGXR8_Z5jdHi6B-myT', chatbotName: 'Support desk' }),
      responses: { 200: jsonResponse('The chatbot, retrained', chatbotRef), ...keyedFailures('denied') },
    },
  },
  '/update-chatbot-settings': {
    post: {
      operationId: 'updateChatbotSettings',
      tags: ['Chatbots'],
      summary: 'Change some of a chatbot’s settings; the others keep their values',
      requestBody: jsonRequest(updateSettingsBody, {
        chatbotId: 'V1StGXR8_Z5jdHi6B-myT',
        instructions: 'Answer briefly, in English.',
        visibility: 'public',
        suggestedMessages: ['When are you open?'],
      }),
      responses: { 202: jsonResponse('Saved', messageOf(savedText)), ...keyedFailures() },
    },
  },
  '/get-chatbots': {
    get: {
      operationId: 'getChatbots',
      tags: ['Chatbots'],
      summary: 'List the account’s chatbots',
      responses: { 200: jsonResponse('The chatbots', z.object({ chatbots: z.array(chatbotItem) })), ...keyedFailures() },
    },
  },
  '/chatbots/{chatbotId}': {
    get: {
      operationId: 'getChatbot',
      tags: ['Chatbots'],
      summary: 'Read one chatbot with every setting, in the shape `update-chatbot-settings` takes them',
      requestParams: { path: chatbotPath },
      responses: { 200: jsonResponse('The chatbot', successOf(chatbotDetails)), ...keyedFailures() },
    },
  },
  '/delete-chatbot': {
    delete: {
      operationId: 'deleteChatbot',
      tags: ['Chatbots'],
      summary: 'Delete a chatbot and everything it holds',
      description: '`chatbotId` may also be given in a JSON body.',
      requestParams: { query: chatbotReference },
      responses: { 200: jsonResponse('Deleted', messageOf(deletedText)), ...keyedFailures() },
    },
  },
};
