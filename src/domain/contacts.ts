import { nanoid } from 'nanoid';
import { UniqueViolation } from '../store/errors.js';
import type { Account, Contact, ContactChange, Page, PaymentAccount, Store } from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { coerceAttributeValues } from './custom-attributes.js';
import { conflict, notFound } from './errors.js';

// A chatbot's contacts, keyed by the caller's external id. Uniqueness of external ids and emails
// is the database's job (unique indexes), so racing writers cannot both win.

/** A contact as a caller describes it; `null` clears a field. */
export type ContactFields = {
  externalId: string;
  name?: string | null;
  email?: string | null;
  phonenumber?: string | null;
  paymentAccounts?: PaymentAccount[];
  customAttributes?: Record<string, unknown>;
};

/** Absent fields keep their values; `customAttributes` merge by key, a key set to null removed. */
export type ContactPatch = Partial<ContactFields>;

/** Emails compare case-insensitively, so they are stored lower-cased. */
const normaliseEmail = (email: string | null | undefined) => email?.trim().toLowerCase() ?? email;

/** Creates all the contacts or none. */
export async function createContacts(
  store: Store,
  account: Account,
  chatbotId: string,
  inputs: ContactFields[],
): Promise<Contact[]> {
  await findOwnedChatbot(store, account, chatbotId);
  const attributeSets = await coerceCustomAttributes(
    store,
    chatbotId,
    inputs.map((input) => input.customAttributes ?? {}),
  );
  const now = new Date();
  const contacts = inputs.map(
    (input, index): Contact => ({
      id: nanoid(),
      chatbotId,
      externalId: input.externalId,
      name: input.name ?? null,
      email: normaliseEmail(input.email) ?? null,
      phonenumber: input.phonenumber ?? null,
      paymentAccounts: input.paymentAccounts ?? [],
      customAttributes: attributeSets[index] ?? {},
      createdAt: now,
      updatedAt: now,
    }),
  );
  await refusingClashes(() => store.contacts.insertMany(contacts));
  return contacts;
}

export async function findContact(
  store: Store,
  account: Account,
  chatbotId: string,
  externalId: string,
): Promise<Contact> {
  await findOwnedChatbot(store, account, chatbotId);
  return found(await store.contacts.find(chatbotId, externalId), externalId);
}

/** One page of a chatbot's contacts, and how many it has in all. */
export async function listContacts(
  store: Store,
  account: Account,
  chatbotId: string,
  page: Page,
): Promise<{ contacts: Contact[]; total: number }> {
  await findOwnedChatbot(store, account, chatbotId);
  const [contacts, total] = await Promise.all([store.contacts.list(chatbotId, page), store.contacts.count(chatbotId)]);
  return { contacts, total };
}

export async function updateContact(
  store: Store,
  account: Account,
  chatbotId: string,
  externalId: string,
  patch: ContactPatch,
): Promise<Contact> {
  await findOwnedChatbot(store, account, chatbotId);
  const change: ContactChange = { ...patch, updatedAt: new Date() };
  if (patch.customAttributes) {
    [change.customAttributes] = await coerceCustomAttributes(store, chatbotId, [patch.customAttributes], { nullRemoves: true });
  }
  if (patch.email !== undefined) change.email = normaliseEmail(patch.email);
  const updated = await refusingClashes(() => store.contacts.update(chatbotId, externalId, change));
  return found(updated, externalId);
}

export async function deleteContact(
  store: Store,
  account: Account,
  chatbotId: string,
  externalId: string,
): Promise<Contact> {
  await findOwnedChatbot(store, account, chatbotId);
  return found(await store.contacts.delete(chatbotId, externalId), externalId);
}

async function coerceCustomAttributes(
  store: Store,
  chatbotId: string,
  valueSets: Record<string, unknown>[],
  options?: Parameters<typeof coerceAttributeValues>[2],
) {
  if (valueSets.every((values) => Object.keys(values).length === 0)) return valueSets;
  const schema = await store.attributes.list(chatbotId);
  return valueSets.map((values) => coerceAttributeValues(schema, values, options));
}

function found(contact: Contact | undefined, externalId: string): Contact {
  if (!contact) throw notFound(`contact ${externalId}`);
  return contact;
}

async function refusingClashes<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueViolation) throw conflict(error.message);
    throw error;
  }
}
