import { describe, expect, it } from 'vitest';
import { isDecline } from '../../src/engine/decline.js';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { NOT_COVERED, systemPrompt } from '../../src/engine/prompt.js';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';

describe('isDecline', () => {
  it("recognises the offline responder's decline and the model's not-covered sentence", () => {
    expect(isDecline(NO_ANSWER)).toBe(true);
    expect(isDecline(NOT_COVERED)).toBe(true);
    // As a model may write it: quoted, another apostrophe, without the final stop, in a longer reply.
    expect(isDecline(`"I’m sorry, the material I was given does not cover that"`)).toBe(true);
    expect(isDecline(`Good question! ${NOT_COVERED} Anything else?`)).toBe(true);
  });

  it('takes answers, and other apologies, for answers', () => {
    expect(isDecline('We open at 9:00 on weekdays.')).toBe(false);
    expect(isDecline("I'm sorry, the shop is closed on Sundays.")).toBe(false);
    expect(isDecline('')).toBe(false);
  });

  it('is the sentence the system prompt asks a model for', () => {
    const settings = defaultSettings('Acme');
    expect(systemPrompt({ settings, passages: [], contact: undefined })).toContain(NOT_COVERED);
  });
});
