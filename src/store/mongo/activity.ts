import { ACTIVITY_COUNTERS, hourOf, noActivity, type ActivityTally } from '../activity-counters.js';
import type { ActivityHour, ActivityRepository } from '../port.js';
import type { ActivityHourDoc, MongoModels } from './models.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

// activityHours: one document per chatbot and UTC hour, a field per counter.

/** Adds a tally to a chatbot's hour; called inside the atomic write of what it counts. */
export type ActivityCount = (chatbotId: string, at: Date, tally: ActivityTally) => Promise<void>;

export function mongoActivityCount({ activityHours }: MongoModels): ActivityCount {
  return async (chatbotId, at, tally) => {
    const increments = Object.fromEntries(Object.entries(tally).filter(([, value]) => value !== 0));
    if (Object.keys(increments).length === 0) return;
    const hour = hourOf(at);
    await retryOnceOnDuplicateKey(() =>
      activityHours.updateOne(
        { _id: `${chatbotId}:${hour}` },
        { $setOnInsert: { chatbotId, hour: new Date(hour) }, $inc: increments },
        { upsert: true },
      ),
    );
  };
}

export function mongoActivity(models: MongoModels, count: ActivityCount): ActivityRepository {
  return {
    add: count,
    // The account's hours are summed here: at most its chatbots times the hours asked for.
    async hours(scope, from, to) {
      const chatbotIds =
        'chatbotId' in scope
          ? [scope.chatbotId]
          : (await models.chatbots.find({ accountId: scope.accountId }, { _id: 1 }).lean<{ _id: string }[]>()).map(
              (chatbot) => chatbot._id,
            );
      const docs = await models.activityHours
        .find({ chatbotId: { $in: chatbotIds }, hour: { $gte: from, $lt: to } })
        .lean<ActivityHourDoc[]>();
      const byHour = new Map<number, ActivityHour>();
      for (const doc of docs) {
        const key = doc.hour.getTime();
        let hour = byHour.get(key);
        if (!hour) byHour.set(key, (hour = { hour: doc.hour, counts: noActivity() }));
        for (const counter of ACTIVITY_COUNTERS) hour.counts[counter] += doc[counter] ?? 0;
      }
      return [...byHour.values()].sort((a, b) => a.hour.getTime() - b.hour.getTime());
    },
  };
}
