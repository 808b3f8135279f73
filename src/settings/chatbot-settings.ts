import { z } from 'zod';
import {
  DOMAIN_LIST,
  KEYWORD_LIST,
  MAX_AUTO_OPEN,
  MAX_CHANNEL_ID,
  MAX_COUNT,
  MAX_DECLINES,
  MAX_INSTRUCTIONS,
  MAX_LEAD_FORM_TITLE,
  MAX_MESSAGE,
  MAX_NAME,
  MESSAGE_LIST,
  WAIT_MINUTES,
} from './limits.js';
import { MODEL_IDS } from './models.js';
import { DEFAULT_GREETING, DEFAULT_IP_LIMIT_MESSAGE, DEFAULT_LEAD_FORM_TITLE, DEFAULT_LEAD_LABELS, DEFAULT_OFFLINE_MESSAGE, DEFAULT_WAITING_MESSAGE } from './default-messages.js';

// A chatbot's settings: the shape the contract's settings update accepts (less `chatbotId` and
// `name`, which live on the chatbot itself), its defaults, and how a partial update merges.

const text = (max: number) => z.string().max(max);
const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
const count = z.number().int().min(0).max(MAX_COUNT);
const messageList = z.array(text(MESSAGE_LIST.chars)).max(MESSAGE_LIST.items);
const collectField = z.strictObject({ active: z.boolean(), label: text(MAX_NAME) });

export const chatbotName = z.string().trim().min(1).max(MAX_NAME);

const stylesSchema = z.strictObject({
  theme: z.enum(['light', 'dark']),
  buttonColor: colour,
  displayName: text(MAX_NAME),
  alignChatButton: z.enum(['left', 'right']),
  userMessageColor: colour,
  autoOpenChatWindowAfter: z.number().min(0).max(MAX_AUTO_OPEN),
});

const collectCustomerInformationSchema = z.strictObject({
  title: text(MAX_LEAD_FORM_TITLE),
  name: collectField,
  email: collectField,
  phone: collectField,
});

const minutes = z.number().min(WAIT_MINUTES.min).max(WAIT_MINUTES.max);

/** Human handoff: a person who needs one is handed to a team member in a Slack or Discord channel. */
const handoffSchema = z.strictObject({
  enabled: z.boolean(),
  /** Where requests go. */
  platform: z.enum(['slack', 'discord']).nullable(),
  workspaceId: text(MAX_CHANNEL_ID),
  channelId: text(MAX_CHANNEL_ID),
  /** Asking for a person starts a handoff (and the widget shows a button). */
  onRequest: z.boolean(),
  /** Declined replies in a row that start one; 0 means never. */
  afterDeclines: z.number().int().min(0).max(MAX_DECLINES),
  /** Words or phrases that start one. */
  keywords: z.array(z.string().trim().min(1).max(KEYWORD_LIST.chars)).max(KEYWORD_LIST.items),
  /** Unanswered this long, a request is missed. */
  waitMinutes: minutes,
  /** Without a team message this long, a handoff is resolved. */
  idleMinutes: minutes,
  waitingMessage: text(MAX_MESSAGE),
  offlineMessage: text(MAX_MESSAGE),
});

export const chatbotSettingsSchema = z.strictObject({
  instructions: text(MAX_INSTRUCTIONS),
  initialMessages: messageList,
  suggestedMessages: messageList,
  visibility: z.enum(['public', 'private']),
  domains: z.array(z.string().min(1).max(DOMAIN_LIST.chars).regex(/^\S+$/)).max(DOMAIN_LIST.items),
  onlyAllowOnAddedDomains: z.boolean(),
  ipLimit: count,
  ipLimitTimeframe: count,
  ipLimitMessage: text(MAX_MESSAGE),
  model: z.enum(MODEL_IDS),
  temp: z.number().min(0).max(1),
  styles: stylesSchema,
  collectCustomerInformation: collectCustomerInformationSchema,
  handoff: handoffSchema,
});

/** Objects merge key by key, one level deep for `collectCustomerInformation`'s fields; arrays replace. */
export const settingsPatchSchema = chatbotSettingsSchema
  .extend({
    styles: stylesSchema.partial(),
    handoff: handoffSchema.partial(),
    collectCustomerInformation: collectCustomerInformationSchema
      .extend({
        name: collectField.partial(),
        email: collectField.partial(),
        phone: collectField.partial(),
      })
      .partial(),
  })
  .partial();

export type ChatbotSettings = z.infer<typeof chatbotSettingsSchema>;
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
export type HandoffSettings = z.infer<typeof handoffSchema>;

export const DEFAULT_HANDOFF: HandoffSettings = {
  enabled: false,
  platform: null,
  workspaceId: '',
  channelId: '',
  onRequest: true,
  afterDeclines: 2,
  keywords: [],
  waitMinutes: 5,
  idleMinutes: 30,
  waitingMessage: DEFAULT_WAITING_MESSAGE.en,
  offlineMessage: DEFAULT_OFFLINE_MESSAGE.en,
};

/**
 * Settings as stored, with the defaults of fields added since they were saved (`handoff`, whose
 * keys a partial update may have set one by one).
 */
export function completeSettings(stored: ChatbotSettings): ChatbotSettings {
  return { ...stored, handoff: { ...DEFAULT_HANDOFF, ...stored.handoff } };
}

export function defaultSettings(displayName: string): ChatbotSettings {
  return {
    instructions:
      'You are a helpful assistant. Answer questions using the training material; ' +
      'if it does not contain the answer, say so.',
    initialMessages: [DEFAULT_GREETING.en],
    suggestedMessages: [],
    visibility: 'private',
    domains: [],
    onlyAllowOnAddedDomains: false,
    ipLimit: 20,
    ipLimitTimeframe: 240,
    ipLimitMessage: DEFAULT_IP_LIMIT_MESSAGE.en,
    model: 'auto',
    temp: 0,
    styles: {
      theme: 'light',
      buttonColor: '#3B81F6',
      displayName,
      alignChatButton: 'right',
      userMessageColor: '#3B81F6',
      autoOpenChatWindowAfter: 4,
    },
    collectCustomerInformation: {
      title: DEFAULT_LEAD_FORM_TITLE.en,
      name: { active: false, label: DEFAULT_LEAD_LABELS.name.en },
      email: { active: false, label: DEFAULT_LEAD_LABELS.email.en },
      phone: { active: false, label: DEFAULT_LEAD_LABELS.phone.en },
    },
    handoff: DEFAULT_HANDOFF,
  };
}
