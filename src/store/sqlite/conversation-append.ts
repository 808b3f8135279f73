import type { Database } from 'better-sqlite3';
import { appendTally } from '../activity-counters.js';
import type { ConversationAppend } from '../port.js';
import type { ActivityCount } from './activity.js';

/** A message id as this store writes it (a row's sequence number), as a number; undefined for any other string. */
export const sequenceNumber = (id: string) => (/^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined);

/**
 * The append of messages to a conversation (created by the first), shared by the conversations and
 * the handoff changes that say something, which append in their own transaction.
 */
export function sqliteConversationAppend(db: Database, count: ActivityCount) {
  // A new conversation takes source and contact from the append that creates it, and a name of its
  // own (Incarnation); later appends only move updated_at forward, and replace the language when
  // they say one.
  const upsertConversation = db.prepare(
    `INSERT INTO conversations (chatbot_id, id, account_id, source, contact_id, lang, created_at, updated_at, incarnation)
     VALUES (@chatbotId, @id, @accountId, @source, @contactId, @lang, @at, @at, lower(hex(randomblob(12))))
     ON CONFLICT (chatbot_id, id) DO UPDATE SET updated_at = MAX(updated_at, excluded.updated_at), lang = COALESCE(excluded.lang, lang)`,
  );
  // A null seq takes the next number; a reserved one is written as given.
  const insertMessage = db.prepare(
    `INSERT INTO conversation_messages (seq, chatbot_id, conversation_id, role, content, created_at, sources, author_name, kind)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const exists = db.prepare<[string, string]>('SELECT 1 FROM conversations WHERE chatbot_id = ? AND id = ?');

  // Run IMMEDIATE (the write lock taken first), so each batch's rows get consecutive seq numbers
  // even when other processes append to the same conversation.
  return db.transaction((input: ConversationAppend) => {
    const { chatbotId, accountId, id, source, contactId, lang = null, at } = input;
    const created = exists.get(chatbotId, id) === undefined;
    count(chatbotId, at, appendTally(input.messages, created ? source : undefined, input.tally));
    upsertConversation.run({ chatbotId, id, accountId, source, contactId, lang, at: at.getTime() });
    for (const message of input.messages) {
      const seq = message.id === undefined ? null : sequenceNumber(message.id);
      if (seq === undefined) throw new Error(`not a reserved message id: ${message.id}`);
      const sources = message.sources?.length ? JSON.stringify(message.sources) : null;
      const { role, content, createdAt, author, kind } = message;
      insertMessage.run(seq, chatbotId, id, role, content, createdAt.getTime(), sources, author?.name ?? null, kind ?? null);
    }
  });
}

/** The append transaction; called inside another transaction, it becomes part of that one. */
export type ConversationAppendTransaction = ReturnType<typeof sqliteConversationAppend>;
