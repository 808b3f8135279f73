import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Store } from '../src/store/port.js';

// Hourly store repair (Store.repair): on MongoDB without transactions it recomputes counters and
// removes what a crash between two writes left behind. Any number of processes may run it.

const HOURLY = '17 * * * *';

export type Maintenance = { stop(): Promise<void> };

export function startMaintenance(store: Store, logger: Logger): Maintenance {
  const log = logger.child({ job: 'store-repair' });
  let running: Promise<void> | undefined;
  const repair = () => {
    running ??= store
      .repair()
      .then((report) => {
        if (report.counters > 0 || report.orphans > 0) log.warn(report, 'store repaired after an interrupted write');
      })
      .catch((error: unknown) => log.error({ err: error }, 'store repair failed'))
      .finally(() => (running = undefined));
  };
  const task: ScheduledTask = cron.schedule(HOURLY, repair, { name: 'store-repair' });
  return {
    async stop() {
      await task.destroy();
      await running;
    },
  };
}
