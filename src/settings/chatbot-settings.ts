import { z } from 'zod';
import { MODEL_IDS } from './models.js';

// A chatbot's settings: the shape the contract's settings update accepts (less `chatbotId` and
// `name`, which live on the chatbot itself), its defaults, and how a partial update merges.

const text = (max: number) => z.string().max(max);
const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
const count = z.number().int().min(0).max(1_000_000_000);
const messageList = z.array(text(2_000)).max(50);
const collectField = z.strictObject({ active: z.boolean(), label: text(200) });

export const chatbotName = z.string().trim().min(1).max(200);

const stylesSchema = z.strictObject({
  theme: z.enum(['light', 'dark']),
  buttonColor: colour,
  displayName: text(200),
  alignChatButton: z.enum(['left', 'right']),
  userMessageColor: colour,
  autoOpenChatWindowAfter: z.number().min(0).max(86_400),
});

const collectCustomerInformationSchema = z.strictObject({
  title: text(500),
  name: collectField,
  email: collectField,
  phone: collectField,
});

export const chatbotSettingsSchema = z.strictObject({
  instructions: text(50_000),
  initialMessages: messageList,
  suggestedMessages: messageList,
  visibility: z.enum(['public', 'private']),
  domains: z.array(z.string().min(1).max(253).regex(/^\S+$/)).max(100),
  onlyAllowOnAddedDomains: z.boolean(),
  ipLimit: count,
  ipLimitTimeframe: count,
  ipLimitMessage: text(1_000),
  model: z.enum(MODEL_IDS),
  temp: z.number().min(0).max(1),
  styles: stylesSchema,
  collectCustomerInformation: collectCustomerInformationSchema,
});

/** Objects merge key by key, one level deep for `collectCustomerInformation`'s fields; arrays replace. */
export const settingsPatchSchema = chatbotSettingsSchema
  .extend({
    styles: stylesSchema.partial(),
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

export function defaultSettings(displayName: string): ChatbotSettings {
  return {
    instructions:
      'You are a helpful assistant. Answer questions using the training material; ' +
      'if it does not contain the answer, say so.',
    initialMessages: ['Hi! What can I help you with?'],
    suggestedMessages: [],
    visibility: 'private',
    domains: [],
    onlyAllowOnAddedDomains: false,
    ipLimit: 20,
    ipLimitTimeframe: 240,
    ipLimitMessage: 'Too many messages in a row. Please try again later.',
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
      title: 'Let us know how to contact you',
      name: { active: false, label: 'Name' },
      email: { active: false, label: 'Email' },
      phone: { active: false, label: 'Phone' },
    },
  };
}
