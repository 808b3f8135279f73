import { describe, expect, it } from 'vitest';
import { hubApiUrl } from '../../adapters/hub-client.js';
import { compareTs } from '../../adapters/slack/messages.js';
import { RecentSet } from '../../adapters/slack/recent.js';
import { escapeText, MESSAGE_LIMIT, plainText, splitMessage, unescapeText } from '../../adapters/slack/text.js';
import { loadConfig } from '../../src/config.js';

// The Slack adapter's pure parts: text conventions, splitting, timestamps, memory, configuration.

describe('Slack text', () => {
  it('escapes and unescapes the three reserved characters', () => {
    expect(escapeText('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    expect(unescapeText(escapeText('<@U1> & &amp;'))).toBe('<@U1> & &amp;');
  });

  it('reads markup as plain text, dropping only the bot’s own mention', () => {
    expect(plainText('<@UBOT> hi <@U0ALICE|alice>, see <#C123|general>', 'UBOT')).toBe('hi @alice, see #general');
    expect(plainText('<@UBOT>   what   about <@U0BOB>?', 'UBOT')).toBe('what about @U0BOB?');
    expect(plainText('<https://example.com|our site> or <https://example.com/x> or <mailto:a@b.no|a@b.no>', 'UBOT')).toBe(
      'our site (https://example.com) or https://example.com/x or a@b.no',
    );
    expect(plainText('<!here> 1 &lt; 2 &amp;&amp; 3 &gt; 2', 'UBOT')).toBe('@here 1 < 2 && 3 > 2');
    expect(plainText('<@UBOT>', 'UBOT')).toBe('');
  });

  it('drops emphasis markers as Slack draws them, and leaves other asterisks and underscores', () => {
    // Found replying in a Tallyho handoff thread "please check the *address*": the widget visitor
    // read the asterisks.
    expect(plainText('please check the *address*, _then_ send it ~again~.', 'UBOT')).toBe('please check the address, then send it again.');
    expect(plainText('*Invoice 1042* (_paid_)', 'UBOT')).toBe('Invoice 1042 (paid)');
    expect(plainText('2*3*4 and snake_case_name and * alone * and *unclosed', 'UBOT')).toBe('2*3*4 and snake_case_name and * alone * and *unclosed');
  });

  it('reads a long line of markers that never close in a time its length bounds', () => {
    // Each "*" looked to the line's end for its closing one: minutes for this.
    const unclosed = '*a _a '.repeat(35_000);
    expect(plainText(`${unclosed}\n*bold* and _this_`, 'UBOT')).toBe(`${unclosed}\nbold and this`);
  });

  it('leaves short text whole', () => {
    expect(splitMessage('hello')).toEqual(['hello']);
    expect(splitMessage('x'.repeat(MESSAGE_LIMIT))).toEqual(['x'.repeat(MESSAGE_LIMIT)]);
  });

  it('cuts at paragraph breaks first, then lines, then spaces', () => {
    const paragraphs = ['a'.repeat(60), 'b'.repeat(30), 'c'.repeat(30)].join('\n\n');
    expect(splitMessage(paragraphs, 100)).toEqual(['a'.repeat(60) + '\n\n' + 'b'.repeat(30), 'c'.repeat(30)]);
    const lines = ['a'.repeat(60), 'b'.repeat(30), 'c'.repeat(30)].join('\n');
    expect(splitMessage(lines, 100)).toEqual(['a'.repeat(60) + '\n' + 'b'.repeat(30), 'c'.repeat(30)]);
    const words = Array.from({ length: 30 }, (_, i) => `w${String(i).padStart(2, '0')}`).join(' ');
    const parts = splitMessage(words, 50);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(50);
    expect(parts.join(' ')).toBe(words);
  });

  it('cuts a run without spaces hard, but not inside an entity or a surrogate pair', () => {
    const run = 'x'.repeat(94) + '&amp;' + 'y'.repeat(50);
    const [first, second] = splitMessage(run, 100);
    expect(first).toBe('x'.repeat(94));
    expect(second?.startsWith('&amp;')).toBe(true);
    const emoji = 'x'.repeat(95) + '😀' + 'y'.repeat(50);
    const pieces = splitMessage(emoji, 100);
    expect(pieces.join('')).toBe(emoji);
    expect(pieces[0]?.endsWith('\ud83d')).toBe(false);
  });

  it('closes a code block at a cut and reopens it in the next message', () => {
    const code = '```\n' + Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n```';
    const parts = splitMessage(`Intro\n\n${code}`, 80);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(80);
      expect(part.split('```').length % 2).toBe(1);
    }
    expect(parts[1]?.startsWith('```\n')).toBe(true);
    expect(parts.join('\n').replaceAll('\n```\n```\n', '\n')).toBe(`Intro\n\n${code}`);
  });
});

describe('Slack timestamps and memory', () => {
  it('orders timestamps exactly', () => {
    expect(compareTs('1700000000.000100', '1700000000.000099')).toBeGreaterThan(0);
    expect(compareTs('999999999.900000', '1700000000.000001')).toBeLessThan(0);
    expect(compareTs('1700000000.000100', '1700000000.000100')).toBe(0);
  });

  it('remembers keys for a while and a bounded number of them', () => {
    let now = 0;
    const recent = new RecentSet(3, 1_000, () => now);
    expect(recent.add('a')).toBe(true);
    expect(recent.add('a')).toBe(false);
    now = 1_000;
    expect(recent.has('a')).toBe(false);
    expect(recent.add('a')).toBe(true);
    for (const key of ['b', 'c', 'd']) recent.add(key);
    expect(recent.has('a')).toBe(false);
    expect(['b', 'c', 'd'].every((key) => recent.has(key))).toBe(true);
  });
});

describe('Slack configuration', () => {
  it('is off without a bot token and needs a signing secret or an app token with one', () => {
    expect(loadConfig({}).slack).toBeUndefined();
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(/SLACK_SIGNING_SECRET/);
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }).slack).toEqual({
      botToken: 'xoxb-1',
      appToken: undefined,
      signingSecret: 's',
      apiUrl: undefined,
      adminUserIds: [],
      command: '/chatbot',
    });
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }).slack?.appToken).toBe('xapp-1');
  });

  it('parses the command name, admin ids and API address', () => {
    const slack = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      SLACK_COMMAND: 'ask-bot',
      SLACK_ADMIN_USER_IDS: 'U0AAA111, W0BBB222 U0CCC333',
      SLACK_API_URL: 'http://127.0.0.1:9999/api/',
    }).slack;
    expect(slack).toMatchObject({
      command: '/ask-bot',
      adminUserIds: ['U0AAA111', 'W0BBB222', 'U0CCC333'],
      apiUrl: 'http://127.0.0.1:9999/api/',
    });
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'x', SLACK_SIGNING_SECRET: 's', SLACK_ADMIN_USER_IDS: 'alice' })).toThrow(
      /SLACK_ADMIN_USER_IDS/,
    );
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'x', SLACK_SIGNING_SECRET: 's', SLACK_COMMAND: '/two words' })).toThrow(
      /SLACK_COMMAND/,
    );
    expect(() => loadConfig({ SLACK_API_URL: 'not a url' })).toThrow(/SLACK_API_URL/);
  });

  it('finds the API under HUB_URL given with or without /api/v1', () => {
    expect(hubApiUrl('http://hub:3000')).toBe('http://hub:3000/api/v1');
    expect(hubApiUrl('http://hub:3000/')).toBe('http://hub:3000/api/v1');
    expect(hubApiUrl('https://example.com/switchboard/api/v1/')).toBe('https://example.com/switchboard/api/v1');
  });
});
