import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_BATCH, startNoticePoller, type NoticePoster } from '../../adapters/handoff-notices.js';
import type { HandoffNotice, HandoffThread, Platform } from '../../adapters/hub-client.js';

// The notice poller both chat adapters share, against a scripted hub client and poster: what it
// claims, posts and marks done, in which order, and how it behaves when the hub or a post fails
// and when it stops. The adapters' end-to-end tests drive it against the real hub.

type Deferred<T> = { promise: Promise<T>; resolve(value: T): void };

function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const LONG_MS = 3_600_000;
const THREAD: HandoffThread = { channelId: 'C1', threadId: 'T-c1' };

function notice(id: string, kind: HandoffNotice['kind'], conversationId: string, thread: HandoffThread | null = null): HandoffNotice {
  return {
    id,
    kind,
    chatbotId: 'b1',
    chatbotName: 'Shop',
    conversationId,
    source: 'Widget or Iframe',
    channel: { workspaceId: 'W1', channelId: 'C1' },
    thread,
    handoff: { status: kind === 'closed' ? 'resolved' : 'pending', requested_at: '2026-03-10T12:00:00.000Z', taken_by: null },
    created_at: '2026-03-10T12:00:00.000Z',
    ...(kind === 'message' ? { text: 'Hello?' } : {}),
  };
}

/** Answers the scripted claims in turn (an Error is thrown), then none; records every call in `calls`. */
function fakeHub(claims: (HandoffNotice[] | Error)[]) {
  const calls: string[] = [];
  const drained = deferred();
  const hub = {
    async claimHandoffNotices(platform: Platform, limit?: number, _leaseSeconds?: number, workspaceIds?: string[]) {
      calls.push(`claim ${platform} ${limit}${workspaceIds ? ` in ${workspaceIds.join(',')}` : ''}`);
      const next = claims.shift();
      if (!next) {
        drained.resolve();
        return [];
      }
      if (next instanceof Error) throw next;
      return next;
    },
    async completeHandoffNotice(noticeId: string, thread?: HandoffThread) {
      calls.push(thread ? `done ${noticeId} ${thread.threadId}` : `done ${noticeId}`);
      return { id: noticeId };
    },
  };
  return { hub, calls, drained: drained.promise };
}

type PosterOptions = {
  /** Notices whose post fails. */
  fail?: Set<string>;
  /** Awaited before each post. */
  before?: () => Promise<void>;
};

/** A poster that records what it posts in `calls`; a conversation's request starts thread `T-{conversationId}`. */
function recordingPoster(calls: string[], { fail = new Set(), before = () => Promise.resolve() }: PosterOptions = {}): NoticePoster {
  return {
    async startThread(posted) {
      await before();
      calls.push(`start ${posted.id}`);
      if (fail.has(posted.id)) throw new Error('the platform refused');
      return { channelId: posted.channel.channelId, threadId: `T-${posted.conversationId}` };
    },
    async postInThread(posted, thread) {
      await before();
      calls.push(`post ${posted.id} in ${thread.threadId}`);
      if (fail.has(posted.id)) throw new Error('the platform refused');
    },
    async tellPerson(posted) {
      await before();
      calls.push(`tell ${posted.id} in ${posted.channel.channelId}`);
      if (fail.has(posted.id)) throw new Error('the platform refused');
    },
  };
}

type LogLine = { level: number; msg: string; noticeId?: string; platform?: string };

function capturingLogger() {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines, errors: () => lines.filter((line) => line.level >= 50) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the handoff notice poller', () => {
  it('claims for its platform, posts each notice, then marks it done (a request with the thread it started)', async () => {
    const { hub, calls, drained } = fakeHub([
      [notice('n1', 'requested', 'c1'), notice('n2', 'message', 'c2', THREAD), notice('n3', 'closed', 'c3', THREAD), notice('n4', 'reply', 'c4')],
    ]);
    const poller = startNoticePoller({ hub, platform: 'slack', poster: recordingPoster(calls), logger: capturingLogger().logger, intervalMs: 0 });
    await drained;
    await poller.stop();

    expect(calls[0]).toBe(`claim slack ${NOTICE_BATCH}`);
    const after = (first: string, second: string) => expect(calls.indexOf(first)).toBeLessThan(calls.indexOf(second));
    after('start n1', 'done n1 T-c1');
    after('post n2 in T-c1', 'done n2');
    after('post n3 in T-c1', 'done n3');
    // A reply goes where the person talks, named by the notice; no thread needed.
    after('tell n4 in C1', 'done n4');
    expect(calls.filter((call) => call.startsWith('done'))).toHaveLength(4);
  });

  it('claims for the workspaces the adapter posts in, asked before each claim, and claims nothing while it is in none', async () => {
    const { hub, calls } = fakeHub([]);
    const answers = [['W1'], ['W1', 'W2'], []];
    const noneThrice = deferred();
    let asked = 0;
    const workspaceIds = () => {
      asked += 1;
      if (asked === 5) noneThrice.resolve();
      return answers[Math.min(asked - 1, answers.length - 1)];
    };
    const poller = startNoticePoller({ hub, platform: 'discord', workspaceIds, poster: recordingPoster(calls), logger: capturingLogger().logger, intervalMs: 0 });
    await noneThrice.promise;
    await poller.stop();
    expect(calls).toEqual([`claim discord ${NOTICE_BATCH} in W1`, `claim discord ${NOTICE_BATCH} in W1,W2`]);
  });

  it('posts the notices of one batch at once: a slow post holds up no other conversation', async () => {
    const { hub, calls } = fakeHub([[notice('n1', 'requested', 'c1'), notice('n2', 'requested', 'c2')]]);
    const release = deferred();
    const bothStarted = deferred();
    let started = 0;
    const poster: NoticePoster = {
      async startThread(posted) {
        started += 1;
        if (started === 2) bothStarted.resolve();
        // Neither request finishes until both are being posted: posting one after the other never gets there.
        await release.promise;
        return { channelId: 'C1', threadId: `T-${posted.conversationId}` };
      },
      postInThread: () => Promise.reject(new Error('no follow-ups in this batch')),
      tellPerson: () => Promise.reject(new Error('no replies in this batch')),
    };
    const poller = startNoticePoller({ hub, platform: 'discord', poster, logger: capturingLogger().logger, intervalMs: LONG_MS });
    await bothStarted.promise;
    expect(calls.filter((call) => call.startsWith('done'))).toEqual([]);
    release.resolve();
    await poller.stop();
    expect(calls.filter((call) => call.startsWith('done')).sort()).toEqual(['done n1 T-c1', 'done n2 T-c2']);
  });

  it('leaves a notice it could not post unmarked (its lease runs out and it is offered again) and posts the rest', async () => {
    const { hub, calls, drained } = fakeHub([[notice('n1', 'requested', 'c1'), notice('n2', 'message', 'c2', THREAD)]]);
    const log = capturingLogger();
    const poller = startNoticePoller({ hub, platform: 'slack', poster: recordingPoster(calls, { fail: new Set(['n1']) }), logger: log.logger, intervalMs: 0 });
    await drained;
    await poller.stop();

    expect(calls).toContain('start n1');
    expect(calls.filter((call) => call.startsWith('done'))).toEqual(['done n2']);
    expect(log.errors()).toMatchObject([{ msg: 'could not post a handoff notice', noticeId: 'n1', platform: 'slack' }]);
  });

  it('marks done, without posting, a follow-up whose request never started a thread', async () => {
    const { hub, calls, drained } = fakeHub([[notice('n1', 'message', 'c1')]]);
    const log = capturingLogger();
    const poller = startNoticePoller({ hub, platform: 'discord', poster: recordingPoster(calls), logger: log.logger, intervalMs: 0 });
    await drained;
    await poller.stop();

    expect(calls.filter((call) => !call.startsWith('claim'))).toEqual(['done n1']);
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 40, noticeId: 'n1' }));
  });

  it('says an outage of the hub once, and again that it is over', async () => {
    const down = new Error('connect ECONNREFUSED');
    const { hub, calls, drained } = fakeHub([down, down, down, [notice('n1', 'message', 'c1', THREAD)], down, down]);
    const log = capturingLogger();
    const poller = startNoticePoller({ hub, platform: 'slack', poster: recordingPoster(calls), logger: log.logger, intervalMs: 0 });
    await drained;
    await poller.stop();

    expect(calls).toContain('done n1');
    expect(log.lines.map((line) => line.msg)).toEqual([
      'could not claim handoff notices from the hub',
      'handoff notices can be claimed again',
      'could not claim handoff notices from the hub',
      'handoff notices can be claimed again',
    ]);
  });

  it('claims again at once after a full batch, otherwise after the interval, and never once stopped', async () => {
    vi.useFakeTimers();
    const full = (batch: string) => Array.from({ length: NOTICE_BATCH }, (_, index) => notice(`${batch}${index}`, 'message', `${batch}c${index}`, THREAD));
    const { hub, calls } = fakeHub([full('a'), full('b')]);
    const claims = () => calls.filter((call) => call.startsWith('claim')).length;
    const poller = startNoticePoller({ hub, platform: 'discord', poster: recordingPoster(calls), logger: capturingLogger().logger, intervalMs: LONG_MS });
    await vi.advanceTimersByTimeAsync(1);
    expect(claims()).toBe(3);
    expect(calls.filter((call) => call.startsWith('done'))).toHaveLength(2 * NOTICE_BATCH);

    // Fake time: nothing for (nearly) the interval, then the next claim.
    await vi.advanceTimersByTimeAsync(LONG_MS - 10);
    expect(claims()).toBe(3);
    await vi.advanceTimersByTimeAsync(20);
    expect(claims()).toBe(4);

    await poller.stop();
    await vi.advanceTimersByTimeAsync(2 * LONG_MS);
    expect(claims()).toBe(4);
  });

  it('stops after the pass in progress, then claims nothing more', async () => {
    const { hub, calls } = fakeHub([[notice('n1', 'requested', 'c1')]]);
    const started = deferred();
    const release = deferred();
    const before = () => {
      started.resolve();
      return release.promise;
    };
    const poller = startNoticePoller({ hub, platform: 'slack', poster: recordingPoster(calls, { before }), logger: capturingLogger().logger, intervalMs: 0 });
    await started.promise;
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);

    release.resolve();
    await stopping;
    expect(calls).toEqual([`claim slack ${NOTICE_BATCH}`, 'start n1', 'done n1 T-c1']);
  });

  it('stops waiting for a pass that hangs after a few seconds, leaving its notice unmarked', async () => {
    vi.useFakeTimers();
    const { hub, calls } = fakeHub([[notice('n1', 'requested', 'c1')]]);
    const started = deferred();
    const hang = () => {
      started.resolve();
      return new Promise<void>(() => undefined);
    };
    const poller = startNoticePoller({ hub, platform: 'discord', poster: recordingPoster(calls, { before: hang }), logger: capturingLogger().logger, intervalMs: 0 });
    await started.promise;
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);

    await vi.advanceTimersByTimeAsync(5_000);
    await stopping;
    expect(calls).toEqual([`claim discord ${NOTICE_BATCH}`]);
  });
});
