import Router from '@koa/router';
import { z } from 'zod';
import { collectLead, listLeads } from '../../domain/leads.js';
import type { Lead, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { parseListing } from '../schemas/listing.js';
import { chatbotId, conversationId, parseInput } from '../validation.js';

// The Leads tag of API v1 (GET /get-leads), plus POST /chatbots/{chatbotId}/leads, the extension
// through which integrations, the widget and the chat engine record leads.

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

/** An item of `collectedCustomers`: exactly the contract's fields, all strings ("" when not given). */
function toLeadItem(lead: Lead) {
  return {
    id: lead.id,
    name: lead.name ?? '',
    email: lead.email ?? '',
    phone: lead.phone ?? '',
    created_at: lead.createdAt.toISOString(),
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

  router.get('/get-leads', async (ctx) => {
    const { chatbotId: id } = parseInput(chatbotRef, ctx.query);
    const { range, page } = parseListing(ctx.query);
    const leads = await listLeads(store, ctx.state.account, id, range, page);
    ctx.body = { collectedCustomers: leads.map(toLeadItem) };
  });

  return router;
}
