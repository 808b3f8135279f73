import { z } from 'zod';
import { UniqueViolation } from '../store/errors.js';
import type { Account, AttributeChange, AttributeType, CustomAttribute, Store } from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { invalidRequest, notFound } from './errors.js';

// The schema of a chatbot's contact attributes: which keys a contact's `custom_attributes` may
// set, and what type each value must have.

export const ATTRIBUTE_TYPES = ['text', 'number', 'boolean', 'date'] as const satisfies readonly AttributeType[];

/**
 * A key that is safe as a JSON key and as a MongoDB field name: no dots, no `$`, and no leading
 * `__`, which would let `__proto__` in. Hyphens are allowed, as in the hosted reference.
 */
export const ATTRIBUTE_NAME = /^(?!__)[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const MAX_TEXT_VALUE = 10_000;

const isoDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const decimal = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** What a value of each type may be sent as, and the value it is stored as. */
const valueSchemas: Record<AttributeType, z.ZodType<unknown>> = {
  text: z
    .union([z.string(), z.number(), z.boolean()])
    .transform(String)
    .pipe(z.string().max(MAX_TEXT_VALUE)),
  number: z.union([z.number(), z.string().trim().regex(decimal).transform(Number)]).pipe(z.number().finite()),
  boolean: z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]),
  date: isoDate,
};

/**
 * Refuses keys the schema lacks or has archived, and values that cannot be read as their type;
 * answers the values coerced to their types ("42" for a number is 42, "true" for a boolean is true).
 * With `nullRemoves` (an update), null is kept for any key the schema has, archived ones too: it
 * removes the key, as the hosted reference lets an archived attribute be set to null.
 */
export function coerceAttributeValues(
  schema: CustomAttribute[],
  values: Record<string, unknown>,
  { nullRemoves = false } = {},
): Record<string, unknown> {
  const byName = new Map(schema.map((attribute) => [attribute.name, attribute]));
  const coerced: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const attribute = byName.get(key);
    if (!attribute) throw invalidRequest(`unknown custom attribute ${key}`);
    if (value === null && nullRemoves) {
      coerced[key] = null;
      continue;
    }
    if (attribute.archived) throw invalidRequest(`custom attribute ${key} is archived`);
    const parsed = valueSchemas[attribute.type].safeParse(value);
    if (!parsed.success) throw invalidRequest(`custom attribute ${key} must be a ${attribute.type}`);
    coerced[key] = parsed.data;
  }
  return coerced;
}

export async function listAttributes(store: Store, account: Account, chatbotId: string): Promise<CustomAttribute[]> {
  await findOwnedChatbot(store, account, chatbotId);
  return store.attributes.list(chatbotId);
}

export async function createAttribute(
  store: Store,
  account: Account,
  chatbotId: string,
  input: { name: string; label?: string; type: AttributeType; description?: string; archived?: boolean },
): Promise<CustomAttribute> {
  await findOwnedChatbot(store, account, chatbotId);
  const attribute: CustomAttribute = {
    chatbotId,
    name: input.name,
    label: input.label ?? input.name,
    type: input.type,
    description: input.description ?? '',
    archived: input.archived ?? false,
    createdAt: new Date(),
  };
  try {
    await store.attributes.create(attribute);
  } catch (error) {
    // The contract's only conflict body is about contacts, so a taken name is an invalid request.
    if (error instanceof UniqueViolation) throw invalidRequest(`custom attribute ${input.name} exists`);
    throw error;
  }
  return attribute;
}

/** Relabels, describes, archives or unarchives; the name and type never change. */
export async function updateAttribute(
  store: Store,
  account: Account,
  chatbotId: string,
  name: string,
  change: AttributeChange,
): Promise<CustomAttribute> {
  await findOwnedChatbot(store, account, chatbotId);
  const updated = await store.attributes.update(chatbotId, name, change);
  if (!updated) throw notFound(`custom attribute ${name}`);
  return updated;
}
