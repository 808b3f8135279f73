import Router from '@koa/router';
import { z } from 'zod';
import {
  ATTRIBUTE_NAME,
  ATTRIBUTE_TYPES,
  createAttribute,
  listAttributes,
  updateAttribute,
} from '../../domain/custom-attributes.js';
import type { CustomAttribute, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
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

/** An attribute carries exactly the contract's fields. */
function toAttributeBody(attribute: CustomAttribute) {
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
