import { describe, expect, it } from 'vitest';
import { CLOSING_GRACE_MS, updateSince } from '../../src/domain/widget-updates.js';
import type { Conversation, Handoff, StoredMessage } from '../../src/store/port.js';

// Where a widget's live stream resumes and when it is over, from one read of a conversation.

const at = (seconds: number) => new Date(Date.UTC(2026, 2, 10, 12, 0, seconds));
const message = (id: string, role: StoredMessage['role'], seconds: number, name?: string): StoredMessage => ({
  id,
  role,
  content: `message ${id}`,
  createdAt: at(seconds),
  ...(name && { author: { type: 'human' as const, name } }),
});
const handoff = (status: Handoff['status'], updatedSeconds: number): Handoff => ({
  status,
  requestedAt: at(10),
  takenBy: status === 'pending' ? null : 'Ada',
  dueAt: null,
  updatedAt: at(updatedSeconds),
});
const conversation = (messages: StoredMessage[], state?: Handoff): Conversation => ({
  id: 'wc_conversation',
  chatbotId: 'bot',
  accountId: 'account',
  source: 'Widget or Iframe',
  contactId: null,
  messages,
  ...(state && { handoff: state }),
  createdAt: at(0),
  updatedAt: at(0),
});

const asked = [message('1', 'user', 0), message('2', 'assistant', 1), message('3', 'user', 10), message('4', 'assistant', 10)];
const ids = (messages: StoredMessage[]) => messages.map((item) => item.id);

describe('updateSince', () => {
  it('sends the assistant messages after the cursor and moves it to the last message', () => {
    const read = conversation([...asked, message('5', 'assistant', 20, 'Ada'), message('6', 'user', 21), message('7', 'assistant', 22, 'Ada')], handoff('active', 22));
    expect(updateSince(read, '4', at(23))).toMatchObject({ cursor: '7', settled: false });
    expect(ids(updateSince(read, '4', at(23)).replies)).toEqual(['5', '7']);
    expect(ids(updateSince(read, '5', at(23)).replies)).toEqual(['7']);
    expect(updateSince(read, '7', at(23))).toMatchObject({ replies: [], cursor: '7' });
  });

  it('starts after the handoff’s request without a cursor, or with one it does not know', () => {
    const read = conversation([...asked, message('5', 'assistant', 20, 'Ada')], handoff('active', 20));
    expect(ids(updateSince(read, undefined, at(21)).replies)).toEqual(['5']);
    expect(ids(updateSince(read, 'gone', at(21)).replies)).toEqual(['5']);
    expect(updateSince(conversation(asked), undefined, at(21))).toEqual({ replies: [], cursor: '4', handoff: undefined, settled: true });
  });

  it('is settled once a closed handoff’s closing message is in, or it never came within the grace', () => {
    const closing = message('5', 'assistant', 30);
    expect(updateSince(conversation(asked, handoff('resolved', 30)), '4', at(31)).settled).toBe(false);
    expect(updateSince(conversation([...asked, closing], handoff('resolved', 30)), '4', at(31)).settled).toBe(true);
    expect(updateSince(conversation([...asked, closing], handoff('missed', 30)), '4', at(31)).settled).toBe(true);
    const late = new Date(at(30).getTime() + CLOSING_GRACE_MS + 1);
    expect(updateSince(conversation(asked, handoff('resolved', 30)), '4', late).settled).toBe(true);
    expect(updateSince(conversation(asked, handoff('pending', 10)), '4', late).settled).toBe(false);
  });
});
