import { describe, expect, it } from 'vitest';
import { wordsFor } from '../../adapters/widget/words.js';
import { LANGUAGES } from '../../src/settings/languages.js';

// The window's own words, in each language it speaks.

describe('the widget’s words', () => {
  it.each(LANGUAGES)('in %s, name the details form’s button apart from Send', (language) => {
    // Found with a screen reader's list of buttons in Spanish: two "Enviar", the details form's and the message's.
    const { lang, words } = wordsFor([language]);
    expect(lang).toBe(language);
    expect(words.submit.trim().toLocaleLowerCase(lang)).not.toBe(words.send.trim().toLocaleLowerCase(lang));
  });
});
