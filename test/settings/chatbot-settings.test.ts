import { describe, expect, it } from 'vitest';
import { completeSettings, DEFAULT_HANDOFF, defaultSettings, type ChatbotSettings } from '../../src/settings/chatbot-settings.js';

describe('completeSettings', () => {
  it('gives settings saved before handoff existed its defaults', () => {
    const saved: Partial<ChatbotSettings> = defaultSettings('Old');
    delete saved.handoff;
    expect(completeSettings(saved as ChatbotSettings).handoff).toEqual(DEFAULT_HANDOFF);
  });

  it('keeps the handoff keys set one by one and fills the others', () => {
    const saved = { ...defaultSettings('Old'), handoff: { enabled: true, channelId: 'C1' } } as ChatbotSettings;
    expect(completeSettings(saved).handoff).toEqual({ ...DEFAULT_HANDOFF, enabled: true, channelId: 'C1' });
  });
});
