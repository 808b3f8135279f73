import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noActivity } from '../../src/store/activity-counters.js';
import type { Account, Chatbot, Store, UnansweredAsk, UnansweredExample } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Review and improve: activity counters, revisions and unanswered questions, one behaviour for
// every adapter that can be had here.

const ALL = { page: 1, size: 100 };
const at = (iso: string) => new Date(iso);

describe.each(storeTargets.filter((target) => target.available))('$name store: review and improve', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  const append = (conversationId: string, when: string, roles: ('user' | 'assistant')[], tally = {}) =>
    store.conversations.append({
      chatbotId: bot.id,
      accountId: owner.id,
      id: conversationId,
      source: 'Slack',
      contactId: null,
      messages: roles.map((role, index) => ({ role, content: `${role} ${index}`, createdAt: at(when) })),
      at: at(when),
      tally,
    });
  const counts = async (from = '2026-03-01T00:00:00Z', to = '2026-04-01T00:00:00Z', scope: { chatbotId: string } | { accountId: string } = { chatbotId: bot.id }) =>
    (await store.activity.hours(scope, at(from), at(to))).map(({ hour, counts: c }) => ({ hour: hour.toISOString(), ...c }));

  describe('activity', () => {
    it('counts conversations, messages and the tally in the hour of the append', async () => {
      await append('c1', '2026-03-10T10:15:00Z', ['user', 'assistant'], { credits: 1, declined: 1 });
      await append('c1', '2026-03-10T10:45:00Z', ['user', 'user', 'assistant'], { credits: 1 });
      await append('c2', '2026-03-10T11:00:00Z', ['user', 'assistant'], { credits: 1 });
      expect(await counts()).toEqual([
        {
          ...noActivity(),
          hour: '2026-03-10T10:00:00.000Z',
          conversations: 1,
          sourceSlack: 1,
          userMessages: 3,
          assistantMessages: 2,
          credits: 2,
          declined: 1,
        },
        { ...noActivity(), hour: '2026-03-10T11:00:00.000Z', conversations: 1, sourceSlack: 1, userMessages: 1, assistantMessages: 1, credits: 1 },
      ]);
    });

    it('reads hours in [from, to) and sums the account over its chatbots, never another account', async () => {
      const other = await seedChatbot(store, owner);
      const stranger = await seedChatbot(store, await seedAccount(store));
      await append('c1', '2026-03-10T10:00:00Z', ['user', 'assistant']);
      await store.activity.add(other.id, at('2026-03-10T10:30:00Z'), { credits: 2 });
      await store.activity.add(stranger.id, at('2026-03-10T10:30:00Z'), { credits: 5 });
      await store.activity.add(bot.id, at('2026-03-10T12:00:00Z'), { credits: 7 });
      const account = await counts('2026-03-10T10:00:00Z', '2026-03-10T12:00:00Z', { accountId: owner.id });
      expect(account).toEqual([
        { ...noActivity(), hour: '2026-03-10T10:00:00.000Z', conversations: 1, sourceSlack: 1, userMessages: 1, assistantMessages: 1, credits: 2 },
      ]);
      expect((await counts('2026-03-10T12:00:00Z', '2026-03-10T13:00:00Z')).map((hour) => hour.credits)).toEqual([7]);
    });

    it('counts a rating at its answer’s hour, and a changed rating moves from one side to the other', async () => {
      await append('c1', '2026-03-10T10:00:00Z', ['user', 'assistant']);
      const [, answer] = (await store.conversations.find(bot.id, 'c1'))?.messages ?? [];
      await store.conversations.setFeedback(bot.id, answer?.id ?? '', 'up');
      await store.conversations.setFeedback(bot.id, answer?.id ?? '', 'up');
      expect((await counts()).map(({ feedbackUp, feedbackDown }) => [feedbackUp, feedbackDown])).toEqual([[1, 0]]);
      await store.conversations.setFeedback(bot.id, answer?.id ?? '', 'down');
      expect((await counts()).map(({ feedbackUp, feedbackDown }) => [feedbackUp, feedbackDown])).toEqual([[0, 1]]);
    });

    it('counts new leads at their hour, not a conversation lead filled in later', async () => {
      const lead = {
        chatbotId: bot.id,
        accountId: owner.id,
        name: null,
        email: 'a@example.com',
        phone: null,
        createdAt: at('2026-03-10T09:10:00Z'),
      };
      await store.leads.insert({ ...lead, id: 'l1', conversationId: null });
      await store.leads.upsertForConversation({ ...lead, id: 'l2', conversationId: 'c1' });
      await store.leads.upsertForConversation({ ...lead, id: 'l3', conversationId: 'c1', name: 'Ada' });
      expect((await counts()).map((hour) => hour.leads)).toEqual([2]);
    });

    it('loses no increment to concurrent writers', async () => {
      await Promise.all(Array.from({ length: 20 }, () => store.activity.add(bot.id, at('2026-03-10T10:00:00Z'), { credits: 1 })));
      expect((await counts()).map((hour) => hour.credits)).toEqual([20]);
    });

    it('goes with its chatbot', async () => {
      await append('c1', '2026-03-10T10:00:00Z', ['user', 'assistant']);
      await store.chatbots.delete(owner.id, bot.id);
      expect(await counts()).toEqual([]);
    });
  });

  describe('answers and revisions', () => {
    it('finds the question an answer answered: the user messages since the answer before', async () => {
      await append('c1', '2026-03-10T10:00:00Z', ['user', 'assistant', 'user', 'user', 'assistant']);
      const messages = (await store.conversations.find(bot.id, 'c1'))?.messages ?? [];
      const answered = await store.conversations.answeredQuestion(bot.id, messages[4]?.id ?? '');
      expect(answered).toMatchObject({ conversationId: 'c1', source: 'Slack', question: 'user 2\nuser 3' });
      expect(answered?.answer).toEqual(messages[4]);
      expect((await store.conversations.answeredQuestion(bot.id, messages[1]?.id ?? ''))?.question).toBe('user 0');
    });

    it('answers nothing for a user message, an unknown id or another chatbot’s answer', async () => {
      await append('c1', '2026-03-10T10:00:00Z', ['user', 'assistant']);
      const [question, answer] = (await store.conversations.find(bot.id, 'c1'))?.messages ?? [];
      const other = await seedChatbot(store, owner);
      expect(await store.conversations.answeredQuestion(bot.id, question?.id ?? '')).toBeUndefined();
      expect(await store.conversations.answeredQuestion(bot.id, 'nope')).toBeUndefined();
      expect(await store.conversations.answeredQuestion(other.id, answer?.id ?? '')).toBeUndefined();
      const revision = { answer: 'Fixed.', createdAt: at('2026-03-11T00:00:00Z') };
      expect(await store.conversations.setRevision(bot.id, question?.id ?? '', revision)).toBe(false);
      expect(await store.conversations.setRevision(other.id, answer?.id ?? '', revision)).toBe(false);
    });

    it('keeps a revision beside the answer’s content, a later one replacing it', async () => {
      await append('c1', '2026-03-10T10:00:00Z', ['user', 'assistant']);
      const [, answer] = (await store.conversations.find(bot.id, 'c1'))?.messages ?? [];
      const id = answer?.id ?? '';
      expect(await store.conversations.setRevision(bot.id, id, { answer: 'First.', createdAt: at('2026-03-11T00:00:00Z') })).toBe(true);
      expect(await store.conversations.setRevision(bot.id, id, { answer: 'Second.', createdAt: at('2026-03-12T00:00:00Z') })).toBe(true);
      const [, revised] = (await store.conversations.find(bot.id, 'c1'))?.messages ?? [];
      expect(revised).toEqual({ ...answer, revision: { answer: 'Second.', createdAt: at('2026-03-12T00:00:00Z') } });
    });
  });

  describe('unanswered questions', () => {
    const example = (when: string, messageId: string | null = null): UnansweredExample => ({
      conversationId: messageId && 'c1',
      messageId,
      source: 'API',
      askedAt: at(when),
    });
    const ask = (question: string, terms: string[], when: string, overrides: Partial<UnansweredAsk> = {}): UnansweredAsk => ({
      chatbotId: bot.id,
      accountId: owner.id,
      opening: { id: `g-${question}`, question, terms },
      example: example(when),
      ...overrides,
    });
    /** Records an ask that is kept: of no conversation, or of one that stands. */
    const recordKept = async (value: UnansweredAsk) => {
      const result = await store.unanswered.record(value);
      if (!result) throw new Error('the ask was not kept');
      return result;
    };

    it('opens a group, then counts into it by id or by the same terms, keeping the first question', async () => {
      await append('c1', '2026-03-10T09:00:00Z', ['user', 'assistant']);
      const first = await recordKept(ask('refund policy?', ['polici', 'refund'], '2026-03-10T10:00:00Z'));
      expect(first.created).toBe(true);
      expect(first.group).toEqual({
        id: 'g-refund policy?',
        chatbotId: bot.id,
        accountId: owner.id,
        question: 'refund policy?',
        terms: ['polici', 'refund'],
        count: 1,
        firstAskedAt: at('2026-03-10T10:00:00Z'),
        lastAskedAt: at('2026-03-10T10:00:00Z'),
        status: 'open',
        examples: [example('2026-03-10T10:00:00Z')],
      });
      const same = await recordKept(ask('Refund policy', ['polici', 'refund'], '2026-03-10T11:00:00Z'));
      const byId = await recordKept(
        ask('how do refunds work', ['refund', 'work'], '2026-03-10T12:00:00Z', { groupId: first.group.id, example: example('2026-03-10T12:00:00Z', '7') }),
      );
      expect([same.created, byId.created]).toEqual([false, false]);
      expect(byId.group).toMatchObject({ id: first.group.id, question: 'refund policy?', count: 3, lastAskedAt: at('2026-03-10T12:00:00Z') });
      expect(byId.group.examples.map((item) => item.askedAt.toISOString())).toEqual([
        '2026-03-10T12:00:00.000Z',
        '2026-03-10T11:00:00.000Z',
        '2026-03-10T10:00:00.000Z',
      ]);
      expect(byId.group.examples[0]).toEqual({ conversationId: 'c1', messageId: '7', source: 'API', askedAt: at('2026-03-10T12:00:00Z') });
    });

    it('counts a question without terms into the group of its wording only: case, spaces and the closing mark aside', async () => {
      const hello = await recordKept(ask('Hello?', [], '2026-03-10T10:00:00Z'));
      const again = await recordKept(ask('  hello  !', [], '2026-03-10T11:00:00Z', { opening: { id: 'g-2', question: '  hello  !', terms: [] } }));
      const why = await recordKept(ask('Why?', [], '2026-03-10T12:00:00Z'));
      expect([hello.created, again.created, why.created]).toEqual([true, false, true]);
      expect(again.group).toMatchObject({ id: 'g-Hello?', question: 'Hello?', count: 2 });
      expect(why.group).toMatchObject({ id: 'g-Why?', question: 'Why?', count: 1 });
    });

    it('counts a repeat of a question without terms into the group of its wording, as record does', async () => {
      const repeat = (question: string, when: string) => store.unanswered.repeat({ chatbotId: bot.id, terms: [], question, example: example(when) });
      await recordKept(ask('Hello?', [], '2026-03-10T10:00:00Z'));
      expect(await repeat('  hello  !', '2026-03-10T11:00:00Z')).toBe(true);
      expect(await repeat('Why?', '2026-03-10T12:00:00Z')).toBe(false);
      expect(await store.unanswered.find(bot.id, 'g-Hello?')).toMatchObject({ count: 2, lastAskedAt: at('2026-03-10T11:00:00Z') });
      expect(await store.unanswered.count(bot.id, {})).toBe(1);
    });

    it('reads asks recorded out of the order they were asked by when they were asked: first, last and examples', async () => {
      // An ask is recorded as its reply ends: of two asked moments apart, the second may end first.
      await recordKept(ask('q', ['q'], '2026-03-10T10:00:00.500Z'));
      const { group } = await recordKept(ask('q', ['q'], '2026-03-10T10:00:00.200Z'));
      expect(group).toMatchObject({ count: 2, firstAskedAt: at('2026-03-10T10:00:00.200Z'), lastAskedAt: at('2026-03-10T10:00:00.500Z') });
      expect(group.examples.map((item) => item.askedAt.toISOString())).toEqual(['2026-03-10T10:00:00.500Z', '2026-03-10T10:00:00.200Z']);
    });

    it('keeps the latest examples only', async () => {
      for (let hour = 10; hour < 18; hour += 1) await store.unanswered.record(ask('q', ['q'], `2026-03-10T${hour}:00:00Z`));
      const group = await store.unanswered.find(bot.id, 'g-q');
      expect(group?.count).toBe(8);
      expect(group?.examples.map((item) => item.askedAt.getUTCHours())).toEqual([17, 16, 15, 14, 13]);
    });

    it('of racing asks with the same terms, one opens the group and none is lost', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, n) => recordKept({ ...ask('q', ['q'], '2026-03-10T10:00:00Z'), opening: { id: `g${n}`, question: `q${n}`, terms: ['q'] } })),
      );
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(await store.unanswered.list(bot.id, {}, ALL)).toMatchObject([{ count: 10 }]);
    });

    it('lists most asked first, ties by last asked (newest first), then id; filters by status and last asked', async () => {
      const record = (id: string, times: string[]) =>
        Promise.all(times.map((when) => store.unanswered.record({ ...ask(id, [id], when), opening: { id, question: id, terms: [id] } })));
      await record('b', ['2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z']);
      await record('a', ['2026-03-03T00:00:00Z']);
      await record('c', ['2026-03-03T00:00:00Z']);
      await record('d', ['2026-03-04T00:00:00Z']);
      const ids = async (filter = {}, page = ALL) => (await store.unanswered.list(bot.id, filter, page)).map((group) => group.id);
      expect(await ids()).toEqual(['b', 'd', 'a', 'c']);
      expect(await ids({}, { page: 2, size: 2 })).toEqual(['a', 'c']);
      await store.unanswered.setStatus(bot.id, 'd', 'dismissed');
      expect(await ids({ status: 'open' })).toEqual(['b', 'a', 'c']);
      expect(await ids({ status: 'dismissed' })).toEqual(['d']);
      expect(await ids({ from: at('2026-03-03T00:00:00Z'), to: at('2026-03-03T23:59:59Z') })).toEqual(['a', 'c']);
      expect(await store.unanswered.count(bot.id, { status: 'open' })).toBe(3);
      expect(await store.unanswered.count(bot.id, {})).toBe(4);
    });

    it('reopens a resolved or dismissed group it counts into, with the same id', async () => {
      await store.unanswered.record(ask('q', ['q'], '2026-03-10T10:00:00Z'));
      expect(await store.unanswered.setStatus(bot.id, 'g-q', 'resolved')).toMatchObject({ status: 'resolved', count: 1 });
      const again = await store.unanswered.record(ask('q', ['q'], '2026-03-11T10:00:00Z', { groupId: 'g-q' }));
      expect(again).toMatchObject({ created: false, group: { id: 'g-q', status: 'open', count: 2 } });
    });

    it('counts a repeat into the group of exactly the same terms only, reopening it; keeps chatbots apart', async () => {
      const other = await seedChatbot(store, owner);
      const repeat = (terms: string[], when: string, chatbotId = bot.id) =>
        store.unanswered.repeat({ chatbotId, terms, question: 'refund policy?', example: example(when) });
      expect(await repeat(['polici', 'refund'], '2026-03-10T09:00:00Z')).toBe(false);
      await store.unanswered.record(ask('refund policy?', ['polici', 'refund'], '2026-03-10T10:00:00Z'));
      await store.unanswered.setStatus(bot.id, 'g-refund policy?', 'dismissed');
      expect(await repeat(['refund'], '2026-03-10T11:00:00Z')).toBe(false);
      expect(await repeat(['polici', 'refund'], '2026-03-10T11:00:00Z', other.id)).toBe(false);
      expect(await repeat(['polici', 'refund'], '2026-03-10T12:00:00Z')).toBe(true);
      const group = await store.unanswered.find(bot.id, 'g-refund policy?');
      expect(group).toMatchObject({ count: 2, status: 'open', lastAskedAt: at('2026-03-10T12:00:00Z') });
      expect(group?.examples.map((item) => item.askedAt.getUTCHours())).toEqual([12, 10]);
      expect(await store.unanswered.count(bot.id, {})).toBe(1);
      expect(await store.unanswered.count(other.id, {})).toBe(0);
    });

    it('finds candidates sharing a term, most recently asked first; keeps chatbots apart', async () => {
      const other = await seedChatbot(store, owner);
      await store.unanswered.record(ask('one', ['refund', 'polici'], '2026-03-10T10:00:00Z'));
      await store.unanswered.record(ask('two', ['refund', 'time'], '2026-03-10T11:00:00Z'));
      await store.unanswered.record(ask('three', ['open', 'hour'], '2026-03-10T12:00:00Z'));
      await store.unanswered.record({ ...ask('four', ['refund'], '2026-03-10T13:00:00Z'), chatbotId: other.id });
      expect(await store.unanswered.candidates(bot.id, ['refund', 'bike'], 10)).toEqual([
        { id: 'g-two', terms: ['refund', 'time'] },
        { id: 'g-one', terms: ['refund', 'polici'] },
      ]);
      expect(await store.unanswered.candidates(bot.id, ['refund'], 1)).toHaveLength(1);
      expect(await store.unanswered.find(other.id, 'g-one')).toBeUndefined();
      expect(await store.unanswered.setStatus(other.id, 'g-one', 'dismissed')).toBeUndefined();
      expect(await store.unanswered.find(bot.id, 'g-one')).toMatchObject({ status: 'open' });
    });

    it('marks each new group for its webhook event, with the example that opened it, until announced', async () => {
      await append('c1', '2026-03-10T09:00:00Z', ['user', 'assistant']);
      await store.unanswered.record(ask('q', ['q'], '2026-03-10T10:00:00Z', { example: example('2026-03-10T10:00:00Z', '3') }));
      await store.unanswered.record(ask('q', ['q'], '2026-03-10T11:00:00Z'));
      await store.unanswered.record(ask('r', ['r'], '2026-03-10T12:00:00Z'));
      const pending = await store.unanswered.unannounced(10);
      expect(pending.map(({ group, opening }) => [group.id, group.count, opening])).toEqual([
        ['g-q', 2, example('2026-03-10T10:00:00Z', '3')],
        ['g-r', 1, example('2026-03-10T12:00:00Z')],
      ]);
      await store.unanswered.markAnnounced('g-q');
      expect((await store.unanswered.unannounced(10)).map(({ group }) => group.id)).toEqual(['g-r']);
    });

    it('goes with its chatbot', async () => {
      await store.unanswered.record(ask('q', ['q'], '2026-03-10T10:00:00Z'));
      await store.chatbots.delete(owner.id, bot.id);
      expect(await store.unanswered.unannounced(10)).toEqual([]);
    });
  });
});
