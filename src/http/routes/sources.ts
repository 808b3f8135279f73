import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { File } from 'formidable';
import { invalidRequest } from '../../domain/errors.js';
import { websiteUrl } from '../../domain/website-url.js';
import {
  addFileSources,
  addQaSource,
  addTextSource,
  addWebsiteSource,
  deleteSource,
  findSource,
  listSources,
  refreshSource,
  updateSource,
  type SourceLimits,
} from '../../domain/sources.js';
import { MAX_ANSWER_CHARS, MAX_QUESTION_CHARS } from '../../domain/qa-limits.js';
import type { ChatEngine } from '../../engine/index.js';
import type { AddressRule } from '../../net/address-rule.js';
import type { Source, Store } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { fileBytes, multipartBody } from '../middleware/body.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// Knowledge sources (an extension): what a chatbot knows, one text, file, website or question
// and answer at a time, with the contact endpoints' `{message: "Success", data}` bodies.

const MAX_TEXT_CHARS = 12_000_000;
const title = z.string().trim().min(1).max(300);
// Kept as written (its layout is the chunker's), but one of only spaces is no text (as a file of none fails).
const text = z
  .string()
  .min(1)
  .max(MAX_TEXT_CHARS)
  .refine((value) => value.trim() !== '', 'a text that is not blank')
  .meta({ description: 'Not only spaces and line breaks' });
const question = z.string().trim().min(1).max(MAX_QUESTION_CHARS);
const answer = z.string().trim().min(1).max(MAX_ANSWER_CHARS);

// Strict, as the patch is: a key of another type, or misspelt, is refused rather than dropped unread.
const textSource = z.strictObject({ type: z.literal('text'), title: title.default('Text'), text });
const qaSource = z.strictObject({ type: z.literal('qa'), question, answer });
const websiteSource = z.strictObject({
  type: z.literal('website'),
  url: websiteUrl,
  maxPages: z.int().min(1).max(1_000).default(50),
});
const newSource = z.discriminatedUnion('type', [textSource, qaSource, websiteSource]);
/** Files in one upload. */
const MAX_FILES = 10;
const FILE_PART = 'file';
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
    filename: z
      .string()
      .optional()
      .meta({ description: 'A file’s name as uploaded: its base name (no path), without control characters, at most 255 characters; `file` when none is left' }),
    contentType: z.string().optional(),
    bytes: z.int().optional(),
    url: z.string().optional(),
    maxPages: z.int().optional(),
    pages: z
      .object({ done: z.int(), failed: z.int(), total: z.int() })
      .optional()
      .meta({ description: 'A website’s pages read (done) and failed, and every page its crawl knows so far (total, skipped ones included)' }),
    question: z.string().optional(),
    answer: z.string().optional(),
  })
  .meta({ id: 'Source' });
const pageBody = z.object({
  url: z.string(),
  title: z.string(),
  status: z.enum(['read', 'failed', 'skipped']),
  chars: z.int(),
  reason: z.string().optional().meta({ description: 'Why it failed or was skipped' }),
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

export function sourceRoutes(store: Store, engine: ChatEngine, limits: SourceLimits, rule: AddressRule): Router<AuthState> {
  const router = new Router<AuthState>();
  const all = '/chatbots/:chatbotId/sources';
  const one = '/chatbots/:chatbotId/sources/:sourceId';

  router.get(all, async (ctx) => {
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    ctx.body = success((await listSources(store, ctx.state.account, chatbotId)).map(toSourceBody));
  });

  const uploads = multipartBody({ maxFiles: MAX_FILES, maxFileBytes: limits.maxFileBytes });
  router.post(
    all,
    (ctx, next) => (ctx.is('multipart') ? uploads(ctx, next) : next()),
    async (ctx) => {
      const { chatbotId } = parseInput(chatbotPath, ctx.params);
      const { account } = ctx.state;
      if (ctx.is('multipart')) {
        const sources = await addFileSources(store, account, chatbotId, uploadedFiles(ctx.request.files), limits);
        ctx.status = 202;
        ctx.body = success(sources.map(toSourceBody));
        return;
      }
      const input = parseInput(newSource, ctx.request.body);
      if (input.type === 'website') {
        const { source, known } = await addWebsiteSource(store, account, chatbotId, input, limits, rule);
        ctx.status = known ? 200 : 202;
        ctx.body = success(toSourceBody(source));
        return;
      }
      const source =
        input.type === 'text'
          ? await addTextSource(store, account, chatbotId, input, limits)
          : await addQaSource(store, account, chatbotId, input, limits);
      // Answerable once created: the index is built (off the event loop) before the answer.
      await engine.retriever.prepare(chatbotId);
      ctx.status = 201;
      ctx.body = success(toSourceBody(source));
    },
  );

  router.post(`${one}/refresh`, async (ctx) => {
    const { chatbotId, sourceId } = parseInput(sourcePath, ctx.params);
    ctx.status = 202;
    ctx.body = success(toSourceBody(await refreshSource(store, ctx.state.account, chatbotId, sourceId)));
  });

  router.get(one, async (ctx) => {
    const { chatbotId, sourceId } = parseInput(sourcePath, ctx.params);
    const { source, text: extracted, pageList } = await findSource(store, ctx.state.account, chatbotId, sourceId);
    ctx.body = success({ ...toSourceBody(source), text: extracted, ...(pageList ? { pageList } : {}) });
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

/**
 * The files of the upload's `file` parts, each with its name. None is a malformed request, and so
 * is a file in a part of another name (`files`), which would otherwise be dropped unread.
 */
function uploadedFiles(parts: Record<string, File | File[]> = {}): { filename: string; bytes: Buffer }[] {
  const { [FILE_PART]: named, ...others } = parts;
  const misplaced = Object.keys(others);
  if (misplaced.length > 0) throw invalidRequest(`files go in ${FILE_PART} parts, not in ${misplaced.join(', ')}`);
  const files = named === undefined ? [] : [named].flat();
  if (files.length === 0) throw invalidRequest(`expected one or more files in ${FILE_PART} parts`);
  return files.map((file) => ({ filename: file.originalFilename ?? 'file', bytes: fileBytes(file) }));
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
      summary: 'Add files, a website, a text or a question with its answer (extension)',
      description:
        'Files (multipart, one to ten `file` parts of at most SOURCES_MAX_FILE_MB each, a DOCX unpacked too: PDF, DOCX, Markdown, HTML or plain text, ' +
        'judged by their content; a file in a part of another name is refused) and websites (`maxPages` 1 to 1,000, default 50) are read by a job: 202, queued. ' +
        'A website whose URL, once normalised, is that of one of the chatbot’s website sources already, or the same page on that host as a crawl ' +
        'counts hosts (its www. twin, http for https), adds none: that source is crawled again ' +
        'with this `maxPages` (one being read is left to finish) and answered with 200. ' +
        'Texts and questions with their answers are trained before the answer: 201, ready. A JSON body with a key its type does not take ' +
        'is refused (400), as an edit’s is. A chatbot’s sources ' +
        'together hold at most SOURCES_MAX_CHARS_PER_CHATBOT characters (else 403).',
      requestParams: { path: chatbotPath },
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: newSource,
            example: { type: 'qa', question: 'Do you deliver on Sundays?', answer: 'No, Monday to Saturday only.' },
          },
          'multipart/form-data': { schema: z.object({ [FILE_PART]: z.array(z.string().meta({ format: 'binary' })) }) },
        },
      },
      responses: {
        200: jsonResponse('The chatbot’s source of that website already, queued to be crawled again', oneSource),
        201: jsonResponse('The new source, ready', oneSource),
        202: jsonResponse('The new sources, queued to be read', successOf(z.union([sourceBody, z.array(sourceBody)]))),
        ...keyedFailures('denied'),
      },
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
      description:
        'A new text (or question and answer) counts against the SOURCES_MAX_CHARS_PER_CHATBOT characters of the chatbot’s sources, ' +
        'the text it replaces left out: past it, 403 and nothing changed.',
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
  '/chatbots/{chatbotId}/sources/{sourceId}/refresh': {
    post: {
      operationId: 'refreshSource',
      tags: ['Sources'],
      summary: 'Read a file again or crawl a website again (extension)',
      requestParams: { path: sourcePath },
      responses: { 202: jsonResponse('The source, queued', oneSource), ...keyedFailures() },
    },
  },
};
