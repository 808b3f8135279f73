import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Chatbot,
  HandoffChange,
  HandoffFollowUp,
  HandoffNotice,
  HandoffReplyNotice,
  HandoffRequestNotice,
  HandoffSnapshot,
  Platform,
  Store,
  TranscriptTurn,
} from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedConversation } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// The handoff notices feed: enqueued with the change each tells of, offered per conversation in
// order (follow-ups once the request is posted), leased to one claimer at a time, the thread the
// request started recorded once and found again, on every adapter.

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const THREAD = { channelId: 'C1', threadId: '1712345678.000100' };
const TRANSCRIPT: TranscriptTurn[] = [
  { role: 'user', content: 'I need a person' },
  { role: 'assistant', content: 'Ada here', author: { type: 'human', name: 'Ada' } },
];
const PERSON = { name: 'Bo', email: 'bo@example.com', phone: null };
/** Where the person talks: their Slack thread. */
const PERSON_THREAD = { channelId: 'CP', threadId: '1712340000.000200' };
const ADA = { type: 'human' as const, name: 'Ada' };

describe.each(storeTargets.filter((target) => target.available))('$name store: handoff notices', (target) => {
  let store: Store;
  let chatbot: Chatbot;
  let noticeCount = 0;

  const converse = (id: string, owner = chatbot) => seedConversation(store, owner, id, NOW);
  const pending = (requestedAt: Date): HandoffSnapshot => ({ status: 'pending', requestedAt, takenBy: null });
  const requestNotice = (
    conversationId: string,
    requestedAt: Date,
    owner = chatbot,
    platform: Platform = 'slack',
    workspaceId = 'T1',
  ): HandoffRequestNotice => ({
    kind: 'requested',
    id: `n${++noticeCount}`,
    accountId: owner.accountId,
    chatbotId: owner.id,
    chatbotName: owner.name,
    conversationId,
    source: 'Widget or Iframe',
    platform,
    workspaceId,
    channelId: 'C1',
    handoff: pending(requestedAt),
    transcript: TRANSCRIPT,
    person: PERSON,
    createdAt: requestedAt,
  });
  const followUp = (conversationId: string, handoff: HandoffSnapshot, createdAt: Date, text?: string, owner = chatbot): HandoffFollowUp => ({
    kind: text === undefined ? 'closed' : 'message',
    id: `n${++noticeCount}`,
    chatbotId: owner.id,
    conversationId,
    handoff,
    ...(text !== undefined && { text }),
    createdAt,
  });
  /** Opens a handoff with its request notice; answers the notice's id. */
  const request = async (conversationId: string, requestedAt = NOW, owner = chatbot, platform: Platform = 'slack', workspaceId = 'T1') => {
    const notice = requestNotice(conversationId, requestedAt, owner, platform, workspaceId);
    expect(await store.handoffs.request(owner.id, conversationId, requestedAt, at(300_000), notice)).toBeDefined();
    return notice.id;
  };
  /**
   * What is said in the open handoff, saved with its notices by a change that keeps the handoff as
   * it stands (as domain/handoff.ts relays the person's messages).
   */
  const sayInHandoff = async (conversationId: string, createdAt: Date, said: NonNullable<HandoffChange['said']>) => {
    const open = await store.handoffs.find(chatbot.id, conversationId);
    if (!open) throw new Error(`no handoff in ${conversationId}`);
    const change = { status: open.status, dueAt: open.dueAt, at: createdAt, said };
    expect(await store.handoffs.transition(chatbot.id, conversationId, [open.status], change, open.dueAt ?? undefined)).toBeDefined();
  };
  /** The person's message while the handoff is open, saved with its notice. */
  const relay = (conversationId: string, text: string, createdAt: Date, requestedAt = NOW) =>
    sayInHandoff(conversationId, createdAt, {
      messages: [{ role: 'user', content: text, createdAt }],
      notices: [followUp(conversationId, pending(requestedAt), createdAt, text)],
    });
  const close = (conversationId: string, closedAt: Date, requestedAt = NOW) =>
    store.handoffs.transition(chatbot.id, conversationId, ['pending', 'active'], {
      status: 'resolved',
      dueAt: null,
      at: closedAt,
      notice: followUp(conversationId, { status: 'resolved', requestedAt, takenBy: null }, closedAt),
    });
  /** What the team tells the person (a team member's reply, else the hand-back), saved with its notice. */
  const tell = (conversationId: string, text: string, createdAt: Date, author?: typeof ADA) => {
    const notice: HandoffReplyNotice = {
      kind: 'reply',
      id: `n${++noticeCount}`,
      accountId: chatbot.accountId,
      chatbotId: chatbot.id,
      chatbotName: chatbot.name,
      conversationId,
      source: 'Slack',
      platform: 'slack',
      workspaceId: 'T9',
      channelId: PERSON_THREAD.channelId,
      handoff: pending(NOW),
      text,
      ...(author && { author }),
      thread: PERSON_THREAD,
      createdAt,
    };
    return sayInHandoff(conversationId, createdAt, { messages: [{ role: 'assistant', content: text, createdAt, ...(author && { author }) }], notices: [notice] });
  };
  const claim = (now: Date, limit = 10, accountId = chatbot.accountId, platform: Platform = 'slack', workspaceIds?: string[], replies = true) =>
    store.handoffNotices.claim({ accountId, platform, workspaceIds, replies, now, leaseUntil: new Date(now.getTime() + 60_000), limit });
  /** One adapter process's claim: the notices of its workspaces. */
  const claimIn = (workspaceIds: string[], now: Date) => claim(now, 10, chatbot.accountId, 'slack', workspaceIds);
  const kinds = (notices: HandoffNotice[]) => notices.map((notice) => `${notice.conversationId}:${notice.kind}`);

  beforeEach(async () => {
    store = await target.open();
    chatbot = await seedChatbot(store, await seedAccount(store));
    await converse('c1');
  });
  afterEach(async () => {
    await store.close();
  });

  it('offers the request with what the team needs, then each follow-up once the one before is done', async () => {
    const requested = await request('c1');
    await relay('c1', 'Hello?', at(1_000));
    await relay('c1', 'Anyone there?', at(2_000));
    await close('c1', at(3_000));

    const [first, ...rest] = await claim(at(5_000));
    expect(rest).toEqual([]);
    expect(first).toEqual({
      id: requested,
      kind: 'requested',
      accountId: chatbot.accountId,
      chatbotId: chatbot.id,
      chatbotName: 'Helper',
      conversationId: 'c1',
      source: 'Widget or Iframe',
      platform: 'slack',
      workspaceId: 'T1',
      channelId: 'C1',
      handoff: pending(NOW),
      transcript: TRANSCRIPT,
      person: PERSON,
      thread: null,
      leaseUntil: at(65_000),
      doneAt: null,
      createdAt: NOW,
    });
    // The follow-ups wait for the request to be posted, even once its lease is over.
    expect(await claim(at(6_000))).toEqual([]);
    expect(await store.handoffNotices.complete(chatbot.accountId, requested, THREAD, at(7_000))).toMatchObject({ thread: THREAD, doneAt: at(7_000) });

    const posted: HandoffNotice[] = [];
    for (let step = 0; step < 4; step++) {
      const [next, ...more] = await claim(at(8_000 + step));
      expect(more).toEqual([]);
      if (!next) break;
      posted.push(next);
      await store.handoffNotices.complete(chatbot.accountId, next.id, undefined, at(8_000 + step));
    }
    expect(posted.map((notice) => [notice.kind, notice.text, notice.thread, notice.handoff.status])).toEqual([
      ['message', 'Hello?', THREAD, 'pending'],
      ['message', 'Anyone there?', THREAD, 'pending'],
      ['closed', undefined, THREAD, 'resolved'],
    ]);
    expect(posted[0]).toMatchObject({ chatbotName: 'Helper', source: 'Widget or Iframe', platform: 'slack', workspaceId: 'T1', channelId: 'C1' });
    expect(posted[0]?.transcript).toBeUndefined();
    expect(posted[0]?.person).toBeUndefined();
  });

  it('offers what the team tells the person where they talk, in an order of its own: it waits for none of the team’s notices', async () => {
    await request('c1');
    await tell('c1', 'Hi, Ada here.', at(1_000), ADA);
    await relay('c1', 'Hello?', at(2_000));
    await tell('c1', 'You are back with the assistant.', at(3_000));

    // Only to a claimer that posts replies (an adapter of before them would take one for the team's).
    expect(kinds(await claim(at(4_000), 10, chatbot.accountId, 'slack', ['T9'], false))).toEqual([]);
    // The request is not posted yet; the person's first reply comes all the same, beside it.
    const [requested, reply, ...rest] = await claim(at(5_000));
    expect(rest).toEqual([]);
    expect(requested?.kind).toBe('requested');
    expect(reply).toEqual({
      id: expect.any(String),
      kind: 'reply',
      accountId: chatbot.accountId,
      chatbotId: chatbot.id,
      chatbotName: 'Helper',
      conversationId: 'c1',
      source: 'Slack',
      platform: 'slack',
      workspaceId: 'T9',
      channelId: 'CP',
      handoff: pending(NOW),
      text: 'Hi, Ada here.',
      author: ADA,
      thread: PERSON_THREAD,
      leaseUntil: at(65_000),
      doneAt: null,
      createdAt: at(1_000),
    });
    // The next reply waits for this one, which keeps its thread once done.
    expect(await claim(at(6_000))).toEqual([]);
    expect(await store.handoffNotices.complete(chatbot.accountId, reply?.id ?? '', undefined, at(7_000))).toMatchObject({
      thread: PERSON_THREAD,
      doneAt: at(7_000),
    });
    // It goes to the person's workspace, not the team's.
    expect(await claimIn(['T1'], at(8_000))).toEqual([]);
    const [next, ...more] = await claimIn(['T9'], at(8_000));
    expect(more).toEqual([]);
    expect(next).toMatchObject({ kind: 'reply', text: 'You are back with the assistant.', thread: PERSON_THREAD });
    expect(next?.author).toBeUndefined();
    // The person's thread is no handoff's: nothing written there is relayed to the conversation.
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', PERSON_THREAD)).toBeUndefined();
    expect(await store.handoffNotices.prune(at(10_000))).toBe(1);
  });

  it('offers conversations side by side, oldest first, one notice each, up to the limit', async () => {
    await converse('c2');
    await converse('c3');
    await request('c2', at(1));
    await request('c1', at(2));
    await request('c3', at(3));
    await relay('c2', 'Hello?', at(4), at(1));
    expect(kinds(await claim(at(10), 2))).toEqual(['c2:requested', 'c1:requested']);
    expect(kinds(await claim(at(11), 2))).toEqual(['c3:requested']);
  });

  it('leases a notice until its lease ends, then offers it again', async () => {
    const requested = await request('c1');
    expect((await claim(at(1_000))).map((notice) => notice.id)).toEqual([requested]);
    expect(await claim(at(60_000))).toEqual([]);
    expect((await claim(at(61_001))).map((notice) => notice.id)).toEqual([requested]);
  });

  it('gives each notice to exactly one of racing claimers', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 12; index++) {
      await converse(`r${index}`);
      ids.push(await request(`r${index}`, at(index)));
    }
    const claimers = Array.from({ length: 6 }, () => claim(at(1_000), 3));
    const taken = (await Promise.all(claimers)).flat().map((notice) => notice.id);
    expect(taken).toHaveLength(12);
    expect(new Set(taken)).toEqual(new Set(ids));
  });

  it('keeps the first thread recorded, and marks a notice done once', async () => {
    const requested = await request('c1');
    await store.handoffNotices.complete(chatbot.accountId, requested, THREAD, at(1_000));
    const again = await store.handoffNotices.complete(chatbot.accountId, requested, { channelId: 'C1', threadId: '999.1' }, at(2_000));
    expect(again).toMatchObject({ thread: THREAD, doneAt: at(1_000) });
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', { channelId: 'C1', threadId: '999.1' })).toBeUndefined();
  });

  it('finds the conversation whose current handoff a thread is, for its own account only', async () => {
    const requested = await request('c1');
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD)).toBeUndefined();
    await store.handoffNotices.complete(chatbot.accountId, requested, THREAD, at(1_000));
    const found = await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD);
    expect(found).toEqual({ chatbotId: chatbot.id, conversationId: 'c1', handoff: await store.handoffs.find(chatbot.id, 'c1') });
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'discord', THREAD)).toBeUndefined();
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', { ...THREAD, channelId: 'C2' })).toBeUndefined();
    const other = await seedAccount(store);
    expect(await store.handoffNotices.findByThread(other.id, 'slack', THREAD)).toBeUndefined();
    expect(await store.handoffNotices.complete(other.id, requested, undefined, at(2_000))).toBeUndefined();
    expect(await store.handoffNotices.complete(chatbot.accountId, 'missing', undefined, at(2_000))).toBeUndefined();

    // Closed, it is still that handoff's thread; a new handoff of the conversation has its own.
    await close('c1', at(3_000));
    expect((await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD))?.handoff.status).toBe('resolved');
    await request('c1', at(4_000));
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD)).toBeUndefined();
  });

  it('offers a closed handoff’s notices, in its thread, before the next handoff’s request', async () => {
    const first = await request('c1');
    await store.handoffNotices.complete(chatbot.accountId, first, THREAD, at(1));
    await close('c1', at(2));
    const second = await request('c1', at(3));
    const [closed] = await claim(at(10));
    expect(closed).toMatchObject({ kind: 'closed', thread: THREAD, handoff: { status: 'resolved', requestedAt: NOW } });
    await store.handoffNotices.complete(chatbot.accountId, closed?.id ?? '', undefined, at(11));
    expect(await claim(at(12))).toMatchObject([{ id: second, kind: 'requested', thread: null, handoff: { requestedAt: at(3) } }]);
  });

  it('enqueues nothing with a change that does not apply, nor a follow-up of a handoff without a request notice', async () => {
    await request('c1');
    // Already open: neither the handoff nor the notice is written.
    expect(await store.handoffs.request(chatbot.id, 'c1', at(1), at(2), requestNotice('c1', at(1)))).toBeUndefined();
    expect(await store.handoffs.transition(chatbot.id, 'c1', ['active'], { status: 'resolved', dueAt: null, at: at(3), notice: followUp('c1', pending(NOW), at(3)) })).toBeUndefined();
    await converse('c2');
    await store.handoffs.request(chatbot.id, 'c2', at(4), at(5));
    await relay('c2', 'Hello?', at(6), at(4));
    expect(kinds(await claim(at(10)))).toEqual(['c1:requested']);
    expect(await claim(at(100_000))).toHaveLength(1);
  });

  it('offers an account only its own notices, for the platform asked', async () => {
    const other = await seedChatbot(store, await seedAccount(store));
    await converse('o1', other);
    await request('o1', NOW, other);
    await converse('d1');
    await request('d1', at(1), chatbot, 'discord');
    await request('c1', at(2));
    expect(kinds(await claim(at(10)))).toEqual(['c1:requested']);
    expect(kinds(await claim(at(10), 10, chatbot.accountId, 'discord'))).toEqual(['d1:requested']);
    expect(kinds(await claim(at(10), 10, other.accountId))).toEqual(['o1:requested']);
  });

  it('offers a claim for some workspaces their notices, the follow-ups where their requests went, and those naming none', async () => {
    await converse('c2');
    await converse('c3');
    const first = await request('c1', NOW, chatbot, 'slack', 'T1');
    const second = await request('c2', at(1), chatbot, 'slack', 'T2');
    await request('c3', at(2), chatbot, 'slack', '');
    await relay('c1', 'Hello?', at(3));
    await relay('c2', 'Anyone there?', at(4), at(1));
    await close('c2', at(5), at(1));

    expect(kinds(await claimIn(['T2'], at(10)))).toEqual(['c2:requested', 'c3:requested']);
    expect(kinds(await claimIn(['T1'], at(10)))).toEqual(['c1:requested']);
    expect(await claimIn(['T3'], at(10))).toEqual([]);
    await store.handoffNotices.complete(chatbot.accountId, first, THREAD, at(11));
    await store.handoffNotices.complete(chatbot.accountId, second, { channelId: 'C1', threadId: '2.2' }, at(11));

    const posted = async (workspaceIds: string[], now: Date) => {
      const notices = await claimIn(workspaceIds, now);
      for (const notice of notices) await store.handoffNotices.complete(chatbot.accountId, notice.id, undefined, now);
      return notices.map((notice) => [notice.conversationId, notice.kind, notice.workspaceId, notice.thread?.threadId]);
    };
    expect(await posted(['T1'], at(20))).toEqual([['c1', 'message', 'T1', THREAD.threadId]]);
    expect(await posted(['T1'], at(21))).toEqual([]);
    expect(await posted(['T2'], at(22))).toEqual([['c2', 'message', 'T2', '2.2']]);
    expect(await posted(['T2'], at(23))).toEqual([['c2', 'closed', 'T2', '2.2']]);
    // c3's request, leased at 10, is offered again to any workspace's process once its lease ends.
    expect(await posted(['T1'], at(70_011))).toEqual([['c3', 'requested', '', undefined]]);
  });

  it('offers one workspace’s notices of a conversation while another workspace’s are undone, and all in order without a filter', async () => {
    const first = await request('c1', NOW, chatbot, 'slack', 'T1');
    await store.handoffNotices.complete(chatbot.accountId, first, THREAD, at(1));
    await close('c1', at(2));
    // The chatbot now hands off to another workspace; the first handoff's closing is not posted yet.
    const second = await request('c1', at(3), chatbot, 'slack', 'T2');
    expect(await claimIn(['T2'], at(10))).toMatchObject([{ id: second, kind: 'requested', workspaceId: 'T2' }]);
    expect(await claim(at(100_000))).toMatchObject([{ kind: 'closed', workspaceId: 'T1', thread: THREAD }]);
  });

  it('prunes notices done before the bound, but keeps the current handoff’s request, which its thread is found by', async () => {
    const done = (id: string, doneAt: Date, thread?: typeof THREAD) => store.handoffNotices.complete(chatbot.accountId, id, thread, doneAt);
    const exists = async (id: string) => (await done(id, at(999_999))) !== undefined;
    const requested = await request('c1');
    await done(requested, at(1_000), THREAD);
    await relay('c1', 'Hello?', at(2_000));
    const [message] = await claim(at(2_500));
    await done(message?.id ?? '', at(3_000));
    await close('c1', at(4_000));
    const [closed] = await claim(at(4_500));
    await done(closed?.id ?? '', at(5_000));

    expect(await store.handoffNotices.prune(at(3_000))).toBe(0);
    expect(await store.handoffNotices.prune(at(4_000))).toBe(1);
    expect(await exists(message?.id ?? '')).toBe(false);
    expect(await store.handoffNotices.prune(at(100_000))).toBe(1);
    expect(await exists(closed?.id ?? '')).toBe(false);
    // Resolved, its thread is still found (a reply there is answered that it is over).
    expect(await exists(requested)).toBe(true);
    expect((await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD))?.handoff.status).toBe('resolved');

    // Once the conversation has a newer handoff, the old thread is no handoff's: its request goes.
    const second = await request('c1', at(200_000));
    await done(second, at(201_000), { channelId: 'C1', threadId: '2.2' });
    await relay('c1', 'Back again', at(202_000), at(200_000));
    expect(await store.handoffNotices.prune(at(300_000))).toBe(1);
    expect(await exists(requested)).toBe(false);
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD)).toBeUndefined();
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', { channelId: 'C1', threadId: '2.2' })).toMatchObject({ conversationId: 'c1' });
    // An undone notice is never pruned, and still reaches the thread.
    expect(await store.handoffNotices.prune(at(10_000_000))).toBe(0);
    expect(await claim(at(300_000))).toMatchObject([{ kind: 'message', text: 'Back again', thread: { threadId: '2.2' } }]);
  });

  it('keeps a request while a notice that follows it is undone, so that notice still reaches its thread', async () => {
    const first = await request('c1');
    await store.handoffNotices.complete(chatbot.accountId, first, THREAD, at(1));
    await close('c1', at(2));
    const second = await request('c1', at(3));
    expect(await store.handoffNotices.prune(at(1_000))).toBe(0);

    const [closed] = await claim(at(1_001));
    expect(closed).toMatchObject({ kind: 'closed', thread: THREAD });
    await store.handoffNotices.complete(chatbot.accountId, closed?.id ?? '', undefined, at(1_002));
    expect(kinds(await claim(at(1_003)))).toEqual(['c1:requested']);
    await store.handoffNotices.complete(chatbot.accountId, second, undefined, at(1_004));
    expect(await store.handoffNotices.prune(at(2_000))).toBe(2);
    expect(await store.handoffNotices.complete(chatbot.accountId, first, undefined, at(2_001))).toBeUndefined();
    expect(await store.handoffNotices.complete(chatbot.accountId, second, undefined, at(2_001))).toBeDefined();
  });

  it('prunes in batches, every account’s', async () => {
    const other = await seedChatbot(store, await seedAccount(store));
    // More than a batch (500), every third handoff since replaced, its request no longer needed.
    await Promise.all(
      Array.from({ length: 510 }, async (_, index) => {
        const owner = index % 2 === 0 ? chatbot : other;
        await converse(`b${index}`, owner);
        const id = await request(`b${index}`, at(index), owner);
        await store.handoffNotices.complete(owner.accountId, id, undefined, at(1_000));
        if (index % 3 > 0) return;
        await store.handoffs.transition(owner.id, `b${index}`, ['pending'], { status: 'missed', dueAt: null, at: at(1_000) });
        await store.handoffs.request(owner.id, `b${index}`, at(2_000), at(3_000));
      }),
    );
    expect(await store.handoffNotices.prune(at(5_000))).toBe(170);
  });

  it('goes with its chatbot', async () => {
    const requested = await request('c1');
    await store.handoffNotices.complete(chatbot.accountId, requested, THREAD, at(1));
    await close('c1', at(2));
    await store.chatbots.delete(chatbot.accountId, chatbot.id);
    expect(await claim(at(10))).toEqual([]);
    expect(await store.handoffNotices.findByThread(chatbot.accountId, 'slack', THREAD)).toBeUndefined();
  });
});
