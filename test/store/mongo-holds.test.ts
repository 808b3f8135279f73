import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { holding, whileHolding } from '../../src/store/mongo/holds.js';
import { migrateIndexes } from '../../src/store/mongo/indexes.js';
import { mongoModels, type MongoModels } from '../../src/store/mongo/models.js';

// Holds (src/store/mongo/holds.ts): mutual exclusion on MongoDB without transactions. Calls under
// one hold take turns, a hold that expired is taken over, and a hold is let go once its work ends.

const mongoUri = inject('mongoUri');

describe.skipIf(mongoUri === undefined)('mongodb holds', () => {
  let connection: mongoose.Connection;
  let models: MongoModels;

  beforeEach(async () => {
    connection = await mongoose.createConnection(mongoUri ?? '', { dbName: `switchboard_holds_${randomUUID().slice(0, 8)}` }).asPromise();
    models = mongoModels(connection);
    await migrateIndexes(models.adapterClaims as never);
  });
  afterEach(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('runs the work of calls under one hold in turns, never two at once, and each once', async () => {
    let inside = 0;
    let most = 0;
    const ran: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, k) =>
        whileHolding(models, 'writes', 60_000, async () => {
          most = Math.max(most, (inside += 1));
          await sleep(5);
          ran.push(k);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect([...ran].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // Each let go: the hold is free again.
    expect(await holding(models, 'writes', new Date(), 60_000, async () => 'free')).toBe('free');
  });

  it('answers undefined while another has the hold, takes over one expired, and lets go when the work fails', async () => {
    const now = new Date();
    let release = () => {};
    const held = holding(models, 'repair', now, 60_000, () => new Promise<void>((resolve) => (release = resolve)));
    await sleep(20);
    expect(await holding(models, 'repair', now, 60_000, async () => 'ran')).toBeUndefined();
    // An hour on, the first hold has expired.
    expect(await holding(models, 'repair', new Date(now.getTime() + 3_600_000), 60_000, async () => 'ran')).toBe('ran');
    release();
    await held;
    await expect(holding(models, 'failing', new Date(), 60_000, async () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await holding(models, 'failing', new Date(), 60_000, async () => 'again')).toBe('again');
  });
});
