import { describe, expect, it } from 'vitest';
import { composeDigest, leadsCsv, MAX_CSV_BYTES, SHOWN_LEADS, type DigestInput } from '../../jobs/digest/compose.js';
import type { Lead } from '../../src/store/port.js';

// The digest message itself (pure): Block Kit and embed from leads, the CSV, and escaping of what
// strangers typed.

const TO = new Date('2026-03-10T08:00:00.000Z'); // 09:00 in Oslo
const FROM = new Date('2026-03-09T08:00:00.000Z');

const lead = (n: number, overrides: Partial<Lead> = {}): Lead => ({
  id: `lead-${String(n).padStart(2, '0')}`,
  chatbotId: 'bot',
  accountId: 'acct',
  name: `Person ${n}`,
  email: `person${n}@example.com`,
  phone: `+47 400 00 ${String(n).padStart(3, '0')}`,
  conversationId: null,
  // Newest first: lead 1 is the newest.
  createdAt: new Date(TO.getTime() - n * 60_000),
  ...overrides,
});
const leads = (count: number) => Array.from({ length: count }, (_, index) => lead(index + 1));
const input = (items: Lead[], overrides: Partial<DigestInput> = {}): DigestInput => ({
  chatbotName: 'Helper',
  timezone: 'Europe/Oslo',
  localDate: '2026-03-10',
  from: FROM,
  to: TO,
  leads: items,
  unanswered: { count: 0, top: [] },
  ...overrides,
});

type Field = { type: string; text: string };
type Section = { type: 'section'; text?: Field; fields?: Field[] };

describe('composeDigest', () => {
  it('shows the count and each lead (name, email, phone, local time) in Block Kit', () => {
    const message = composeDigest(input(leads(3)));
    expect(message.count).toBe(3);
    expect(message.slack.text).toBe('Lead digest for Helper: 3 new leads, 9 Mar 09:00 – 10 Mar 09:00 (Europe/Oslo)');
    const [header, summary, divider, ...rest] = message.slack.blocks;
    expect(header).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Lead digest: Helper', emoji: false } });
    expect(summary).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*3 new leads* · 9 Mar 09:00 – 10 Mar 09:00 (Europe/Oslo)' },
    });
    expect(divider).toEqual({ type: 'divider' });
    expect(rest).toHaveLength(3);
    expect((rest[0] as Section).fields?.map((field) => field.text)).toEqual([
      '*Name*\nPerson 1',
      '*Email*\nperson1@example.com',
      '*Phone*\n+47 400 00 001',
      '*Time*\n10 Mar 08:59',
    ]);
    expect(message.csv).toBeUndefined();
  });

  it('shows the same in a Discord embed, times in the subscription’s zone', () => {
    const message = composeDigest(input(leads(2), { timezone: 'America/New_York' }));
    expect(message.discord.content).toBe('Lead digest for Helper: 2 new leads');
    const [embed] = message.discord.embeds;
    expect(embed).toMatchObject({
      title: 'Lead digest: Helper',
      description: '**2 new leads** · 9 Mar 04:00 – 10 Mar 04:00 (America/New\\_York)',
      timestamp: TO.toISOString(),
      fields: [
        { name: 'Person 1', value: 'person1@example.com\n+47 400 00 001\n10 Mar 03:59' },
        { name: 'Person 2', value: 'person2@example.com\n+47 400 00 002\n10 Mar 03:58' },
      ],
    });
    expect(embed?.footer).toBeUndefined();
  });

  it('shows the ten newest and attaches every lead as CSV when there are more', () => {
    const message = composeDigest(input(leads(12)));
    expect(message.count).toBe(12);
    const sections = message.slack.blocks.filter((block) => block.type === 'section' && 'fields' in block);
    expect(sections).toHaveLength(SHOWN_LEADS);
    expect(message.slack.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Showing the 10 newest of 12. All of them are in leads-2026-03-10.csv.' }],
    });
    expect(message.discord.embeds[0]?.fields?.map((field) => field.name)).toEqual(leads(10).map((item) => item.name));
    expect(message.discord.embeds[0]?.footer?.text).toBe('Showing the 10 newest of 12. All of them are in leads-2026-03-10.csv.');
    expect(message.csv?.filename).toBe('leads-2026-03-10.csv');
    expect(message.csv?.rows).toBe(12);
    const lines = message.csv?.content.split('\r\n') ?? [];
    expect(lines[0]).toBe('\uFEFFid,name,email,phone,created_at,conversation_id');
    expect(lines[1]).toBe('lead-01,Person 1,person1@example.com,+47 400 00 001,2026-03-10T07:59:00.000Z,');
    expect(lines[12]).toBe('lead-12,Person 12,person12@example.com,+47 400 00 012,2026-03-10T07:48:00.000Z,');
    expect(lines).toHaveLength(14); // header, 12 leads, and the empty string after the last CRLF
  });

  it('attaches no CSV for exactly ten leads', () => {
    expect(composeDigest(input(leads(10))).csv).toBeUndefined();
    expect(composeDigest(input(leads(11))).csv?.rows).toBe(11);
  });

  it('says so when there are none', () => {
    const message = composeDigest(input([]));
    expect(message.count).toBe(0);
    expect(message.slack.blocks).toHaveLength(2);
    expect(message.slack.text).toContain('no new leads');
    expect(message.discord.content).toBe('Lead digest for Helper: no new leads');
    expect(message.discord.embeds[0]?.description).toMatch(/^\*\*No new leads\*\*/);
    expect(message.discord.embeds[0]?.fields).toBeUndefined();
  });

  it('adds how many questions went unanswered, with the three most asked, escaped', () => {
    const top = [
      { question: 'Do you sell <!here> gift cards?', count: 4 },
      { question: 'Is there parking?', count: 2 },
      { question: 'Do you rent *kayaks*?', count: 1 },
    ];
    const message = composeDigest(input(leads(1), { unanswered: { count: 5, top } }));
    expect(message.slack.blocks.slice(-2)).toEqual([
      { type: 'divider' },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text:
            '*5 questions went unanswered*\n• Do you sell &lt;!here&gt; gift cards? (asked 4 times)\n' +
            '• Is there parking? (asked 2 times)\n• Do you rent *kayaks*? (asked once)',
        },
      },
    ]);
    expect(message.discord.embeds[0]?.fields?.at(-1)).toEqual({
      name: '5 questions went unanswered',
      value: '• Do you sell \\<!here\\> gift cards? (asked 4 times)\n• Is there parking? (asked 2 times)\n• Do you rent \\*kayaks\\*? (asked once)',
    });
    const none = composeDigest(input(leads(1)));
    expect(JSON.stringify(none)).not.toContain('unanswered');
  });

  it('escapes what visitors typed, so nobody is mentioned and no link is forged', () => {
    const hostile = lead(1, {
      name: '<!channel> *Boss*',
      email: 'a&b@example.com',
      phone: null,
    });
    const message = composeDigest(input([hostile, lead(2, { name: null, email: null, phone: '[click](https://evil.example)' })]));
    const fields = (message.slack.blocks[3] as Section).fields?.map((field) => field.text);
    expect(fields).toEqual(['*Name*\n&lt;!channel&gt; *Boss*', '*Email*\na&amp;b@example.com', '*Phone*\n—', '*Time*\n10 Mar 08:59']);
    const [first, second] = message.discord.embeds[0]?.fields ?? [];
    expect(first).toEqual({ name: '\\<!channel\\> \\*Boss\\*', value: 'a&b@example.com\n10 Mar 08:59' });
    expect(second).toEqual({ name: 'No name', value: '\\[click\\](https://evil.example)\n10 Mar 08:58' });
  });

  it('keeps ten long leads within Slack’s and Discord’s size limits', () => {
    const long = 'x'.repeat(5_000);
    const message = composeDigest(input(leads(10).map((item) => ({ ...item, name: long, email: long, phone: long }))));
    const embed = message.discord.embeds[0];
    const size =
      (embed?.title?.length ?? 0) +
      (embed?.description?.length ?? 0) +
      (embed?.fields ?? []).reduce((total, field) => total + field.name.length + field.value.length, 0);
    expect(size).toBeLessThanOrEqual(6_000);
    for (const field of embed?.fields ?? []) {
      expect(field.name.length).toBeLessThanOrEqual(256);
      expect(field.value.length).toBeLessThanOrEqual(1_024);
    }
    for (const block of message.slack.blocks as Section[]) {
      for (const field of block.fields ?? []) expect(field.text.length).toBeLessThanOrEqual(2_000);
    }
  });
});

describe('CSV', () => {
  it('stops before the attachment size limit', () => {
    const big = 'y'.repeat(100_000);
    const many = Array.from({ length: 100 }, (_, index) => lead(index + 1, { name: big }));
    const csv = leadsCsv(many, 'leads.csv');
    expect(Buffer.byteLength(csv.content)).toBeLessThanOrEqual(MAX_CSV_BYTES);
    expect(csv.rows).toBeGreaterThan(50);
    expect(csv.rows).toBeLessThan(100);
    const message = composeDigest(input(many));
    expect(message.discord.embeds[0]?.footer?.text).toContain(`holds the newest ${csv.rows}`);
  });
});
