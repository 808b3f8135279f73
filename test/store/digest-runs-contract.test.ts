import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Digest, DigestRunClaim, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Digest run records: the claim that makes one clock process of many post a digest, once per
// subscription and local day. One behaviour for every adapter that can be had here.

const T0 = new Date('2026-03-10T08:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const LEASE_MINUTES = 10;

describe.each(storeTargets.filter((target) => target.available))('$name store: digest runs', (target) => {
  let store: Store;
  let digest: Digest;
  let other: Digest;

  const claim = (overrides: Partial<DigestRunClaim> = {}): DigestRunClaim => {
    const claimedAt = overrides.claimedAt ?? T0;
    return {
      digestId: digest.id,
      localDate: '2026-03-10',
      scheduledAt: T0,
      claimedBy: 'clock-a',
      claimedAt,
      leaseUntil: new Date(claimedAt.getTime() + LEASE_MINUTES * 60_000),
      ...overrides,
    };
  };

  beforeEach(async () => {
    store = await target.open();
    const account = await seedAccount(store);
    const chatbot = await seedChatbot(store, account);
    const subscription = (channelId: string): Digest => ({
      id: randomUUID(),
      accountId: account.id,
      chatbotId: chatbot.id,
      platform: 'slack',
      workspaceId: 'T0001',
      channelId,
      time: '09:00',
      timezone: 'Europe/Oslo',
      postWhenEmpty: false,
      createdAt: T0,
      updatedAt: T0,
    });
    digest = await store.digests.upsert(subscription('C0001'));
    other = await store.digests.upsert(subscription('C0002'));
  });
  afterEach(async () => {
    await store.close();
  });

  it('claims a run once: the first claim inserts it, in progress, exactly as given', async () => {
    const first = claim();
    expect(await store.digestRuns.claim(first)).toBe(true);
    expect(await store.digestRuns.find(digest.id, '2026-03-10')).toEqual({
      ...first,
      status: null,
      attempts: 0,
      error: null,
      finishedAt: null,
    });
    expect(await store.digestRuns.claim(claim({ claimedBy: 'clock-b', claimedAt: minutes(1) }))).toBe(false);
    expect((await store.digestRuns.find(digest.id, '2026-03-10'))?.claimedBy).toBe('clock-a');
  });

  it('keys runs by digest and local date', async () => {
    expect(await store.digestRuns.claim(claim())).toBe(true);
    expect(await store.digestRuns.claim(claim({ localDate: '2026-03-11' }))).toBe(true);
    expect(await store.digestRuns.claim(claim({ digestId: other.id }))).toBe(true);
    expect(await store.digestRuns.claim(claim({ localDate: '2026-03-11' }))).toBe(false);
    expect(await store.digestRuns.find(other.id, '2026-03-11')).toBeUndefined();
  });

  it('lets exactly one of many concurrent claims win', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) => store.digestRuns.claim(claim({ claimedBy: `clock-${index}` }))),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = `clock-${outcomes.indexOf(true)}`;
    expect((await store.digestRuns.find(digest.id, '2026-03-10'))?.claimedBy).toBe(winner);
  });

  it('records how a run finished', async () => {
    await store.digestRuns.claim(claim());
    await store.digestRuns.finish(digest.id, '2026-03-10', {
      status: 'failed',
      attempts: 3,
      error: 'An API error occurred: internal_error',
      finishedAt: minutes(2),
    });
    expect(await store.digestRuns.find(digest.id, '2026-03-10')).toEqual({
      ...claim(),
      status: 'failed',
      attempts: 3,
      error: 'An API error occurred: internal_error',
      finishedAt: minutes(2),
    });
    await store.digestRuns.claim(claim({ localDate: '2026-03-11' }));
    await store.digestRuns.finish(digest.id, '2026-03-11', { status: 'posted', attempts: 1, finishedAt: minutes(3) });
    expect(await store.digestRuns.find(digest.id, '2026-03-11')).toMatchObject({ status: 'posted', attempts: 1, error: null });
  });

  it('hands an unfinished run to a new claimer once its lease has ended, and only then', async () => {
    await store.digestRuns.claim(claim());
    // Still leased: refused, up to and including the lease's last instant.
    expect(await store.digestRuns.claim(claim({ claimedBy: 'clock-b', claimedAt: minutes(LEASE_MINUTES) }))).toBe(false);
    // Expired: exactly one of the racing takers gets it, and the lease moves on.
    const takeover = minutes(LEASE_MINUTES + 1);
    const outcomes = await Promise.all(
      ['clock-b', 'clock-c', 'clock-d'].map((claimedBy) => store.digestRuns.claim(claim({ claimedBy, claimedAt: takeover }))),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const run = await store.digestRuns.find(digest.id, '2026-03-10');
    expect(run).toMatchObject({
      claimedBy: ['clock-b', 'clock-c', 'clock-d'][outcomes.indexOf(true)],
      claimedAt: takeover,
      leaseUntil: new Date(takeover.getTime() + LEASE_MINUTES * 60_000),
      status: null,
    });
    expect(await store.digestRuns.claim(claim({ claimedBy: 'clock-e', claimedAt: minutes(LEASE_MINUTES + 2) }))).toBe(false);
  });

  it('never hands over a finished run, however old', async () => {
    await store.digestRuns.claim(claim());
    await store.digestRuns.finish(digest.id, '2026-03-10', { status: 'skipped', attempts: 0, finishedAt: minutes(1) });
    expect(await store.digestRuns.claim(claim({ claimedBy: 'clock-b', claimedAt: minutes(24 * 60) }))).toBe(false);
    expect(await store.digestRuns.find(digest.id, '2026-03-10')).toMatchObject({ claimedBy: 'clock-a', status: 'skipped' });
  });

  it('answers the scheduled instant of the latest posted or skipped run as lastPosted', async () => {
    expect(await store.digestRuns.lastPosted(digest.id)).toBeUndefined();
    const day = (localDate: string, hour: number) => claim({ localDate, scheduledAt: new Date(`${localDate}T0${hour}:00:00.000Z`) });
    const finish = (localDate: string, status: 'posted' | 'skipped' | 'failed' | 'missed') =>
      store.digestRuns.finish(digest.id, localDate, { status, attempts: 1, finishedAt: minutes(1) });

    await store.digestRuns.claim(day('2026-03-08', 8));
    await finish('2026-03-08', 'posted');
    await store.digestRuns.claim(day('2026-03-09', 7));
    await finish('2026-03-09', 'skipped');
    expect(await store.digestRuns.lastPosted(digest.id)).toEqual(new Date('2026-03-09T07:00:00.000Z'));

    // Failed, missed and unfinished runs do not move it: their leads belong to the next digest.
    await store.digestRuns.claim(day('2026-03-10', 8));
    await finish('2026-03-10', 'failed');
    await store.digestRuns.claim(day('2026-03-11', 8));
    await finish('2026-03-11', 'missed');
    await store.digestRuns.claim(day('2026-03-12', 8));
    expect(await store.digestRuns.lastPosted(digest.id)).toEqual(new Date('2026-03-09T07:00:00.000Z'));
    expect(await store.digestRuns.lastPosted(other.id)).toBeUndefined();

    await finish('2026-03-12', 'posted');
    expect(await store.digestRuns.lastPosted(digest.id)).toEqual(new Date('2026-03-12T08:00:00.000Z'));
  });

  it('answers the finished run of the latest day as latest, failed or not, never one in progress', async () => {
    expect(await store.digestRuns.latestOf([digest.id, other.id])).toEqual(new Map());
    const day = (localDate: string) => claim({ localDate, scheduledAt: new Date(`${localDate}T08:00:00.000Z`) });
    await store.digestRuns.claim(day('2026-03-09'));
    await store.digestRuns.finish(digest.id, '2026-03-09', { status: 'posted', attempts: 1, finishedAt: minutes(1) });
    await store.digestRuns.claim(day('2026-03-10'));
    await store.digestRuns.finish(digest.id, '2026-03-10', { status: 'failed', attempts: 1, error: 'not_in_channel', finishedAt: minutes(2) });
    await store.digestRuns.claim(day('2026-03-11'));
    const latest = await store.digestRuns.latestOf([digest.id, other.id]);
    expect([...latest.keys()]).toEqual([digest.id]);
    expect(latest.get(digest.id)).toMatchObject({ localDate: '2026-03-10', status: 'failed', error: 'not_in_channel', finishedAt: minutes(2) });
    expect(await store.digestRuns.latestOf([])).toEqual(new Map());
  });
});
