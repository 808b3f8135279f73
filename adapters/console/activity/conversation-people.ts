import { ApiError, callData } from '../api.js';
import type { Contact, Conversation, Lead } from '../types.js';

// Who a listed conversation is with and where, so conversations that begin alike ("Hi", "Talk to a
// person") are told apart: the contact its contact_id names (a Slack or Discord person, or an
// integrator's contact), the lead collected in it (a widget visitor who left their details, which
// get-conversations gives with the conversation), and the place its id names. Nothing is guessed: a contact the hub does
// not have, or an id of another shape, adds nothing.

/** The contacts read so far, by external id; null: the hub has none by that id. */
export type KnownContacts = ReadonlyMap<string, Contact | null>;

/**
 * `known` with the contacts of `conversations` not read yet, each read once. A contact that could
 * not be read now is asked for again at the next reading; the list is shown meanwhile.
 */
export async function withContactsOf(chatbotId: string, conversations: Conversation[], known: KnownContacts): Promise<KnownContacts> {
  const ids = new Set(conversations.map((conversation) => conversation.contact_id).filter((id): id is string => id !== null && !known.has(id)));
  const read = await Promise.all([...ids].map(async (id) => [id, await readContact(chatbotId, id)] as const));
  const found = read.filter((entry): entry is [string, Contact | null] => entry[1] !== undefined);
  return found.length === 0 ? known : new Map([...known, ...found]);
}

/** The contact, null when the hub has none by that id, undefined when it could not be read. */
async function readContact(chatbotId: string, externalId: string): Promise<Contact | null | undefined> {
  try {
    return await callData<Contact>('GET', `/chatbots/${encodeURIComponent(chatbotId)}/contacts/${encodeURIComponent(externalId)}`);
  } catch (error) {
    return error instanceof ApiError && error.status === 404 ? null : undefined;
  }
}

/** The details given, each once: "Ada · ada@example.com"; undefined when none is. */
function detailsText(details: (string | null | undefined)[]): string | undefined {
  const given = [...new Set(details.filter((detail): detail is string => Boolean(detail)))];
  return given.length > 0 ? given.join(' · ') : undefined;
}

/** The contact's name and email, those it has: "Ada · ada@example.com". */
export function contactText(contact: Contact | null | undefined): string | undefined {
  return detailsText([contact?.name, contact?.email]);
}

/** The name, email and phone a visitor left in the conversation's lead, those they gave. */
export function leadText(lead: Lead | undefined): string | undefined {
  return detailsText([lead?.name, lead?.email, lead?.phone]);
}

/** Who the conversation is with, as the hub knows them: its contact's name and email, then what its lead adds. */
export function personText(contact: Contact | null | undefined, lead: Lead | undefined): string | undefined {
  return detailsText([contact?.name, contact?.email, lead?.name, lead?.email, lead?.phone]);
}

/**
 * Where the conversation took place, as its id says: the Slack or Discord channel (see DESIGN:
 * `slack:{team}:{channel}:{thread}`, `discord:{server}:{channel}[:{user}]`, `discord:dm:{channel}`),
 * by the platform's own id as Connect shows channels; or, from the API, the id its caller gave it.
 */
export function placeText({ source, id }: Pick<Conversation, 'source' | 'id'>): string | undefined {
  if (source === 'API') return id;
  const [platform, workspace, channel] = id.split(':');
  if (!channel || platform !== source.toLowerCase()) return undefined;
  if (platform === 'discord' && workspace === 'dm') return 'direct message';
  return `channel ${channel}`;
}
