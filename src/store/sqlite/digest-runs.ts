import type { Database } from 'better-sqlite3';
import type { DigestRun, DigestRunClaim, DigestRunRepository, DigestRunStatus } from '../port.js';

type DigestRunRow = {
  digest_id: string;
  local_date: string;
  scheduled_at: number;
  claimed_by: string;
  claimed_at: number;
  lease_until: number;
  status: DigestRunStatus | null;
  attempts: number;
  error: string | null;
  finished_at: number | null;
};

type ClaimParams = {
  digestId: string;
  localDate: string;
  scheduledAt: number;
  claimedBy: string;
  claimedAt: number;
  leaseUntil: number;
};

const toRun = (row: DigestRunRow): DigestRun => ({
  digestId: row.digest_id,
  localDate: row.local_date,
  scheduledAt: new Date(row.scheduled_at),
  claimedBy: row.claimed_by,
  claimedAt: new Date(row.claimed_at),
  leaseUntil: new Date(row.lease_until),
  status: row.status,
  attempts: row.attempts,
  error: row.error,
  finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
});

const toParams = (run: DigestRunClaim): ClaimParams => ({
  digestId: run.digestId,
  localDate: run.localDate,
  scheduledAt: run.scheduledAt.getTime(),
  claimedBy: run.claimedBy,
  claimedAt: run.claimedAt.getTime(),
  leaseUntil: run.leaseUntil.getTime(),
});

export function sqliteDigestRuns(db: Database): DigestRunRepository {
  // One statement: the primary key decides between a new claim and an existing run, and the
  // conditional update takes over only an unfinished run whose lease has ended. `changes` tells
  // the caller whether it holds the run; a busy or finished run changes nothing.
  const claim = db.prepare<[ClaimParams]>(
    `INSERT INTO digest_runs (digest_id, local_date, scheduled_at, claimed_by, claimed_at, lease_until)
     VALUES (@digestId, @localDate, @scheduledAt, @claimedBy, @claimedAt, @leaseUntil)
     ON CONFLICT (digest_id, local_date) DO UPDATE SET
       scheduled_at = excluded.scheduled_at, claimed_by = excluded.claimed_by,
       claimed_at = excluded.claimed_at, lease_until = excluded.lease_until
     WHERE digest_runs.status IS NULL AND digest_runs.lease_until < excluded.claimed_at`,
  );
  const finish = db.prepare(
    `UPDATE digest_runs SET status = ?, attempts = ?, error = ?, finished_at = ?
     WHERE digest_id = ? AND local_date = ?`,
  );
  // These two are served by the primary key: local dates sort as the days they name.
  const lastPosted = db.prepare<[string], { scheduled_at: number }>(
    `SELECT scheduled_at FROM digest_runs
     WHERE digest_id = ? AND status IN ('posted', 'skipped')
     ORDER BY local_date DESC LIMIT 1`,
  );
  // Per digest, the primary key walked back from its latest day to the first finished run.
  const latestOf = db.prepare<[string], DigestRunRow>(
    `SELECT r.* FROM json_each(?) d JOIN digest_runs r ON r.digest_id = d.value AND r.local_date = (
       SELECT local_date FROM digest_runs WHERE digest_id = d.value AND status IS NOT NULL ORDER BY local_date DESC LIMIT 1)`,
  );
  const find = db.prepare<[string, string], DigestRunRow>(
    'SELECT * FROM digest_runs WHERE digest_id = ? AND local_date = ?',
  );

  return {
    async claim(run) {
      return claim.run(toParams(run)).changes > 0;
    },
    async finish(digestId, localDate, result) {
      const { status, attempts, error, finishedAt } = result;
      finish.run(status, attempts, error ?? null, finishedAt.getTime(), digestId, localDate);
    },
    async lastPosted(digestId) {
      const row = lastPosted.get(digestId);
      return row ? new Date(row.scheduled_at) : undefined;
    },
    async latestOf(digestIds) {
      return new Map(latestOf.all(JSON.stringify(digestIds)).map((row) => [row.digest_id, toRun(row)]));
    },
    async find(digestId, localDate) {
      const row = find.get(digestId, localDate);
      return row ? toRun(row) : undefined;
    },
  };
}
