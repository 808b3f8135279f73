import { describe, expect, it } from 'vitest';
import { handoffRows, personSaid, requestEmbed, RESOLVE_ID, statusLine, TAKE_ID, threadName, toPerson } from '../../adapters/discord/handoff-message.js';
import type { HandoffNotice, HandoffState } from '../../adapters/hub-client.js';

// The handoff request as Discord shows it, at the edges of Discord's limits: an embed's title 256,
// description 4,096, field values 1,024 and 6,000 characters in all; a thread name 100. And what
// the team tells a person talking in Discord, as they read it.

const state = (status: HandoffState['status'], takenBy: string | null = null): HandoffState => ({
  status,
  requested_at: '2026-03-10T12:00:00.000Z',
  taken_by: takenBy,
});

const notice = (extra: Partial<HandoffNotice> = {}): HandoffNotice => ({
  id: 'n1',
  kind: 'requested',
  chatbotId: 'b1',
  chatbotName: 'Shop',
  conversationId: 'c1',
  source: 'Widget or Iframe',
  channel: { workspaceId: 'G1', channelId: 'C1' },
  thread: null,
  handoff: state('pending'),
  created_at: '2026-03-10T12:00:00.000Z',
  transcript: [],
  person: null,
  ...extra,
});

/** Characters Discord counts towards an embed's 6,000. */
function embedLength(embed: ReturnType<typeof requestEmbed>): number {
  const data = embed.toJSON();
  return (
    (data.title?.length ?? 0) +
    (data.description?.length ?? 0) +
    (data.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}

describe('Discord handoff message', () => {
  it('offers Take and Resolve while pending, Resolve while active, nothing once closed', () => {
    const ids = (rows: ReturnType<typeof handoffRows>) => rows.flatMap((row) => row.toJSON().components.map((button) => ('custom_id' in button ? button.custom_id : '')));
    expect(ids(handoffRows(state('pending')))).toEqual([TAKE_ID, RESOLVE_ID]);
    expect(ids(handoffRows(state('active', 'Ada')))).toEqual([RESOLVE_ID]);
    expect(handoffRows(state('resolved', 'Ada'))).toEqual([]);
    expect(handoffRows(state('missed'))).toEqual([]);
    expect(statusLine(state('active', 'Ada'))).toContain('Taken by Ada');
  });

  it('shows the person, the source and the transcript, each turn named', () => {
    const embed = requestEmbed(
      notice({
        person: { name: 'Pat', email: 'pat@example.com', phone: null },
        transcript: [
          { role: 'user', content: 'Where is my parcel?' },
          { role: 'assistant', content: 'Let me find someone.' },
          { role: 'assistant', content: 'Hi, Ada here.', author: { type: 'human', name: 'Ada' } },
        ],
      }),
    ).toJSON();
    expect(embed.title).toBe('Shop: someone asks for a person');
    expect(embed.description).toBe('**Person:** Where is my parcel?\n**Shop:** Let me find someone.\n**Ada (team):** Hi, Ada here.');
    expect(embed.fields?.map((field) => [field.name, field.value])).toEqual([
      ['Name', 'Pat'],
      ['Email', 'pat@example.com'],
      ['Source', 'Widget or Iframe'],
      ['Conversation', 'c1'],
    ]);
    expect(requestEmbed(notice()).toJSON().description).toBe('(no messages yet)');
  });

  it('keeps the latest turns and every limit with the longest inputs', () => {
    // As long as a message the API takes: escaping such a line once took seconds (discord.js's italic rule).
    const huge = 'x'.repeat(32_000);
    const transcript = Array.from({ length: 40 }, (_, index) => ({ role: 'user' as const, content: `turn ${index} ${huge}` }));
    const embed = requestEmbed(
      notice({ chatbotName: huge, conversationId: huge, person: { name: huge, email: huge, phone: huge }, transcript }),
    );
    const data = embed.toJSON();
    expect(data.title?.length).toBeLessThanOrEqual(256);
    expect(data.description?.length).toBeLessThanOrEqual(4_096);
    for (const field of data.fields ?? []) expect(field.value.length).toBeLessThanOrEqual(1_024);
    expect(embedLength(embed)).toBeLessThanOrEqual(6_000);
    const lines = data.description?.split('\n') ?? [];
    expect(lines[0]).toBe('… (earlier messages left out)');
    expect(lines.at(-1)).toMatch(/^\*\*Person:\*\* turn 39 x+…$/);
    expect(threadName(notice({ person: { name: huge, email: null, phone: null } })).length).toBeLessThanOrEqual(100);
    expect(threadName(notice({ person: null }))).toBe('Someone · Shop');
  });

  it('shows what the team tells the person as typed: markdown escaped, links whole, mentions inert', () => {
    const text = 'See https://example.com/my_page?a=1_2 for *both* and __this__, @everyone <@&42> <#7> <@!9>';
    expect(toPerson({ text, author: { type: 'human', name: 'Ada_B' } })).toBe(
      '**Ada\\_B:** See https://example.com/my_page?a=1_2 for \\*both\\* and \\_\\_this\\_\\_, @\u200beveryone <@&\u200b42> <#\u200b7> <@!\u200b9>',
    );
    expect(toPerson({ text: 'You are back with the assistant.' })).toBe('You are back with the assistant.');
  });

  it('escapes a backslash once, and the markers of headings, lists and masked links', () => {
    expect(personSaid('C:\\temp\\*.log\n# Title\n- item\n* item\n1. step\n[a](https://b.example)')).toBe(
      '**Person:** C:\\\\temp\\\\\\*.log\n\\# Title\n\\- item\n\\* item\n1\\. step\n\\[a\\](https://b.example)',
    );
  });
});
