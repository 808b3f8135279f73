import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Account,
  Chatbot,
  Conversation,
  ConversationAppend,
  ConversationMessage,
  Store,
} from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Conversation history: one behaviour for every adapter that can be had here.

const ALL = { page: 1, size: 100 };
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

const message = (role: ConversationMessage['role'], content: string, seconds = 0): ConversationMessage => ({
  role,
  content,
  createdAt: at(seconds),
});

describe.each(storeTargets.filter((target) => target.available))('$name store: conversations', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;

  const append = (overrides: Partial<ConversationAppend> = {}): ConversationAppend => ({
    chatbotId: bot.id,
    accountId: owner.id,
    id: 'conv-1',
    source: 'API',
    contactId: 'contact-1',
    messages: [message('user', 'Hello?'), message('assistant', 'Hi! How can I help?', 1)],
    at: at(1),
    ...overrides,
  });
  const ids = (conversations: Conversation[]) => conversations.map((item) => item.id);

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  it('creates a conversation on the first append and reads it back exactly', async () => {
    const first = append();
    await store.conversations.append(first);
    const expected: Conversation = {
      id: 'conv-1',
      chatbotId: bot.id,
      accountId: owner.id,
      source: 'API',
      contactId: 'contact-1',
      messages: first.messages.map((message) => ({ ...message, id: expect.any(String) as string })),
      createdAt: at(1),
      updatedAt: at(1),
    };
    expect(await store.conversations.find(bot.id, 'conv-1')).toEqual(expected);
    expect(await store.conversations.list(bot.id, {}, ALL)).toEqual([expected]);
  });

  it('appends later messages in order, keeping source, contact and creation time', async () => {
    await store.conversations.append(append());
    const next = [message('user', 'Opening hours?', 60), message('assistant', 'Nine to five.', 61)];
    await store.conversations.append(
      append({ source: 'Slack', contactId: 'someone-else', messages: next, at: at(61) }),
    );
    const found = await store.conversations.find(bot.id, 'conv-1');
    expect(found).toMatchObject({ source: 'API', contactId: 'contact-1', createdAt: at(1), updatedAt: at(61) });
    expect(found?.messages.map((m) => m.content)).toEqual([
      'Hello?',
      'Hi! How can I help?',
      'Opening hours?',
      'Nine to five.',
    ]);
    expect(found?.messages.at(-1)).toEqual({ ...next[1], id: expect.any(String) });
  });

  it('reads where a conversation takes place, the one its first append gave; none for an unknown one', async () => {
    await store.conversations.append(append({ source: 'Discord' }));
    await store.conversations.append(append({ source: 'Slack', messages: [message('user', 'Again', 60)], at: at(60) }));
    expect(await store.conversations.header(bot.id, 'conv-1')).toEqual({ source: 'Discord' });
    expect(await store.conversations.header(bot.id, 'conv-2')).toBeUndefined();
    expect(await store.conversations.header('another-chatbot', 'conv-1')).toBeUndefined();
  });

  it('keeps the language the latest append said, through appends that say none', async () => {
    await store.conversations.append(append({ source: 'Widget or Iframe' }));
    expect(await store.conversations.header(bot.id, 'conv-1')).toEqual({ source: 'Widget or Iframe' });
    expect((await store.conversations.find(bot.id, 'conv-1'))?.lang).toBeUndefined();
    await store.conversations.append(append({ lang: 'es', messages: [message('user', 'Hola', 60)], at: at(60) }));
    await store.conversations.append(append({ lang: 'de', messages: [message('user', 'Hallo', 61)], at: at(61) }));
    await store.conversations.append(append({ messages: [message('user', 'Noch da?', 62)], at: at(62) }));
    expect(await store.conversations.header(bot.id, 'conv-1')).toEqual({ source: 'Widget or Iframe', lang: 'de' });
    expect(await store.conversations.find(bot.id, 'conv-1')).toMatchObject({ lang: 'de' });
  });

  it('gives each message its own id, the same on every read', async () => {
    await store.conversations.append(append());
    await store.conversations.append(append({ messages: [message('user', 'More?', 60)], at: at(60) }));
    const ids = (await store.conversations.find(bot.id, 'conv-1'))?.messages.map((m) => m.id) ?? [];
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect((await store.conversations.find(bot.id, 'conv-1'))?.messages.map((m) => m.id)).toEqual(ids);
    expect((await store.conversations.list(bot.id, {}, ALL))[0]?.messages.map((m) => m.id)).toEqual(ids);
  });

  it('reads back only the last messages asked for, oldest first', async () => {
    await store.conversations.append(append());
    const next = [message('user', 'Opening hours?', 60), message('assistant', 'Nine to five.', 61)];
    await store.conversations.append(append({ messages: next, at: at(61) }));

    const recent = await store.conversations.recentMessages(bot.id, 'conv-1', 3);
    expect(recent).toMatchObject([append().messages[1], ...next]);
    // The same messages, ids included, as a whole read gives.
    expect(recent).toEqual((await store.conversations.find(bot.id, 'conv-1'))?.messages.slice(-3));
    expect(await store.conversations.recentMessages(bot.id, 'conv-1', 10)).toHaveLength(4);
    expect(await store.conversations.recentMessages(bot.id, 'unknown', 3)).toEqual([]);
  });

  it('keeps messages in append order and never moves updatedAt backwards', async () => {
    await store.conversations.append(append({ at: at(100) }));
    // A late arrival, stamped before the messages already stored.
    await store.conversations.append(append({ messages: [message('user', 'late', -50)], at: at(50) }));
    const found = await store.conversations.find(bot.id, 'conv-1');
    expect(found?.updatedAt).toEqual(at(100));
    expect(found?.createdAt).toEqual(at(100));
    expect(found?.messages.map((m) => m.content)).toEqual(['Hello?', 'Hi! How can I help?', 'late']);
  });

  it('keeps a conversation without a contact, and one created with no messages', async () => {
    await store.conversations.append(append({ contactId: null, messages: [] }));
    expect(await store.conversations.find(bot.id, 'conv-1')).toMatchObject({ contactId: null, messages: [] });
  });

  it('scopes conversation ids by chatbot', async () => {
    const other = await seedChatbot(store, owner);
    await store.conversations.append(append());
    await store.conversations.append(append({ chatbotId: other.id, messages: [message('user', 'elsewhere')] }));
    expect((await store.conversations.find(bot.id, 'conv-1'))?.messages).toHaveLength(2);
    expect((await store.conversations.find(other.id, 'conv-1'))?.messages.map((m) => m.content)).toEqual([
      'elsewhere',
    ]);
    expect(await store.conversations.find(bot.id, 'missing')).toBeUndefined();
    expect(ids(await store.conversations.list(other.id, {}, ALL))).toEqual(['conv-1']);
  });

  it('lists newest first by creation time, ties by id (descending)', async () => {
    await store.conversations.append(append({ id: 'old', at: at(0) }));
    await store.conversations.append(append({ id: 'tie-a', at: at(10) }));
    await store.conversations.append(append({ id: 'fresh', at: at(20) }));
    await store.conversations.append(append({ id: 'tie-b', at: at(10) }));
    // A later append to the oldest changes its updatedAt, not its place.
    await store.conversations.append(append({ id: 'old', at: at(30) }));
    expect(ids(await store.conversations.list(bot.id, {}, ALL))).toEqual(['fresh', 'tie-b', 'tie-a', 'old']);
  });

  it('includes both bounds of a range to the millisecond', async () => {
    const from = new Date('2026-03-10T00:00:00.000Z');
    const to = new Date('2026-03-10T23:59:59.999Z');
    const cases: [string, Date][] = [
      ['before', new Date(from.getTime() - 1)],
      ['first', from],
      ['last', to],
      ['after', new Date(to.getTime() + 1)],
    ];
    for (const [id, time] of cases) await store.conversations.append(append({ id, at: time }));
    expect(ids(await store.conversations.list(bot.id, { from, to }, ALL))).toEqual(['last', 'first']);
    expect(ids(await store.conversations.list(bot.id, { from }, ALL))).toEqual(['after', 'last', 'first']);
    expect(ids(await store.conversations.list(bot.id, { to }, ALL))).toEqual(['last', 'first', 'before']);
  });

  it('pages through the list without gaps or repeats', async () => {
    for (let i = 0; i < 7; i += 1) await store.conversations.append(append({ id: `c${i}`, at: at(i) }));
    const pages = [];
    for (let page = 1; page <= 4; page += 1) {
      pages.push(ids(await store.conversations.list(bot.id, {}, { page, size: 3 })));
    }
    expect(pages).toEqual([['c6', 'c5', 'c4'], ['c3', 'c2', 'c1'], ['c0'], []]);
  });

  it('filters by source, with paging applied after the filter', async () => {
    const sources = ['API', 'Slack', 'Discord', 'Widget or Iframe'] as const;
    for (let i = 0; i < 8; i += 1) {
      await store.conversations.append(append({ id: `c${i}`, source: sources[i % 4], at: at(i) }));
    }
    const list = (filter: Parameters<Store['conversations']['list']>[1], page = ALL) =>
      store.conversations.list(bot.id, filter, page).then(ids);
    expect(await list({ sources: ['Slack'] })).toEqual(['c5', 'c1']);
    expect(await list({ sources: ['Discord', 'Widget or Iframe'] })).toEqual(['c7', 'c6', 'c3', 'c2']);
    expect(await list({ sources: ['API', 'Slack', 'Discord'] })).toEqual(['c6', 'c5', 'c4', 'c2', 'c1', 'c0']);
    expect(await list({ sources: [...sources] })).toHaveLength(8);
    expect(await list({ sources: [] })).toHaveLength(8);
    expect(await list({ sources: ['Widget or Iframe'] }, { page: 2, size: 1 })).toEqual(['c3']);
    expect(await list({ sources: ['API'], from: at(1), to: at(7) })).toEqual(['c4']);
  });

  it('keeps all of 20 concurrent appends to one conversation, each batch whole and in order', async () => {
    const batches = Array.from({ length: 20 }, (_, b) => [
      message('user', `batch ${b} question`, b),
      message('assistant', `batch ${b} answer`, b),
      message('assistant', `batch ${b} follow-up`, b),
    ]);
    await Promise.all(
      batches.map((messages, b) => store.conversations.append(append({ id: 'busy', messages, at: at(b) }))),
    );
    const found = await store.conversations.find(bot.id, 'busy');
    const contents = found?.messages.map((m) => m.content) ?? [];
    expect(contents).toHaveLength(60);
    for (let start = 0; start < 60; start += 3) {
      const batch = /^batch (\d+) /.exec(contents[start] ?? '')?.[1];
      expect(contents.slice(start, start + 3)).toEqual([
        `batch ${batch} question`,
        `batch ${batch} answer`,
        `batch ${batch} follow-up`,
      ]);
    }
    expect(new Set(contents).size).toBe(60);
    expect(found?.updatedAt).toEqual(at(19));
    expect(await store.conversations.list(bot.id, {}, ALL)).toHaveLength(1);
  });

  it('appends under reserved ids, which never repeat, also when reserved at once', async () => {
    const reserved = await store.conversations.reserveMessageIds(2);
    // Another exchange lands while the reserved one is still being written.
    await store.conversations.append(append());
    const [question, answer] = reserved;
    await store.conversations.append(
      append({ messages: [{ ...message('user', 'Streamed?', 5), id: question }, { ...message('assistant', 'Yes.', 6), id: answer }] }),
    );
    const messages = (await store.conversations.find(bot.id, 'conv-1'))?.messages ?? [];
    expect(messages).toHaveLength(4);
    const streamed = messages.findIndex((item) => item.content === 'Streamed?');
    expect(messages.slice(streamed, streamed + 2).map(({ id, content }) => [id, content])).toEqual([
      [question, 'Streamed?'],
      [answer, 'Yes.'],
    ]);
    expect(new Set(messages.map((item) => item.id)).size).toBe(4);

    const batches = await Promise.all(Array.from({ length: 10 }, () => store.conversations.reserveMessageIds(3)));
    const all = [...reserved, ...messages.map((item) => item.id), ...batches.flat()];
    expect(new Set(all).size).toBe(2 + 2 + 30);
  });

  it('keeps what each assistant message is, on every read; one saved without a mark reads back without', async () => {
    const marked = [
      message('user', 'Can I talk to a person?'),
      { ...message('assistant', 'Someone will join shortly.', 1), kind: 'handoff' as const },
      message('user', 'Do you sell gift cards?', 2),
      { ...message('assistant', 'I could not find an answer to that.', 3), kind: 'decline' as const },
      message('user', 'When do you open?', 4),
      { ...message('assistant', 'At nine.', 5), kind: 'answer' as const },
      { ...message('assistant', 'Ada here.', 6), author: { type: 'human' as const, name: 'Ada' } },
      message('assistant', 'Saved before the mark.', 7),
    ];
    await store.conversations.append(append({ messages: marked, at: at(7) }));
    const expected = marked.map((item) => ({ ...item, id: expect.any(String) as string }));
    const found = await store.conversations.find(bot.id, 'conv-1');
    expect(found?.messages).toEqual(expected);
    expect(found?.messages.filter((item) => 'kind' in item).map((item) => item.kind)).toEqual(['handoff', 'decline', 'answer']);
    expect((await store.conversations.list(bot.id, {}, ALL))[0]?.messages).toEqual(expected);
    expect(await store.conversations.recentMessages(bot.id, 'conv-1', 3)).toEqual(expected.slice(-3));
    const answers = await Promise.all(
      (found?.messages ?? []).filter((item) => item.role === 'assistant').map((item) => store.conversations.answeredQuestion(bot.id, item.id)),
    );
    expect(answers.map((answered) => answered?.answer.kind)).toEqual(['handoff', 'decline', 'answer', undefined, undefined]);
  });

  it('records feedback on an assistant message, a later rating replacing the earlier', async () => {
    await store.conversations.append(append());
    await store.conversations.append(append({ messages: [message('user', 'More?', 60), message('assistant', 'Sure.', 61)] }));
    const before = (await store.conversations.find(bot.id, 'conv-1'))?.messages ?? [];
    const rated = before[1]?.id ?? '';
    expect(await store.conversations.setFeedback(bot.id, rated, 'up')).toEqual({ firstDown: false });
    const after = (await store.conversations.find(bot.id, 'conv-1'))?.messages ?? [];
    expect(after).toEqual([before[0], { ...before[1], feedback: 'up' }, before[2], before[3]]);
    // Unrated messages carry no feedback field at all.
    expect(after.filter((item) => 'feedback' in item)).toHaveLength(1);

    expect(await store.conversations.setFeedback(bot.id, rated, 'down')).toEqual({ firstDown: true });
    expect((await store.conversations.list(bot.id, {}, ALL))[0]?.messages[1]?.feedback).toBe('down');
    expect((await store.conversations.recentMessages(bot.id, 'conv-1', 3))[0]).toEqual({ ...before[1], feedback: 'down' });
  });

  it('says which 👎 is a message’s first: not a repeated one, nor one after a 👍 that followed it', async () => {
    await store.conversations.append(append());
    await store.conversations.append(append({ messages: [message('user', 'More?', 60), message('assistant', 'Sure.', 61)] }));
    const [, rated = '', , racing = ''] = (await store.conversations.find(bot.id, 'conv-1'))?.messages.map((item) => item.id) ?? [];
    const ratings = [];
    for (const feedback of ['down', 'down', 'up', 'down'] as const) ratings.push(await store.conversations.setFeedback(bot.id, rated, feedback));
    expect(ratings).toEqual([{ firstDown: true }, { firstDown: false }, { firstDown: false }, { firstDown: false }]);
    const raced = await Promise.all([1, 2, 3].map(() => store.conversations.setFeedback(bot.id, racing, 'down')));
    expect(raced.filter((rating) => rating && rating.firstDown)).toHaveLength(1);
  });

  it('finds no message to rate among user messages, other chatbots’ and unknown ids', async () => {
    const other = await seedChatbot(store, owner);
    await store.conversations.append(append());
    const [question, answer] = (await store.conversations.find(bot.id, 'conv-1'))?.messages ?? [];
    const [unused] = await store.conversations.reserveMessageIds(1);
    for (const [chatbotId, messageId] of [
      [bot.id, question?.id ?? ''],
      [other.id, answer?.id ?? ''],
      ['no-such-bot', answer?.id ?? ''],
      [bot.id, unused ?? ''],
      [bot.id, '0'],
      [bot.id, 'not-an-id'],
      [bot.id, 'a'.repeat(24)],
      [bot.id, ''],
    ] as const) {
      expect(await store.conversations.setFeedback(chatbotId, messageId, 'up'), `${chatbotId} ${messageId}`).toBe(false);
    }
    expect((await store.conversations.find(bot.id, 'conv-1'))?.messages.some((item) => 'feedback' in item)).toBe(false);
  });

  it('deletes the conversations with their chatbot', async () => {
    const other = await seedChatbot(store, owner);
    await store.conversations.append(append());
    await store.conversations.append(append({ chatbotId: other.id }));
    expect(await store.chatbots.delete(owner.id, bot.id)).toBe(true);
    expect(await store.conversations.find(bot.id, 'conv-1')).toBeUndefined();
    expect(await store.conversations.list(bot.id, {}, ALL)).toEqual([]);
    expect(ids(await store.conversations.list(other.id, {}, ALL))).toEqual(['conv-1']);
  });
});
