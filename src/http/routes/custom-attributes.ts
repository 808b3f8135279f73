import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  ATTRIBUTE_NAME,
  ATTRIBUTE_TYPES,
  createAttribute,
  listAttributes,
  updateAttribute,
} from '../../domain/custom-attributes.js';
import type { CustomAttribute, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// The custom-attribute schema endpoint of API v1, plus the create and change extensions.

const label = z.string().trim().min(1).max(200);
const description = z.string().max(1_000);

// As in the hosted reference: only name and type are required, and unknown fields are dropped.
const createBody = z.object({
  name: z.string().regex(ATTRIBUTE_NAME),
  label: label.optional(),
  type: z.enum(ATTRIBUTE_TYPES),
  description: description.optional(),
  archived: z.boolean().optional(),
});
// No name or type: an attribute's key and type are fixed once contacts may hold values for it.
const updateBody = z
  .object({ label: label.optional(), description: description.optional(), archived: z.boolean().optional() })
  .refine((change) => Object.values(change).some((value) => value !== undefined), 'nothing to change');

const chatbotPath = z.object({ chatbotId: z.string() });
const attributePath = chatbotPath.extend({ name: z.string() });

const attributeBody = z
  .object({
    name: z.string(),
    label: z.string(),
    type: z.enum(ATTRIBUTE_TYPES),
    description: z.string(),
    archived: z.boolean(),
  })
  .meta({ id: 'CustomAttribute' });

/** An attribute carries exactly the contract's fields. */
function toAttributeBody(attribute: CustomAttribute): z.infer<typeof attributeBody> {
  const { name, label, type, description, archived } = attribute;
  return { name, label, type, description, archived };
}

export function customAttributeRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();
  const all = '/chatbots/:chatbotId/custom-attributes';

  router.get(all, async (ctx) => {
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    const attributes = await listAttributes(store, ctx.state.account, chatbotId);
    ctx.body = success(attributes.map(toAttributeBody));
  });

  router.post(all, async (ctx) => {
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    const input = parseInput(createBody, ctx.request.body);
    ctx.body = success(toAttributeBody(await createAttribute(store, ctx.state.account, chatbotId, input)));
  });

  router.put(`${all}/:name`, async (ctx) => {
    const change = parseInput(updateBody, ctx.request.body);
    const { chatbotId, name } = parseInput(attributePath, ctx.params);
    ctx.body = success(toAttributeBody(await updateAttribute(store, ctx.state.account, chatbotId, name, change)));
  });

  return router;
}

const oneAttribute = jsonResponse('The attribute', successOf(attributeBody));

export const customAttributePaths: ZodOpenApiPathsObject = {
  '/chatbots/{chatbotId}/custom-attributes': {
    get: {
      operationId: 'listCustomAttributes',
      tags: ['Custom attributes'],
      summary: 'List the contact attributes a chatbot defines',
      requestParams: { path: chatbotPath },
      responses: {
        200: jsonResponse('The attributes', successOf(z.array(attributeBody))),
        ...keyedFailures('rateLimited'),
      },
    },
    post: {
      operationId: 'createCustomAttribute',
      tags: ['Custom attributes'],
      summary: 'Define a contact attribute (extension)',
      requestParams: { path: chatbotPath },
      requestBody: jsonRequest(createBody),
      responses: { 200: oneAttribute, ...keyedFailures('rateLimited') },
    },
  },
  '/chatbots/{chatbotId}/custom-attributes/{name}': {
    put: {
      operationId: 'updateCustomAttribute',
      tags: ['Custom attributes'],
      summary: 'Change an attribute’s label, description or archived flag (extension)',
      requestParams: { path: attributePath },
      requestBody: jsonRequest(updateBody),
      responses: { 200: oneAttribute, ...keyedFailures('rateLimited') },
    },
  },
};
