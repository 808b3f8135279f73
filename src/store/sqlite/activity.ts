import type { Database } from 'better-sqlite3';
import { ACTIVITY_COUNTERS, hourOf, type ActivityCounts, type ActivityTally } from '../activity-counters.js';
import type { ActivityHour, ActivityRepository } from '../port.js';
import type { GroupCommit } from './group-commit.js';

// activity_hours: one row per chatbot and UTC hour, a column per counter (snake_case of its name).

const column = (counter: string) => counter.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const COLUMNS = ACTIVITY_COUNTERS.map(column);

type HourRow = { hour: number } & Record<string, number>;

const toHour = (row: HourRow): ActivityHour => ({
  hour: new Date(row.hour),
  counts: Object.fromEntries(ACTIVITY_COUNTERS.map((counter, index) => [counter, row[COLUMNS[index] as string] ?? 0])) as ActivityCounts,
});

/** Adds a tally to a chatbot's hour; for use inside the transaction of the write it counts. */
export type ActivityCount = (chatbotId: string, at: Date | number, tally: ActivityTally) => void;

export function sqliteActivityCount(db: Database): ActivityCount {
  const upsert = db.prepare(
    `INSERT INTO activity_hours (chatbot_id, hour, ${COLUMNS.join(', ')})
     VALUES (@chatbotId, @hour, ${ACTIVITY_COUNTERS.map((counter) => `@${counter}`).join(', ')})
     ON CONFLICT (chatbot_id, hour) DO UPDATE SET
     ${COLUMNS.map((name) => `${name} = ${name} + excluded.${name}`).join(', ')}`,
  );
  return (chatbotId, at, tally) => {
    const values = Object.fromEntries(ACTIVITY_COUNTERS.map((counter) => [counter, tally[counter] ?? 0]));
    upsert.run({ chatbotId, hour: hourOf(new Date(at)), ...values });
  };
}

export function sqliteActivity(db: Database, count: ActivityCount, batched: GroupCommit): ActivityRepository {
  const ofChatbot = db.prepare<[string, number, number], HourRow>(
    `SELECT * FROM activity_hours WHERE chatbot_id = ? AND hour >= ? AND hour < ? ORDER BY hour`,
  );
  const ofAccount = db.prepare<[string, number, number], HourRow>(
    `SELECT hour, ${COLUMNS.map((name) => `SUM(${name}) AS ${name}`).join(', ')}
     FROM chatbots JOIN activity_hours ON activity_hours.chatbot_id = chatbots.id
     WHERE chatbots.account_id = ? AND hour >= ? AND hour < ?
     GROUP BY hour ORDER BY hour`,
  );
  return {
    add(chatbotId, at, tally) {
      return batched.write(() => count(chatbotId, at, tally));
    },
    async hours(scope, from, to) {
      const rows =
        'chatbotId' in scope
          ? ofChatbot.all(scope.chatbotId, from.getTime(), to.getTime())
          : ofAccount.all(scope.accountId, from.getTime(), to.getTime());
      return rows.map(toHour);
    },
  };
}
