import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';

// Settings read the same way whichever variable holds them: every switch takes the same words, in any case.

const SWITCHES: [string, (config: Config) => boolean][] = [
  ['TRUST_PROXY', (config) => config.trustProxy],
  ['WEBHOOK_ALLOW_PRIVATE', (config) => config.webhooks.allowPrivate],
  ['SOURCES_ALLOW_PRIVATE', (config) => config.sources.allowPrivate],
];

describe.each(SWITCHES)('%s', (name, read) => {
  it.each(['true', 'TRUE', '1', 'yes', 'Yes', 'on'])('is on for %s', (value) => {
    expect(read(loadConfig({ [name]: value }))).toBe(true);
  });

  it.each(['false', 'False', '0', 'no', 'NO', 'off', '', undefined])('is off for %s', (value) => {
    expect(read(loadConfig({ [name]: value }))).toBe(false);
  });

  it.each(['enabled', 'y', 'maybe'])('refuses %s, naming it', (value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('LOG_LEVEL', () => {
  it.each([
    ['INFO', 'info'],
    ['Debug', 'debug'],
    [' warn ', 'warn'],
  ])('takes %s as %s', (value, level) => {
    expect(loadConfig({ LOG_LEVEL: value }).logLevel).toBe(level);
  });

  it('refuses a level pino does not know, naming it', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL');
  });
});
