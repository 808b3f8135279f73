import * as LIMITS from '../../../src/settings/limits.js';
import type { Chatbot, HandoffSettings, Settings } from '../types.js';

// The Settings page's unsaved state: the chatbot's name, every v1 setting and the handoff's, with
// lists as lines of text, checked before saving so each mistake is explained next to its field.

export type HandoffDraft = Omit<HandoffSettings, 'platform' | 'afterDeclines' | 'keywords' | 'waitMinutes' | 'idleMinutes'> & {
  platform: '' | 'slack' | 'discord';
  afterDeclines: string;
  keywords: string;
  waitMinutes: string;
  idleMinutes: string;
};

export type Draft = Omit<Settings, 'initialMessages' | 'suggestedMessages' | 'domains' | 'temp' | 'ipLimit' | 'ipLimitTimeframe' | 'styles' | 'handoff'> & {
  name: string;
  initialMessages: string;
  suggestedMessages: string;
  domains: string;
  temp: string;
  ipLimit: string;
  ipLimitTimeframe: string;
  styles: Omit<Settings['styles'], 'autoOpenChatWindowAfter'> & { autoOpenChatWindowAfter: string };
  handoff: HandoffDraft;
};

/** Field errors by the setting's path as the API names it (`styles.buttonColor`). */
export type FieldErrors = Record<string, string>;

const COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

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
    handoff: handoffDraftOf(settings.handoff),
  };
}

function handoffDraftOf(handoff: HandoffSettings): HandoffDraft {
  return {
    ...handoff,
    platform: handoff.platform ?? '',
    afterDeclines: String(handoff.afterDeclines),
    keywords: handoff.keywords.join('\n'),
    waitMinutes: String(handoff.waitMinutes),
    idleMinutes: String(handoff.idleMinutes),
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
  const longest = (path: string, text: string, max: number) => {
    if (text.length > max) errors[path] = `At most ${max.toLocaleString('en')} characters; this has ${text.length.toLocaleString('en')}.`;
  };
  const list = (path: string, text: string, bounds: { items: number; chars: number }) => {
    const items = lines(text);
    if (items.length > bounds.items) errors[path] = `At most ${bounds.items} lines; this has ${items.length}.`;
    else if (items.some((item) => item.length > bounds.chars)) errors[path] = `At most ${bounds.chars.toLocaleString('en')} characters a line.`;
  };
  longest('name', draft.name.trim(), LIMITS.MAX_NAME);
  if (draft.name.trim() === '') errors.name = 'The chatbot needs a name.';
  longest('instructions', draft.instructions, LIMITS.MAX_INSTRUCTIONS);
  list('initialMessages', draft.initialMessages, LIMITS.MESSAGE_LIST);
  list('suggestedMessages', draft.suggestedMessages, LIMITS.MESSAGE_LIST);
  longest('styles.displayName', draft.styles.displayName, LIMITS.MAX_NAME);
  list('domains', draft.domains, LIMITS.DOMAIN_LIST);
  longest('ipLimitMessage', draft.ipLimitMessage, LIMITS.MAX_MESSAGE);
  longest('collectCustomerInformation.title', draft.collectCustomerInformation.title, LIMITS.MAX_LEAD_FORM_TITLE);
  for (const key of ['name', 'email', 'phone'] as const) longest(`collectCustomerInformation.${key}.label`, draft.collectCustomerInformation[key].label, LIMITS.MAX_NAME);
  list('handoff.keywords', draft.handoff.keywords, LIMITS.KEYWORD_LIST);
  longest('handoff.waitingMessage', draft.handoff.waitingMessage, LIMITS.MAX_MESSAGE);
  longest('handoff.offlineMessage', draft.handoff.offlineMessage, LIMITS.MAX_MESSAGE);
  number('temp', draft.temp, 0, 1, false, '0.3');
  number('ipLimit', draft.ipLimit, 0, LIMITS.MAX_COUNT, true, '20');
  number('ipLimitTimeframe', draft.ipLimitTimeframe, 0, LIMITS.MAX_COUNT, true, '240');
  number('styles.autoOpenChatWindowAfter', draft.styles.autoOpenChatWindowAfter, 0, LIMITS.MAX_AUTO_OPEN, false, '4');
  for (const key of ['buttonColor', 'userMessageColor'] as const) {
    if (!COLOUR.test(draft.styles[key])) errors[`styles.${key}`] = 'A colour written #RGB or #RRGGBB, e.g. #3B81F6.';
  }
  number('handoff.afterDeclines', draft.handoff.afterDeclines, 0, LIMITS.MAX_DECLINES, true, '2');
  number('handoff.waitMinutes', draft.handoff.waitMinutes, LIMITS.WAIT_MINUTES.min, LIMITS.WAIT_MINUTES.max, false, '5');
  number('handoff.idleMinutes', draft.handoff.idleMinutes, LIMITS.WAIT_MINUTES.min, LIMITS.WAIT_MINUTES.max, false, '30');
  if (draft.handoff.platform) {
    for (const key of ['workspaceId', 'channelId'] as const) {
      longest(`handoff.${key}`, draft.handoff[key].trim(), LIMITS.MAX_CHANNEL_ID);
      if (!draft.handoff[key].trim()) errors[`handoff.${key}`] = `Requests go to a ${draft.handoff.platform === 'slack' ? 'Slack' : 'Discord'} channel: give its ID, or send them to the console only.`;
    }
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
    handoff: {
      ...draft.handoff,
      platform: draft.handoff.platform || null,
      workspaceId: draft.handoff.platform ? draft.handoff.workspaceId.trim() : '',
      channelId: draft.handoff.platform ? draft.handoff.channelId.trim() : '',
      afterDeclines: Number(draft.handoff.afterDeclines),
      keywords: lines(draft.handoff.keywords),
      waitMinutes: Number(draft.handoff.waitMinutes),
      idleMinutes: Number(draft.handoff.idleMinutes),
    },
  };
}
