import type { Chatbot, Settings } from '../types.js';

// The Settings page's unsaved state: the chatbot's name and every v1 setting, with lists as
// lines of text, checked before saving so each mistake is explained next to its field.

export type Draft = Omit<Settings, 'initialMessages' | 'suggestedMessages' | 'domains' | 'temp' | 'ipLimit' | 'ipLimitTimeframe' | 'styles'> & {
  name: string;
  initialMessages: string;
  suggestedMessages: string;
  domains: string;
  temp: string;
  ipLimit: string;
  ipLimitTimeframe: string;
  styles: Omit<Settings['styles'], 'autoOpenChatWindowAfter'> & { autoOpenChatWindowAfter: string };
};

/** Field errors by the setting's path as the API names it (`styles.buttonColor`). */
export type FieldErrors = Record<string, string>;

const COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const MAX_COUNT = 1_000_000_000;
const MAX_AUTO_OPEN = 86_400;

export const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function draftOf(chatbot: Chatbot): Draft {
  const { settings } = chatbot;
  return {
    ...settings,
    name: chatbot.name,
    initialMessages: settings.initialMessages.join('\n'),
    suggestedMessages: settings.suggestedMessages.join('\n'),
    domains: settings.domains.join('\n'),
    temp: String(settings.temp),
    ipLimit: String(settings.ipLimit),
    ipLimitTimeframe: String(settings.ipLimitTimeframe),
    styles: { ...settings.styles, autoOpenChatWindowAfter: String(settings.styles.autoOpenChatWindowAfter) },
  };
}

/** The mistakes the browser can see; the API checks everything again. */
export function checkDraft(draft: Draft): FieldErrors {
  const errors: FieldErrors = {};
  const number = (path: string, text: string, min: number, max: number, whole: boolean, example: string) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) {
      errors[path] = `${whole ? 'A whole number' : 'A number'} from ${min} to ${max}, e.g. ${example}.`;
    }
  };
  if (draft.name.trim() === '') errors.name = 'The chatbot needs a name.';
  number('temp', draft.temp, 0, 1, false, '0.3');
  number('ipLimit', draft.ipLimit, 0, MAX_COUNT, true, '20');
  number('ipLimitTimeframe', draft.ipLimitTimeframe, 0, MAX_COUNT, true, '240');
  number('styles.autoOpenChatWindowAfter', draft.styles.autoOpenChatWindowAfter, 0, MAX_AUTO_OPEN, false, '4');
  for (const key of ['buttonColor', 'userMessageColor'] as const) {
    if (!COLOUR.test(draft.styles[key])) errors[`styles.${key}`] = 'A colour written #RGB or #RRGGBB, e.g. #3B81F6.';
  }
  const spaced = lines(draft.domains).find((domain) => /\s/.test(domain));
  if (spaced) errors.domains = `“${spaced}” has a space in it: write one domain a line, e.g. example.com.`;
  return errors;
}

/** The update-chatbot-settings body: every setting, so the saved chatbot is exactly the draft. */
export function settingsBody(chatbotId: string, draft: Draft) {
  return {
    chatbotId,
    name: draft.name.trim(),
    instructions: draft.instructions,
    model: draft.model,
    temp: Number(draft.temp),
    initialMessages: lines(draft.initialMessages),
    suggestedMessages: lines(draft.suggestedMessages),
    visibility: draft.visibility,
    domains: lines(draft.domains),
    onlyAllowOnAddedDomains: draft.onlyAllowOnAddedDomains,
    ipLimit: Number(draft.ipLimit),
    ipLimitTimeframe: Number(draft.ipLimitTimeframe),
    ipLimitMessage: draft.ipLimitMessage,
    styles: { ...draft.styles, autoOpenChatWindowAfter: Number(draft.styles.autoOpenChatWindowAfter) },
    collectCustomerInformation: draft.collectCustomerInformation,
  };
}

/**
 * The API explains an invalid request as zod does: "✖ what\n  → at path" for each mistake.
 * Answers those by path; what names no path stays for the page's own alert.
 */
export function apiFieldErrors(message: string): { fields: FieldErrors; rest: string | undefined } {
  const fields: FieldErrors = {};
  const rest: string[] = [];
  for (const block of message.split('✖').map((part) => part.trim()).filter(Boolean)) {
    const [what = '', where] = block.split(/\n\s*→ at /);
    if (where) fields[where.trim()] = what.trim();
    else rest.push(block);
  }
  return { fields, rest: rest.length > 0 ? rest.join(' ') : undefined };
}
