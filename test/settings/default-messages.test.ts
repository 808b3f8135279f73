import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import {
  DEFAULT_GREETING,
  DEFAULT_IP_LIMIT_MESSAGE,
  DEFAULT_LEAD_FORM_TITLE,
  DEFAULT_LEAD_LABELS,
  greetingIn,
  ipLimitMessageIn,
  leadFormTitleIn,
  leadLabelIn,
} from '../../src/settings/default-messages.js';
import { LANGUAGES } from '../../src/settings/languages.js';

// The greeting, the details form and the ipLimit message a new chatbot has are the hub's defaults: said in the widget
// visitor's language while the owner keeps them; the owner's own texts as written.

describe('the defaults a widget visitor reads in their language', () => {
  const settings = defaultSettings('Bot');
  const form = settings.collectCustomerInformation;

  it('are a new chatbot’s, in English', () => {
    expect(settings.initialMessages).toEqual([DEFAULT_GREETING.en]);
    expect(settings.ipLimitMessage).toBe(DEFAULT_IP_LIMIT_MESSAGE.en);
    expect(form.title).toBe(DEFAULT_LEAD_FORM_TITLE.en);
    expect([form.name.label, form.email.label, form.phone.label]).toEqual([
      DEFAULT_LEAD_LABELS.name.en,
      DEFAULT_LEAD_LABELS.email.en,
      DEFAULT_LEAD_LABELS.phone.en,
    ]);
  });

  it('are said in German, Spanish and the others', () => {
    expect(greetingIn(settings.initialMessages, 'de')).toEqual(['Hallo! Wobei kann ich Ihnen helfen?']);
    expect(greetingIn(settings.initialMessages, 'es')).toEqual(['¡Hola! ¿En qué puedo ayudarte?']);
    expect(leadFormTitleIn(form.title, 'fr')).toBe('Dites-nous comment vous contacter');
    expect(leadLabelIn('email', form.email.label, 'nl')).toBe('E-mail');
    expect(leadLabelIn('phone', form.phone.label, 'it')).toBe('Telefono');
    expect(ipLimitMessageIn(settings.ipLimitMessage, 'de')).toBe('Zu viele Nachrichten hintereinander. Bitte versuchen Sie es später erneut.');
    for (const lang of LANGUAGES) {
      expect(greetingIn(settings.initialMessages, lang)).toEqual([DEFAULT_GREETING[lang]]);
      expect(leadFormTitleIn(form.title, lang)).toBe(DEFAULT_LEAD_FORM_TITLE[lang]);
      expect(ipLimitMessageIn(settings.ipLimitMessage, lang)).toBe(DEFAULT_IP_LIMIT_MESSAGE[lang]);
      for (const field of ['name', 'email', 'phone'] as const) expect(leadLabelIn(field, form[field].label, lang)).toBe(DEFAULT_LEAD_LABELS[field][lang]);
    }
  });

  it('are English without a language', () => {
    expect(greetingIn(settings.initialMessages)).toEqual([DEFAULT_GREETING.en]);
    expect(leadFormTitleIn(form.title)).toBe(DEFAULT_LEAD_FORM_TITLE.en);
  });

  it('leave the owner’s own texts as written, beside a default kept', () => {
    expect(greetingIn(['Willkommen in der Bäckerei!', DEFAULT_GREETING.en, ''], 'de')).toEqual([
      'Willkommen in der Bäckerei!',
      DEFAULT_GREETING.de,
      '',
    ]);
    expect(leadFormTitleIn('Stay in touch', 'es')).toBe('Stay in touch');
    expect(ipLimitMessageIn('Slow down, please.', 'fr')).toBe('Slow down, please.');
    // A label is the default only for its own field: "Email" written as the name's label is the owner's.
    expect(leadLabelIn('name', DEFAULT_LEAD_LABELS.email.en, 'es')).toBe('Email');
    expect(leadLabelIn('name', 'Nom complet', 'de')).toBe('Nom complet');
  });
});
