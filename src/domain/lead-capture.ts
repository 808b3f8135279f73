import type { ChatTurn, ContactDetails, GivenDetails } from '../engine/responder.js';
import type { ChatbotSettings } from '../settings/chatbot-settings.js';

// Collecting customer information in chat: the chatbot asks once per conversation for the
// fields the chatbot's settings mark active, and picks the details out of what the user writes.

/** Name, email and phone as found in a conversation; null where not given. */
export type Details = GivenDetails;

type Field = keyof Details;
const FIELDS: Field[] = ['name', 'email', 'phone'];

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const PHONE = /(?:\+|\b)\d[\d\s().-]{5,}\d\b/;
// The introduction is matched in any case ("I'm", "i’m"), the name only as capitalised words.
const INTRODUCTION = /\b(?:my name is|my name['’]s|i am|i['’]m|this is|call me|name:)\s+/gi;
const CAPITALISED_NAME = /^[\p{Lu}][\p{L}'’-]+(?:\s+[\p{Lu}][\p{L}'’-]+){0,3}/u;

function nameIn(text: string): string | undefined {
  for (const match of text.matchAll(INTRODUCTION)) {
    const name = CAPITALISED_NAME.exec(text.slice((match.index ?? 0) + match[0].length))?.[0];
    if (name) return name;
  }
  return undefined;
}

function activeFields(settings: ChatbotSettings): Field[] {
  return FIELDS.filter((field) => settings.collectCustomerInformation[field].active);
}

/**
 * Whether the chatbot collects details: a lead needs an email or a phone, so a name alone asks for
 * nothing (its form could never be sent). The widget then asks with its own form, replies in words.
 */
export function collectsLeads(settings: ChatbotSettings): boolean {
  const { email, phone } = settings.collectCustomerInformation;
  return email.active || phone.active;
}

/** A form's label read after "please share your": "Your name" is not "your Your name". */
const OWN_YOUR = /^your\s+/i;

/** The request appended to a reply, or undefined when the chatbot collects no details. */
export function leadRequest(settings: ChatbotSettings): string | undefined {
  if (!collectsLeads(settings)) return undefined;
  const labels = activeFields(settings).map((field) => settings.collectCustomerInformation[field].label.replace(OWN_YOUR, ''));
  const list = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `${settings.collectCustomerInformation.title}: please share your ${list}.`;
}

/** Whether a known contact (an API client's, or a Slack user's) already gives every active field. */
export function contactGivesAll(settings: ChatbotSettings, contact: ContactDetails): boolean {
  const given: Details = { name: contact.name, email: contact.email, phone: contact.phonenumber };
  return activeFields(settings).every((field) => Boolean(given[field]?.trim()));
}

/** Whether an earlier reply of the conversation already asked. */
export function alreadyAsked(request: string, history: ChatTurn[]): boolean {
  return history.some((turn) => turn.role === 'assistant' && turn.content.includes(request));
}

/** The details the user's messages give, the latest mention of each winning. */
export function detailsIn(history: ChatTurn[]): Details {
  const details: Details = { name: null, email: null, phone: null };
  for (const turn of history) {
    if (turn.role !== 'user') continue;
    const email = EMAIL.exec(turn.content)?.[0];
    const withoutEmail = email ? turn.content.replace(email, ' ') : turn.content;
    details.email = email?.toLowerCase() ?? details.email;
    details.phone = PHONE.exec(withoutEmail)?.[0].trim() ?? details.phone;
    details.name = nameIn(turn.content) ?? details.name;
  }
  return details;
}

/** The details worth keeping: only the active fields, and only with a way to reach the person. */
export function leadDetails(settings: ChatbotSettings, history: ChatTurn[]): Details | undefined {
  const active = new Set(activeFields(settings));
  const found = detailsIn(history);
  const kept: Details = {
    name: active.has('name') ? found.name : null,
    email: active.has('email') ? found.email : null,
    phone: active.has('phone') ? found.phone : null,
  };
  return kept.email || kept.phone ? kept : undefined;
}
