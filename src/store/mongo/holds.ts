import { setTimeout as sleep } from 'node:timers/promises';
import type { MongoModels } from './models.js';
import { isDuplicateKey } from './unique.js';

// Holds: a document of adapterClaims, by id, until it expires, that one instance (or one call)
// has at a time. Mutual exclusion where MongoDB without transactions has none, and a holder that
// dies lets go when its hold expires.

/**
 * Takes the hold `id` until `expiresAt`, unless another still holds it; answers whether it did.
 * It matches only an expired hold (taken over) or nothing (inserted); a live hold makes the upsert
 * collide with it on _id, and that collision is the answer "held by another".
 */
export async function takeHold(models: MongoModels, id: string, now: Date, expiresAt: Date): Promise<boolean> {
  try {
    await models.adapterClaims.updateOne({ _id: id, expiresAt: { $lte: now } }, { $set: { expiresAt } }, { upsert: true });
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** Runs `work` under the hold `id` (for at most `holdMs` from `now`), or answers undefined without running it while another has it. */
export async function holding<T>(models: MongoModels, id: string, now: Date, holdMs: number, work: () => Promise<T>): Promise<T | undefined> {
  const until = new Date(now.getTime() + holdMs);
  if (!(await takeHold(models, id, now, until))) return undefined;
  try {
    return await work();
  } finally {
    await models.adapterClaims.deleteOne({ _id: id, expiresAt: until });
  }
}

/** Runs `work` under the hold `id`, waiting for it while another has it. */
export async function whileHolding<T>(models: MongoModels, id: string, holdMs: number, work: () => Promise<T>): Promise<T> {
  for (;;) {
    let ran = false;
    const done = await holding(models, id, new Date(), holdMs, async () => {
      ran = true;
      return work();
    });
    if (ran) return done as T;
    // Holds last milliseconds: another try soon, at a time of its own.
    await sleep(2 + Math.random() * 8);
  }
}
