import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { collectLead, deleteLead, listLeads } from '../../domain/leads.js';
import type { Lead, Store } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { listingQuery, parseListing } from '../schemas/listing.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { chatbotId, conversationId, parseInput } from '../validation.js';

// The Leads tag of API v1 (GET /get-leads), plus POST /chatbots/{chatbotId}/leads, the extension
// through which integrations, the widget and the chat engine record leads, and DELETE
// /chatbots/{chatbotId}/leads/{leadId}, erasing one.

const PHONE = /^\+?[\d ().-]*\d[\d ().-]*$/;

/** Absent, null and blank all mean "not given" (null); anything else is trimmed, then checked. */
const optionalText = <T extends z.ZodType<string>>(check: T) =>
  z
    .preprocess((value) => (typeof value === 'string' ? value.trim() || null : value), check.nullish())
    .transform((value) => value ?? null);

const leadBody = z.object({
  name: optionalText(z.string().max(200)),
  email: optionalText(z.email().max(254)),
  phone: optionalText(z.string().max(40).regex(PHONE)),
  conversationId: conversationId.optional(),
});

const chatbotRef = z.object({ chatbotId });
const leadPath = chatbotRef.extend({ leadId: z.string().min(1).max(256) });

export const leadItem = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    created_at: z.iso.datetime(),
    chatbot_id: z.string(),
    account_id: z.string(),
  })
  .meta({ id: 'Lead' });

/** An item of `collectedCustomers`: exactly the contract's fields, all strings ("" when not given). */
export function toLeadItem(lead: Lead): z.infer<typeof leadItem> {
  return {
    id: lead.id,
    name: lead.name ?? '',
    email: lead.email ?? '',
    phone: lead.phone ?? '',
    created_at: isoTime(lead.createdAt),
    chatbot_id: lead.chatbotId,
    account_id: lead.accountId,
  };
}

export function leadRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();

  router.post('/chatbots/:chatbotId/leads', async (ctx) => {
    const { chatbotId: id } = parseInput(chatbotRef, ctx.params);
    const input = parseInput(leadBody, ctx.request.body ?? {});
    const lead = await collectLead(store, ctx.state.account, id, input);
    ctx.body = { message: 'Success', data: toLeadItem(lead) };
  });

  router.delete('/chatbots/:chatbotId/leads/:leadId', async (ctx) => {
    const { chatbotId: id, leadId } = parseInput(leadPath, ctx.params);
    ctx.body = { message: 'Success', data: toLeadItem(await deleteLead(store, ctx.state.account, id, leadId)) };
  });

  router.get('/get-leads', async (ctx) => {
    const { chatbotId: id } = parseInput(chatbotRef, ctx.query);
    const { range, page } = parseListing(ctx.query);
    const leads = await listLeads(store, ctx.state.account, id, range, page);
    ctx.body = { collectedCustomers: leads.map(toLeadItem) };
  });

  return router;
}

export const leadPaths: ZodOpenApiPathsObject = {
  '/chatbots/{chatbotId}/leads': {
    post: {
      operationId: 'collectLead',
      tags: ['Leads'],
      summary: 'Record a lead: the contact details a visitor gave (extension)',
      requestParams: { path: chatbotRef },
      requestBody: jsonRequest(leadBody, { name: 'Ada Lovelace', email: 'ada@example.com', conversationId: 'c-42' }),
      responses: { 200: jsonResponse('The lead', successOf(leadItem)), ...keyedFailures() },
    },
  },
  '/chatbots/{chatbotId}/leads/{leadId}': {
    delete: {
      operationId: 'deleteLead',
      tags: ['Leads'],
      summary: 'Erase a lead (extension), e.g. on a person’s request under GDPR art. 17',
      description:
        '`leadId` is a lead’s `id` as `get-leads` shows it. Removes the lead and the webhook deliveries that carry it ' +
        '(`leads.submit`), delivered or not; events already received stay with their receivers, and the conversation the ' +
        'lead was given in stays (erase it too with DELETE …/conversations/{conversationId}). Another account’s lead, like ' +
        'an unknown one, is not found and nothing changes.',
      requestParams: { path: leadPath },
      responses: { 200: jsonResponse('The erased lead', successOf(leadItem)), ...keyedFailures() },
    },
  },
  '/get-leads': {
    get: {
      operationId: 'getLeads',
      tags: ['Leads'],
      summary: 'List a chatbot’s leads, newest first',
      requestParams: { query: listingQuery.extend(chatbotRef.shape) },
      responses: {
        200: jsonResponse('A page of leads', z.object({ collectedCustomers: z.array(leadItem) })),
        ...keyedFailures(),
      },
    },
  },
};
