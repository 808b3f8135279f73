import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

// The knowledge sources' settings as src/config.ts reads them: each limit is a setting.

describe('SOURCES_* settings', () => {
  it('default to 20 MB a file, 50,000,000 characters a chatbot, public addresses only, and 3,072 MB and 1,800 seconds to read a file', () => {
    expect(loadConfig({}).sources).toEqual({
      maxFileBytes: 20 * 1024 * 1024,
      maxCharsPerChatbot: 50_000_000,
      allowPrivate: false,
      maxReadMemoryBytes: 3_072 * 1024 * 1024,
      maxReadMs: 1_800_000,
    });
  });

  it('are read from SOURCES_MAX_FILE_MB, SOURCES_MAX_CHARS_PER_CHATBOT, SOURCES_ALLOW_PRIVATE, SOURCES_MAX_READ_MEMORY_MB and SOURCES_MAX_READ_SECONDS', () => {
    const env = { SOURCES_MAX_FILE_MB: '5', SOURCES_MAX_CHARS_PER_CHATBOT: '1000', SOURCES_ALLOW_PRIVATE: 'true', SOURCES_MAX_READ_MEMORY_MB: '512', SOURCES_MAX_READ_SECONDS: '90' };
    expect(loadConfig(env).sources).toEqual({
      maxFileBytes: 5 * 1024 * 1024,
      maxCharsPerChatbot: 1000,
      allowPrivate: true,
      maxReadMemoryBytes: 512 * 1024 * 1024,
      maxReadMs: 90_000,
    });
  });

  it.each(['SOURCES_MAX_FILE_MB', 'SOURCES_MAX_CHARS_PER_CHATBOT', 'SOURCES_MAX_READ_MEMORY_MB', 'SOURCES_MAX_READ_SECONDS'])('refuse to start on a %s that is not a positive number, naming it', (name) => {
    for (const value of ['0', '-3', 'lots']) expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
