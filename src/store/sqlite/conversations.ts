import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import type {
  AnsweredQuestion,
  Conversation,
  ConversationMessage,
  ConversationRepository,
  ConversationSource,
  Feedback,
  Incarnation,
  MessageKind,
  MessageSource,
  StoredMessage,
} from '../port.js';
import { CONVERSATION_SOURCES } from '../conversation-sources.js';
import type { ActivityCount } from './activity.js';
import { timeBounds } from './time-bounds.js';
import { HANDOFF_OF_CONVERSATION, toHandoff, type HandoffRow } from './handoff-rows.js';
import { sequenceNumber, type ConversationAppendTransaction } from './conversation-append.js';
import { sqliteErasure } from './erasure.js';
import type { Language } from '../../settings/languages.js';

type ConversationRow = {
  chatbot_id: string;
  id: string;
  account_id: string;
  source: ConversationSource;
  contact_id: string | null;
  lang: Language | null;
  created_at: number;
  updated_at: number;
  incarnation: Incarnation;
};

type MessageRow = {
  seq: number;
  role: ConversationMessage['role'];
  content: string;
  created_at: number;
  feedback: Feedback | null;
  sources: string | null;
  revision_answer: string | null;
  revision_at: number | null;
  author_name: string | null;
  kind: MessageKind | null;
};

type AnswerRow = MessageRow & { conversation_id: string; source: ConversationSource; rated_down: number };

type ListParams = {
  chatbotId: string;
  from: number;
  to: number;
  limit: number;
  offset: number;
} & Record<`s${number}`, string>;

type HandoffListParams = ListParams & { statuses: string };

const SOURCE_SLOTS = CONVERSATION_SOURCES.map((_, slot) => `@s${slot}`).join(', ');

/** Range conditions on conversations_by_chatbot_time, in its order; exported for the plan test. */
export const LIST_CONVERSATIONS_SQL = `SELECT * FROM conversations
  WHERE chatbot_id = @chatbotId AND created_at >= @from AND created_at <= @to
    AND source IN (${SOURCE_SLOTS})
  ORDER BY created_at DESC, id DESC
  LIMIT @limit OFFSET @offset`;

/**
 * The conversations whose handoff is in one of `statuses` (a JSON array): found through
 * conversation_handoffs_by_status, then each by its key; CROSS JOIN keeps that order, so the
 * planner never walks all of the chatbot's conversations instead. Only the handoffs found are
 * sorted. Exported for the plan test.
 */
export const LIST_HANDOFF_CONVERSATIONS_SQL = `SELECT c.* FROM conversation_handoffs h CROSS JOIN conversations c
  WHERE h.chatbot_id = @chatbotId AND h.status IN (SELECT value FROM json_each(@statuses))
    AND c.chatbot_id = h.chatbot_id AND c.id = h.conversation_id
    AND c.created_at >= @from AND c.created_at <= @to AND c.source IN (${SOURCE_SLOTS})
  ORDER BY c.created_at DESC, c.id DESC
  LIMIT @limit OFFSET @offset`;

/**
 * The `source IN` parameters, one slot per source: every source when no filter is given, else the
 * chosen ones, the first repeated to fill the slots (a repeated value changes nothing), so one
 * statement serves all.
 */
function sourceSlots(sources: ConversationSource[] | undefined): Record<`s${number}`, string> {
  const [first, ...rest] = sources?.length ? sources : CONVERSATION_SOURCES;
  const chosen = [first, ...rest] as [ConversationSource, ...ConversationSource[]];
  return Object.fromEntries(CONVERSATION_SOURCES.map((_, slot) => [`s${slot}`, chosen[slot] ?? first]));
}

const MESSAGE_COLUMNS = 'seq, role, content, created_at, feedback, revision_answer, revision_at, sources, author_name, kind';

export function sqliteConversations(db: Database, count: ActivityCount, append: ConversationAppendTransaction): ConversationRepository {
  const erasure = sqliteErasure(db);
  // AUTOINCREMENT keeps the highest seq handed out in sqlite_sequence (a row it creates on the
  // first insert); moving it forward reserves numbers that no later insert takes.
  const startSequence = db.prepare(
    `INSERT INTO sqlite_sequence (name, seq) SELECT 'conversation_messages', 0
     WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'conversation_messages')`,
  );
  const advanceSequence = db.prepare<[number], { seq: number }>(
    `UPDATE sqlite_sequence SET seq = seq + ? WHERE name = 'conversation_messages' RETURNING seq`,
  );
  const answer = db.prepare<[number, string], AnswerRow>(
    `SELECT m.seq, m.role, m.content, m.created_at, m.feedback, m.revision_answer, m.revision_at, m.sources, m.author_name,
       m.kind, m.rated_down, m.conversation_id, c.source
     FROM conversation_messages m JOIN conversations c ON c.chatbot_id = m.chatbot_id AND c.id = m.conversation_id
     WHERE m.seq = ? AND m.chatbot_id = ? AND m.role = 'assistant'`,
  );
  // The user's messages after the answer before this one.
  const askedBefore = db.prepare<{ chatbotId: string; conversationId: string; seq: number }, { content: string }>(
    `SELECT content FROM conversation_messages
     WHERE chatbot_id = @chatbotId AND conversation_id = @conversationId AND role = 'user' AND seq < @seq
       AND seq > COALESCE((SELECT MAX(seq) FROM conversation_messages WHERE chatbot_id = @chatbotId
         AND conversation_id = @conversationId AND role = 'assistant' AND seq < @seq), 0)
     ORDER BY seq`,
  );
  const rate = db.prepare<[Feedback, number, number, string]>(
    `UPDATE conversation_messages SET feedback = ?, rated_down = max(rated_down, ?) WHERE seq = ? AND chatbot_id = ? AND role = 'assistant'`,
  );
  const citations = db.prepare<[number, string], { sources: string | null }>(
    `SELECT sources FROM conversation_messages WHERE seq = ? AND chatbot_id = ? AND role = 'assistant'`,
  );
  const revise = db.prepare<[string, number, number, string]>(
    `UPDATE conversation_messages SET revision_answer = ?, revision_at = ?
     WHERE seq = ? AND chatbot_id = ? AND role = 'assistant'`,
  );
  const one = db.prepare<[string, string], ConversationRow>(
    'SELECT * FROM conversations WHERE chatbot_id = ? AND id = ?',
  );
  // What is known of a conversation without reading its messages.
  const headerOf = db.prepare<[string, string], Pick<ConversationRow, 'source' | 'lang' | 'incarnation'>>(
    'SELECT source, lang, incarnation FROM conversations WHERE chatbot_id = ? AND id = ?',
  );
  const messages = db.prepare<[string, string], MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages
     WHERE chatbot_id = ? AND conversation_id = ? ORDER BY seq`,
  );
  const recent = db.prepare<[string, string, number], MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages
     WHERE chatbot_id = ? AND conversation_id = ? ORDER BY seq DESC LIMIT ?`,
  );
  const page = db.prepare<[ListParams], ConversationRow>(LIST_CONVERSATIONS_SQL);
  const handoffPage = db.prepare<[HandoffListParams], ConversationRow>(LIST_HANDOFF_CONVERSATIONS_SQL);
  const handoff = db.prepare<[string, string], HandoffRow>(HANDOFF_OF_CONVERSATION);
  // The row's sequence number is the message's id: unique, and the same on every read.
  const toMessage = (message: MessageRow): StoredMessage => ({
    id: String(message.seq),
    role: message.role,
    content: message.content,
    createdAt: new Date(message.created_at),
    ...(message.feedback && { feedback: message.feedback }),
    ...(message.sources !== null && { sources: JSON.parse(message.sources) as MessageSource[] }),
    ...(message.author_name !== null && { author: { type: 'human' as const, name: message.author_name } }),
    ...(message.kind !== null && { kind: message.kind }),
    ...(message.revision_answer !== null && {
      revision: { answer: message.revision_answer, createdAt: new Date(message.revision_at ?? 0) },
    }),
  });

  const withMessages = (row: ConversationRow): Conversation => {
    const handedOff = handoff.get(row.chatbot_id, row.id);
    return {
      id: row.id,
      chatbotId: row.chatbot_id,
      accountId: row.account_id,
      source: row.source,
      contactId: row.contact_id,
      ...(row.lang !== null && { lang: row.lang }),
      messages: messages.all(row.chatbot_id, row.id).map(toMessage),
      ...(handedOff && { handoff: toHandoff(handedOff) }),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    };
  };

  const reserve = db.transaction((count: number) => {
    startSequence.run();
    const last = advanceSequence.get(count)?.seq ?? 0;
    return Array.from({ length: count }, (_, index) => String(last - count + 1 + index));
  });
  // One read transaction, so a page and its messages come from the same snapshot.
  const find = db.transaction((chatbotId: string, id: string) => {
    const row = one.get(chatbotId, id);
    return row ? withMessages(row) : undefined;
  });
  const list = db.transaction((params: ListParams, statuses: readonly string[] | undefined) =>
    (statuses?.length ? handoffPage.all({ ...params, statuses: JSON.stringify(statuses) }) : page.all(params)).map(withMessages),
  );
  // The change of rating is counted at the answer's hour: a day's feedback is on that day's answers.
  const setFeedback = db.transaction((chatbotId: string, seq: number, feedback: Feedback) => {
    const before = answer.get(seq, chatbotId);
    if (!before) return false;
    const down = feedback === 'down';
    rate.run(feedback, Number(down), seq, chatbotId);
    const change = (rating: Feedback) => Number(feedback === rating) - Number(before.feedback === rating);
    count(chatbotId, before.created_at, { feedbackUp: change('up'), feedbackDown: change('down') });
    // `feedback` tells of a 👎 given before rated_down was kept.
    return { firstDown: down && before.rated_down === 0 && before.feedback !== 'down' };
  });
  const answeredQuestion = db.transaction((chatbotId: string, seq: number): AnsweredQuestion | undefined => {
    const row = answer.get(seq, chatbotId);
    if (!row) return undefined;
    const asked = askedBefore.all({ chatbotId, conversationId: row.conversation_id, seq });
    return {
      conversationId: row.conversation_id,
      source: row.source,
      answer: toMessage(row),
      question: asked.map((message) => message.content).join('\n'),
    };
  });

  return {
    async append(input) {
      append.immediate(input);
    },
    async find(chatbotId, id) {
      return find(chatbotId, id);
    },
    async header(chatbotId, id) {
      const row = headerOf.get(chatbotId, id);
      return row && { source: row.source, ...(row.lang !== null && { lang: row.lang }) };
    },
    async incarnation(chatbotId, id) {
      return headerOf.get(chatbotId, id)?.incarnation;
    },
    async recentMessages(chatbotId, id, limit) {
      return recent.all(chatbotId, id, limit).reverse().map(toMessage);
    },
    async list(chatbotId, filter, window) {
      const params = { chatbotId, ...timeBounds(filter), ...sourceSlots(filter.sources), limit: window.size, offset: pageOffset(window) };
      return list(params, filter.handoffStatuses);
    },
    async reserveMessageIds(count) {
      return reserve.immediate(count);
    },
    async setFeedback(chatbotId, messageId, feedback) {
      const seq = sequenceNumber(messageId);
      return seq !== undefined && setFeedback.immediate(chatbotId, seq, feedback);
    },
    async answeredQuestion(chatbotId, messageId) {
      const seq = sequenceNumber(messageId);
      return seq === undefined ? undefined : answeredQuestion(chatbotId, seq);
    },
    async setRevision(chatbotId, messageId, revision) {
      const seq = sequenceNumber(messageId);
      return seq !== undefined && revise.run(revision.answer, revision.createdAt.getTime(), seq, chatbotId).changes === 1;
    },
    async messageSources(chatbotId, messageId) {
      const seq = sequenceNumber(messageId);
      const row = seq === undefined ? undefined : citations.get(seq, chatbotId);
      if (!row) return undefined;
      return row.sources === null ? [] : (JSON.parse(row.sources) as MessageSource[]);
    },
    async delete(chatbotId, id) {
      return erasure.conversation(chatbotId, id);
    },
  };
}
