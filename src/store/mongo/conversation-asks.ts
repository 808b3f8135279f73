import { deleteEventDeliveries } from './delivery-removal.js';
import type { MongoModels } from './models.js';

/**
 * Takes a conversation's asks out of the unanswered questions: the groups it opened go whole (their
 * question is its words), with their unanswered.created deliveries, and its examples leave the
 * others. Each step finishes what an earlier call cut short left.
 */
export async function forgetConversationAsks(models: MongoModels, chatbotId: string, conversationId: string): Promise<void> {
  const { unansweredGroups } = models;
  const opened = await unansweredGroups.find({ chatbotId, 'opening.conversationId': conversationId }, { _id: 1 }).lean<{ _id: string }[]>();
  const groupIds = opened.map(({ _id }) => _id);
  if (groupIds.length > 0) {
    await deleteEventDeliveries(models, chatbotId, [{ eventKey: { $in: groupIds.map((id) => `unanswered.created:${id}`) } }]);
    await unansweredGroups.deleteMany({ _id: { $in: groupIds }, chatbotId });
  }
  await unansweredGroups.updateMany({ chatbotId, 'examples.conversationId': conversationId }, { $pull: { examples: { conversationId } } });
}
