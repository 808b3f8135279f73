import type { DigestRun, DigestRunRepository } from '../port.js';
import type { DigestRunDoc, MongoModels } from './models.js';
import { isDuplicateKey } from './unique.js';

const toRun = (doc: DigestRunDoc): DigestRun => ({
  digestId: doc.digestId,
  localDate: doc.localDate,
  scheduledAt: doc.scheduledAt,
  claimedBy: doc.claimedBy,
  claimedAt: doc.claimedAt,
  leaseUntil: doc.leaseUntil,
  status: doc.status ?? null,
  attempts: doc.attempts,
  error: doc.error ?? null,
  finishedAt: doc.finishedAt ?? null,
});

export function mongoDigestRuns(models: MongoModels): DigestRunRepository {
  const { digestRuns } = models;

  return {
    // The unique (digestId, localDate) index decides: the first insert wins. A refused insert
    // may still take over a run whose claimer crashed, with an update that matches only while the
    // run is unfinished and its lease over; the first such update moves the lease, so racing
    // takers cannot both match.
    async claim(run) {
      const { digestId, localDate, scheduledAt, claimedBy, claimedAt, leaseUntil } = run;
      try {
        await digestRuns.create({
          digestId,
          localDate,
          scheduledAt,
          claimedBy,
          claimedAt,
          leaseUntil,
          status: null,
          attempts: 0,
          error: null,
          finishedAt: null,
        });
        return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const { modifiedCount } = await digestRuns.updateOne(
        { digestId, localDate, status: null, leaseUntil: { $lt: claimedAt } },
        { $set: { scheduledAt, claimedBy, claimedAt, leaseUntil } },
      );
      return modifiedCount > 0;
    },
    async finish(digestId, localDate, result) {
      const { status, attempts, error, finishedAt } = result;
      await digestRuns.updateOne({ digestId, localDate }, { $set: { status, attempts, error: error ?? null, finishedAt } });
    },
    async lastPosted(digestId) {
      const doc = await digestRuns
        .findOne({ digestId, status: { $in: ['posted', 'skipped'] } }, { scheduledAt: 1 })
        .sort({ localDate: -1 })
        .lean<Pick<DigestRunDoc, 'scheduledAt'>>();
      return doc?.scheduledAt;
    },
    // Each digest's finished runs newest day first, through the (digestId, localDate) index; the
    // first of each is its latest.
    async latestOf(digestIds) {
      const latest = await digestRuns.aggregate<{ run: DigestRunDoc }>([
        { $match: { digestId: { $in: digestIds }, status: { $ne: null } } },
        { $sort: { digestId: 1, localDate: -1 } },
        { $group: { _id: '$digestId', run: { $first: '$$ROOT' } } },
      ]);
      return new Map(latest.map(({ run }) => [run.digestId, toRun(run)]));
    },
    async find(digestId, localDate) {
      const doc = await digestRuns.findOne({ digestId, localDate }).lean<DigestRunDoc>();
      return doc ? toRun(doc) : undefined;
    },
  };
}
