import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  bindChannel,
  DIGEST_TIME,
  isTimeZone,
  listBindings,
  listDigests,
  resolveBinding,
  subscribeDigest,
  unbind,
  unsubscribeDigest,
  type DigestWithLastRun,
} from '../../domain/integrations.js';
import {
  WORKSPACE_DEFAULT,
  type Binding,
  type Digest,
  type Store,
} from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { pageQuery } from '../schemas/listing.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput, platform, platformId } from '../validation.js';

// Hub-only resources under /integrations: channel bindings and digest subscriptions, used by the
// Slack and Discord adapters and the digest scheduler. Key-authenticated and account-scoped.

/** A channel id, or `*` for the workspace default. */
const bindingChannelId = z.union([platformId, z.literal(WORKSPACE_DEFAULT)]);

const channel = { platform, workspaceId: platformId, chatbotId: platformId };

const bindingBody = z.strictObject({
  ...channel,
  channelId: bindingChannelId,
  mode: z.enum(['mentions', 'all']).default('mentions'),
});

// A digest is posted into one channel, so `*` is not a channel here.
const digestBody = z.strictObject({
  ...channel,
  channelId: platformId,
  time: z.string().regex(DIGEST_TIME),
  timezone: z.string().refine(isTimeZone),
  postWhenEmpty: z.boolean().default(false),
});

const filterFields = {
  platform: platform.optional(),
  workspaceId: platformId.optional(),
  channelId: bindingChannelId.optional(),
  chatbotId: platformId.optional(),
};
const listQuery = pageQuery.extend(filterFields);

const resolveQuery = z.object({ platform, workspaceId: platformId, channelId: bindingChannelId });

// Path segments arrive decoded; an id that names nothing is simply not found.
const idPath = z.object({ id: z.string() });

const timestamps = { created_at: z.iso.datetime(), updated_at: z.iso.datetime() };
const bindingItem = z
  .object({
    id: z.string(),
    platform,
    workspaceId: z.string(),
    channelId: z.string(),
    chatbotId: z.string(),
    mode: z.enum(['mentions', 'all']),
    ...timestamps,
  })
  .meta({ id: 'Binding' });
const digestItem = z
  .object({
    id: z.string(),
    chatbotId: z.string(),
    platform,
    workspaceId: z.string(),
    channelId: z.string(),
    time: z.string(),
    timezone: z.string(),
    postWhenEmpty: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'Digest' });
const digestListItem = digestItem
  .extend({
    lastRun: z
      .object({
        localDate: z.string().meta({ description: 'The day of the run, YYYY-MM-DD in the digest’s time zone' }),
        status: z.enum(['posted', 'skipped', 'missed', 'failed']),
        attempts: z.number().int(),
        error: z.string().nullable().meta({ description: 'Why it failed or was missed, or a note on a posted one' }),
        finished_at: z.iso.datetime(),
      })
      .nullable()
      .meta({ description: 'How the latest finished day went; null before the first' }),
  })
  .meta({ id: 'DigestWithLastRun' });

function toBindingBody(binding: Binding): z.infer<typeof bindingItem> {
  return {
    id: binding.id,
    platform: binding.platform,
    workspaceId: binding.workspaceId,
    channelId: binding.channelId,
    chatbotId: binding.chatbotId,
    mode: binding.mode,
    created_at: isoTime(binding.createdAt),
    updated_at: isoTime(binding.updatedAt),
  };
}

function toDigestBody(digest: Digest): z.infer<typeof digestItem> {
  return {
    id: digest.id,
    chatbotId: digest.chatbotId,
    platform: digest.platform,
    workspaceId: digest.workspaceId,
    channelId: digest.channelId,
    time: digest.time,
    timezone: digest.timezone,
    postWhenEmpty: digest.postWhenEmpty,
    created_at: isoTime(digest.createdAt),
    updated_at: isoTime(digest.updatedAt),
  };
}

function toDigestListBody({ lastRun, ...digest }: DigestWithLastRun): z.infer<typeof digestListItem> {
  return {
    ...toDigestBody(digest),
    lastRun:
      lastRun?.status && lastRun.finishedAt
        ? {
            localDate: lastRun.localDate,
            status: lastRun.status,
            attempts: lastRun.attempts,
            error: lastRun.error,
            finished_at: isoTime(lastRun.finishedAt),
          }
        : null,
  };
}

export function integrationRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/integrations' });

  router.post('/bindings', async (ctx) => {
    const input = parseInput(bindingBody, ctx.request.body);
    ctx.body = success(toBindingBody(await bindChannel(store, ctx.state.account, input)));
  });

  router.get('/bindings', async (ctx) => {
    const { page, size, ...filter } = parseInput(listQuery, ctx.query);
    const bindings = await listBindings(store, ctx.state.account, filter, { page, size });
    ctx.body = success(bindings.map(toBindingBody));
  });

  router.get('/bindings/resolve', async (ctx) => {
    const channelRef = parseInput(resolveQuery, ctx.query);
    ctx.body = success(toBindingBody(await resolveBinding(store, ctx.state.account, channelRef)));
  });

  router.delete('/bindings/:id', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    ctx.body = success(toBindingBody(await unbind(store, ctx.state.account, id)));
  });

  router.post('/digests', async (ctx) => {
    const input = parseInput(digestBody, ctx.request.body);
    ctx.body = success(toDigestBody(await subscribeDigest(store, ctx.state.account, input)));
  });

  router.get('/digests', async (ctx) => {
    const { page, size, ...filter } = parseInput(listQuery, ctx.query);
    const digests = await listDigests(store, ctx.state.account, filter, { page, size });
    ctx.body = success(digests.map(toDigestListBody));
  });

  router.delete('/digests/:id', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    ctx.body = success(toDigestBody(await unsubscribeDigest(store, ctx.state.account, id)));
  });

  return router;
}

const oneBinding = jsonResponse('The binding', successOf(bindingItem));
const oneDigest = jsonResponse('The digest subscription', successOf(digestItem));
const tags = ['Integrations'];

export const integrationPaths: ZodOpenApiPathsObject = {
  '/integrations/bindings': {
    post: {
      operationId: 'bindChannel',
      tags,
      summary: 'Bind a Slack or Discord channel (or `*`, the workspace default) to a chatbot',
      requestBody: jsonRequest(bindingBody),
      responses: { 200: oneBinding, ...keyedFailures() },
    },
    get: {
      operationId: 'listBindings',
      tags,
      summary: 'List the account’s channel bindings',
      requestParams: { query: listQuery },
      responses: { 200: jsonResponse('A page of bindings', successOf(z.array(bindingItem))), ...keyedFailures() },
    },
  },
  '/integrations/bindings/resolve': {
    get: {
      operationId: 'resolveBinding',
      tags,
      summary: 'The binding that answers in a channel: its own, else the workspace default',
      requestParams: { query: resolveQuery },
      responses: { 200: oneBinding, ...keyedFailures() },
    },
  },
  '/integrations/bindings/{id}': {
    delete: {
      operationId: 'unbindChannel',
      tags,
      summary: 'Remove a channel binding',
      requestParams: { path: idPath },
      responses: { 200: oneBinding, ...keyedFailures() },
    },
  },
  '/integrations/digests': {
    post: {
      operationId: 'subscribeDigest',
      tags,
      summary: 'Post a daily lead digest of a chatbot into a channel',
      requestBody: jsonRequest(digestBody),
      responses: { 200: oneDigest, ...keyedFailures() },
    },
    get: {
      operationId: 'listDigests',
      tags,
      summary: 'List the account’s digest subscriptions',
      requestParams: { query: listQuery },
      responses: { 200: jsonResponse('A page of digests', successOf(z.array(digestListItem))), ...keyedFailures() },
    },
  },
  '/integrations/digests/{id}': {
    delete: {
      operationId: 'unsubscribeDigest',
      tags,
      summary: 'Stop a digest',
      requestParams: { path: idPath },
      responses: { 200: oneDigest, ...keyedFailures() },
    },
  },
};
