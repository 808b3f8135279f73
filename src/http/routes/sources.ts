import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  addQaSource,
  addTextSource,
  DEFAULT_SOURCE_LIMITS,
  deleteSource,
  findSource,
  listSources,
  updateSource,
  type SourceLimits,
} from '../../domain/sources.js';
import type { ChatEngine } from '../../engine/index.js';
import type { Source, Store } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// Knowledge sources (an extension): what a chatbot knows, one text, file, website or question
// and answer at a time, with the contact endpoints' `{message: "Success", data}` bodies.

const MAX_TEXT_CHARS = 12_000_000;
const title = z.string().trim().min(1).max(300);
const text = z.string().min(1).max(MAX_TEXT_CHARS);
const question = z.string().trim().min(1).max(2_000);
const answer = z.string().trim().min(1).max(20_000);

const textSource = z.object({ type: z.literal('text'), title: title.default('Text'), text });
const qaSource = z.object({ type: z.literal('qa'), question, answer });
const newSource = z.discriminatedUnion('type', [textSource, qaSource]);
const sourcePatch = z
  .object({ title: title.optional(), text: text.optional(), question: question.optional(), answer: answer.optional() })
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'nothing to change');

const chatbotPath = z.object({ chatbotId: z.string() });
const sourcePath = chatbotPath.extend({ sourceId: z.string() });

const sourceBody = z
  .object({
    id: z.string(),
    type: z.enum(['text', 'file', 'website', 'qa']),
    title: z.string(),
    status: z.enum(['queued', 'processing', 'ready', 'failed']),
    error: z.string().nullable().meta({ description: 'One plain sentence when failed' }),
    chars: z.int().meta({ description: 'Characters of extracted text' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    filename: z.string().optional(),
    contentType: z.string().optional(),
    bytes: z.int().optional(),
    url: z.string().optional(),
    maxPages: z.int().optional(),
    pages: z.object({ done: z.int(), failed: z.int(), total: z.int() }).optional(),
    question: z.string().optional(),
    answer: z.string().optional(),
  })
  .meta({ id: 'Source' });
const pageBody = z.object({
  url: z.string(),
  title: z.string(),
  status: z.enum(['read', 'failed', 'skipped']),
  chars: z.int(),
});
const sourceDetail = sourceBody
  .extend({
    text: z.string().meta({ description: 'The extracted text: its first 200,000 characters' }),
    pageList: z.array(pageBody).optional().meta({ description: 'A website’s pages' }),
  })
  .meta({ id: 'SourceDetail' });

/** The fields a type of source has besides the common ones. */
const PER_TYPE = ['filename', 'contentType', 'bytes', 'url', 'maxPages', 'pages', 'question', 'answer'] as const;

export function toSourceBody(source: Source): z.infer<typeof sourceBody> {
  const perType = Object.fromEntries(PER_TYPE.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
  return {
    id: source.id,
    type: source.type,
    title: source.title,
    status: source.status,
    error: source.error,
    chars: source.chars,
    created_at: isoTime(source.createdAt),
    updated_at: isoTime(source.updatedAt),
    ...perType,
  };
}

export function sourceRoutes(store: Store, engine: ChatEngine, limits: SourceLimits = DEFAULT_SOURCE_LIMITS): Router<AuthState> {
  const router = new Router<AuthState>();
  const all = '/chatbots/:chatbotId/sources';
  const one = '/chatbots/:chatbotId/sources/:sourceId';

  router.get(all, async (ctx) => {
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    ctx.body = success((await listSources(store, ctx.state.account, chatbotId)).map(toSourceBody));
  });

  router.post(all, async (ctx) => {
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    const input = parseInput(newSource, ctx.request.body);
    const { account } = ctx.state;
    const source =
      input.type === 'text'
        ? await addTextSource(store, account, chatbotId, input, limits)
        : await addQaSource(store, account, chatbotId, input, limits);
    // Answerable once created: the index is built (off the event loop) before the answer.
    await engine.retriever.prepare(chatbotId);
    ctx.status = 201;
    ctx.body = success(toSourceBody(source));
  });

  router.get(one, async (ctx) => {
    const { chatbotId, sourceId } = parseInput(sourcePath, ctx.params);
    const { source, text: extracted } = await findSource(store, ctx.state.account, chatbotId, sourceId);
    ctx.body = success({ ...toSourceBody(source), text: extracted });
  });

  router.patch(one, async (ctx) => {
    const { chatbotId, sourceId } = parseInput(sourcePath, ctx.params);
    const patch = parseInput(sourcePatch, ctx.request.body);
    const source = await updateSource(store, ctx.state.account, chatbotId, sourceId, patch, limits);
    await engine.retriever.prepare(chatbotId);
    ctx.body = success(toSourceBody(source));
  });

  router.delete(one, async (ctx) => {
    const { chatbotId, sourceId } = parseInput(sourcePath, ctx.params);
    const { source } = await findSource(store, ctx.state.account, chatbotId, sourceId);
    await deleteSource(store, ctx.state.account, chatbotId, sourceId);
    await engine.retriever.prepare(chatbotId);
    ctx.body = success(toSourceBody(source));
  });

  return router;
}

const oneSource = successOf(sourceBody);

export const sourcePaths: ZodOpenApiPathsObject = {
  '/chatbots/{chatbotId}/sources': {
    get: {
      operationId: 'listSources',
      tags: ['Sources'],
      summary: 'List a chatbot’s knowledge sources, oldest first, with their progress (extension)',
      requestParams: { path: chatbotPath },
      responses: { 200: jsonResponse('The sources', successOf(z.array(sourceBody))), ...keyedFailures() },
    },
    post: {
      operationId: 'createSource',
      tags: ['Sources'],
      summary: 'Add a text or a question with its answer (extension)',
      description: 'A chatbot’s sources together hold at most SOURCES_MAX_CHARS_PER_CHATBOT characters (else 403).',
      requestParams: { path: chatbotPath },
      requestBody: jsonRequest(newSource, { type: 'qa', question: 'Do you deliver on Sundays?', answer: 'No, Monday to Saturday only.' }),
      responses: { 201: jsonResponse('The new source, ready', oneSource), ...keyedFailures('denied') },
    },
  },
  '/chatbots/{chatbotId}/sources/{sourceId}': {
    get: {
      operationId: 'getSource',
      tags: ['Sources'],
      summary: 'Get a source with its extracted text (extension)',
      requestParams: { path: sourcePath },
      responses: { 200: jsonResponse('The source', successOf(sourceDetail)), ...keyedFailures() },
    },
    patch: {
      operationId: 'updateSource',
      tags: ['Sources'],
      summary: 'Edit a text source (title, text) or a Q&A source (question, answer) (extension)',
      requestParams: { path: sourcePath },
      requestBody: jsonRequest(sourcePatch, { answer: 'Yes, from 10am to 4pm.' }),
      responses: { 200: jsonResponse('The source, changed and trained', oneSource), ...keyedFailures('denied') },
    },
    delete: {
      operationId: 'deleteSource',
      tags: ['Sources'],
      summary: 'Remove a source: answers stop using it once this returns (extension)',
      requestParams: { path: sourcePath },
      responses: { 200: jsonResponse('The deleted source', oneSource), ...keyedFailures() },
    },
  },
};
