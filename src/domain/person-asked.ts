import type { Language } from '../settings/languages.js';

// What a person asked when they pressed the widget's "Talk to a person", in each language the
// widget speaks (adapters/widget/words.ts labels the button with these): the transcript shows the
// person's words in their language, and the console tells such a request from what they typed.

export const PERSON_ASKED: Record<Language, string> = {
  en: 'Talk to a person',
  es: 'Hablar con una persona',
  de: 'Mit einer Person sprechen',
  fr: 'Parler à une personne',
  it: 'Parla con una persona',
  nl: 'Met een medewerker praten',
};

const asked = new Set<string>(Object.values(PERSON_ASKED));

/** Whether a person's message is the widget's "Talk to a person", in any of its languages. */
export const isPersonAsked = (content: string) => asked.has(content);
