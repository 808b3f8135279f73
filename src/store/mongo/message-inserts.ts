import { Types } from 'mongoose';
import { appendTally, type ActivityTally } from '../activity-counters.js';
import type { ConversationSource, NewMessage } from '../port.js';
import type { ActivityCount } from './activity.js';
import type { MongoModels } from './models.js';

// A conversation's messages are numbered by the counter in its document: one atomic update of the
// document reserves a batch's numbers (with whatever else that write changes), then the messages
// are inserted under them. Shared by the appends and the handoff changes that say something.

/** A message id as this store writes it (an ObjectId's hex), as an ObjectId; undefined for any other string. */
export const objectId = (id: string) => (/^[0-9a-f]{24}$/.test(id) ? new Types.ObjectId(id) : undefined);

function reservedId(id: string): Types.ObjectId {
  const _id = objectId(id);
  if (!_id) throw new Error(`not a reserved message id: ${id}`);
  return _id;
}

/** The part of a conversation document's update that reserves the numbers of `count` messages at `at`. */
export const reserveSequence = (count: number, at: Date) => ({ $inc: { messageCount: count }, $max: { updatedAt: at } });

export type ReservedBatch = {
  chatbotId: string;
  /** The conversation's id. */
  id: string;
  at: Date;
  /** The first number reserved: the document's messageCount after the update, less the batch. */
  first: number;
  messages: NewMessage[];
  /** The conversation's source, counted when the batch is its first. */
  source?: ConversationSource;
  tally?: ActivityTally;
};

/** Counts a batch and inserts its messages under the numbers reserved for it. */
export function messageInserts(models: MongoModels, count: ActivityCount) {
  return async ({ chatbotId, id, at, first, messages, source, tally }: ReservedBatch): Promise<void> => {
    await count(chatbotId, at, appendTally(messages, first === 0 ? source : undefined, tally));
    if (messages.length === 0) return;
    await models.conversationMessages.insertMany(
      messages.map(({ id: messageId, role, content, createdAt, sources, author, kind }, index) => ({
        ...(messageId !== undefined && { _id: reservedId(messageId) }),
        chatbotId,
        conversationId: id,
        seq: first + index,
        role,
        content,
        createdAt,
        ...(sources?.length && { sources }),
        ...(author && { author }),
        ...(kind && { kind }),
      })),
      { ordered: true, lean: true },
    );
  };
}
