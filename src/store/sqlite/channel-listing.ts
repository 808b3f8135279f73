import { pageOffset } from '../paging.js';
import type { BindingFilter, Page } from '../port.js';

// Bindings and digests are both listed per account, filtered by the channel they concern and
// paged oldest first: one statement shape and one set of parameters serves both tables.

/** The listing of `table`; absent filter fields bind as NULL, which the statement reads as "any". */
export const channelListingSql = (table: 'bindings' | 'digests') =>
  `SELECT * FROM ${table}
     WHERE account_id = @accountId
       AND (@platform IS NULL OR platform = @platform)
       AND (@workspaceId IS NULL OR workspace_id = @workspaceId)
       AND (@channelId IS NULL OR channel_id = @channelId)
       AND (@chatbotId IS NULL OR chatbot_id = @chatbotId)
     ORDER BY created_at, id
     LIMIT @limit OFFSET @offset`;

export type ChannelListingParams = ReturnType<typeof channelListingParams>;

export const channelListingParams = (accountId: string, filter: BindingFilter, page: Page) => ({
  accountId,
  platform: filter.platform ?? null,
  workspaceId: filter.workspaceId ?? null,
  channelId: filter.channelId ?? null,
  chatbotId: filter.chatbotId ?? null,
  limit: page.size,
  offset: pageOffset(page),
});
