import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  createContacts,
  deleteContact,
  findContact,
  listContacts,
  updateContact,
  type ContactPatch,
} from '../../domain/contacts.js';
import type { Contact, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// The Contacts tag of API v1, plus the create and list extensions.

const MAX_BATCH = 1_000;

const text = (max: number) => z.string().max(max);
const externalId = z.string().min(1).max(256);
const paymentAccount = z.object({ label: text(256), payment_id: text(256), payment_email: text(256) });
/** The hosted reference's name and shape of a payment account, read as the contract's. */
const stripeAccount = z
  .object({ label: text(256), stripe_id: text(256), stripe_email: text(256) })
  .transform(({ label, stripe_id, stripe_email }) => ({ label, payment_id: stripe_id, payment_email: stripe_email }));
const paymentAccounts = z.array(paymentAccount).max(50);

// Every field but `external_id` may be absent; `null` clears name, email and phone number.
const optionalFields = {
  name: text(256).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  phonenumber: text(64).nullable().optional(),
  payment_accounts: paymentAccounts.optional(),
  stripe_accounts: z.array(stripeAccount).max(50).optional(),
  // Keys and values are checked against the chatbot's attribute schema by the domain; in an
  // update, null removes a key.
  custom_attributes: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Values by attribute name, of the types the chatbot’s custom attributes give; in an update, merged by key, `null` removing one' }),
};

// Unknown fields are dropped, not refused, as the hosted reference documents.
const newContact = z.object({ external_id: externalId, ...optionalFields });
const contactPatch = z.object({ external_id: externalId.optional(), ...optionalFields });

const createBody = z.object({ users: z.array(newContact).min(1).max(MAX_BATCH) });
const updateBody = z.object({ data: contactPatch });

const pageNumber = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(1_000_000));
/** The hosted reference's paging: `page` and `per_page` (10–1000, default 100); `size` is an alias. */
const contactsPageQuery = z
  .object({
    page: pageNumber.default(1),
    per_page: pageNumber.pipe(z.number().min(10).max(1_000)).optional(),
    size: pageNumber.pipe(z.number().max(1_000)).optional(),
  })
  .transform(({ page, per_page, size }) => ({ page, size: per_page ?? size ?? 100 }));

// Path segments arrive decoded, so an external id may hold any character (sent percent-encoded).
const chatbotPath = z.object({ chatbotId: z.string() });
const contactPath = chatbotPath.extend({ contactId: z.string() });

const fromApi = (fields: z.infer<typeof contactPatch>): ContactPatch => ({
  externalId: fields.external_id,
  name: fields.name,
  email: fields.email,
  phonenumber: fields.phonenumber,
  paymentAccounts: fields.payment_accounts ?? fields.stripe_accounts,
  customAttributes: fields.custom_attributes,
});

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

const contactBody = z
  .object({
    id: z.string(),
    external_id: z.string(),
    name: z.string(),
    email: z.string(),
    phonenumber: z.string(),
    payment_accounts: z.array(paymentAccount),
    custom_attributes: z.record(z.string(), z.unknown()),
    created_at: z.int().meta({ description: 'Unix time, seconds' }),
    updated_at: z.int().meta({ description: 'Unix time, seconds' }),
  })
  .meta({ id: 'Contact' });
const contactPage = successOf(z.array(contactBody)).extend({
  total: z.int(),
  pages: z.object({ page: z.int(), per_page: z.int(), total_pages: z.int() }),
});

/**
 * A contact carries exactly the contract's fields. Unset name, email and phone number read as
 * "": the hosted reference types them as non-nullable strings.
 */
function toContactBody(contact: Contact): z.infer<typeof contactBody> {
  return {
    id: contact.id,
    external_id: contact.externalId,
    name: contact.name ?? '',
    email: contact.email ?? '',
    phonenumber: contact.phonenumber ?? '',
    payment_accounts: contact.paymentAccounts,
    custom_attributes: contact.customAttributes,
    created_at: unixSeconds(contact.createdAt),
    updated_at: unixSeconds(contact.updatedAt),
  };
}

export function contactRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();
  const one = '/chatbots/:chatbotId/contacts/:contactId';
  const all = '/chatbots/:chatbotId/contacts';

  router.post(all, async (ctx) => {
    const { users } = parseInput(createBody, ctx.request.body);
    const inputs = users.map((user) => ({ ...fromApi(user), externalId: user.external_id }));
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    const contacts = await createContacts(store, ctx.state.account, chatbotId, inputs);
    ctx.body = success(contacts.map(toContactBody));
  });

  router.get(all, async (ctx) => {
    const { chatbotId } = parseInput(chatbotPath, ctx.params);
    const page = parseInput(contactsPageQuery, ctx.query);
    const { contacts, total } = await listContacts(store, ctx.state.account, chatbotId, page);
    ctx.body = {
      ...success(contacts.map(toContactBody)),
      total,
      pages: { page: page.page, per_page: page.size, total_pages: Math.ceil(total / page.size) },
    };
  });

  router.get(one, async (ctx) => {
    const { chatbotId, contactId } = parseInput(contactPath, ctx.params);
    ctx.body = success(toContactBody(await findContact(store, ctx.state.account, chatbotId, contactId)));
  });

  router.patch(one, async (ctx) => {
    const { data } = parseInput(updateBody, ctx.request.body);
    const { chatbotId, contactId } = parseInput(contactPath, ctx.params);
    const contact = await updateContact(store, ctx.state.account, chatbotId, contactId, fromApi(data));
    ctx.body = success(toContactBody(contact));
  });

  router.delete(one, async (ctx) => {
    const { chatbotId, contactId } = parseInput(contactPath, ctx.params);
    ctx.body = success(toContactBody(await deleteContact(store, ctx.state.account, chatbotId, contactId)));
  });

  return router;
}

const oneContact = successOf(contactBody);
const contactFailures = () => keyedFailures('rateLimited');

export const contactPaths: ZodOpenApiPathsObject = {
  '/chatbots/{chatbotId}/contacts': {
    post: {
      operationId: 'createContacts',
      tags: ['Contacts'],
      summary: 'Create up to 1,000 contacts at once (extension); all or none',
      description: 'Unknown fields are dropped. `stripe_accounts` is read as `payment_accounts`.',
      requestParams: { path: chatbotPath },
      requestBody: jsonRequest(createBody, {
        users: [{ external_id: 'u-1', name: 'Ada Lovelace', email: 'ada@example.com', custom_attributes: { plan: 'pro' } }],
      }),
      responses: { 200: jsonResponse('The contacts', successOf(z.array(contactBody))), ...keyedFailures('conflict', 'rateLimited') },
    },
    get: {
      operationId: 'listContacts',
      tags: ['Contacts'],
      summary: 'List a chatbot’s contacts, newest first (extension)',
      requestParams: { path: chatbotPath, query: contactsPageQuery.in },
      responses: { 200: jsonResponse('A page of contacts', contactPage), ...contactFailures() },
    },
  },
  '/chatbots/{chatbotId}/contacts/{contactId}': {
    get: {
      operationId: 'getContact',
      tags: ['Contacts'],
      summary: 'Get a contact by its external id',
      requestParams: { path: contactPath },
      responses: { 200: jsonResponse('The contact', oneContact), ...contactFailures() },
    },
    patch: {
      operationId: 'updateContact',
      tags: ['Contacts'],
      summary: 'Change some of a contact’s fields; `null` clears name, email and phone number, and removes a custom attribute',
      requestParams: { path: contactPath },
      requestBody: jsonRequest(updateBody, { data: { phonenumber: '+44 20 7946 0000', custom_attributes: { plan: null } } }),
      responses: { 200: jsonResponse('The contact, changed', oneContact), ...keyedFailures('conflict', 'rateLimited') },
    },
    delete: {
      operationId: 'deleteContact',
      tags: ['Contacts'],
      summary: 'Delete a contact',
      requestParams: { path: contactPath },
      responses: { 200: jsonResponse('The deleted contact', oneContact), ...contactFailures() },
    },
  },
};
