import Router from '@koa/router';
import { z } from 'zod';
import { listConversations } from '../../domain/conversations.js';
import { CONVERSATION_SOURCES } from '../../store/conversation-sources.js';
import type { Conversation, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { parseListing } from '../schemas/listing.js';
import { chatbotId, parseInput } from '../validation.js';

// The Conversations tag: GET /get-conversations, the hosted service's conversation history.

/**
 * `filteredSources`, comma-separated and/or repeated, each exactly one of the sources (blank
 * parts are ignored); absent means every source.
 */
const filteredSources = z
  .union([z.string(), z.array(z.string())])
  .transform((given) => [given].flat().flatMap((value) => value.split(',')).map((part) => part.trim()))
  .transform((parts) => [...new Set(parts.filter((part) => part !== ''))])
  .pipe(z.array(z.enum(CONVERSATION_SOURCES)))
  .optional();

const conversationsQuery = z.object({ chatbotId, filteredSources });

function toConversationItem(conversation: Conversation) {
  return {
    id: conversation.id,
    chatbot_id: conversation.chatbotId,
    source: conversation.source,
    contact_id: conversation.contactId,
    created_at: conversation.createdAt.toISOString(),
    updated_at: conversation.updatedAt.toISOString(),
    messages: conversation.messages.map((message) => ({
      role: message.role,
      content: message.content,
      created_at: message.createdAt.toISOString(),
    })),
  };
}

export function conversationRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();

  router.get('/get-conversations', async (ctx) => {
    const { chatbotId: id, filteredSources: sources } = parseInput(conversationsQuery, ctx.query);
    const { range, page } = parseListing(ctx.query);
    const conversations = await listConversations(store, ctx.state.account, id, { ...range, sources }, page);
    ctx.body = { data: conversations.map(toConversationItem) };
  });

  return router;
}
