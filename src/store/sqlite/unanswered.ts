import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import {
  UNANSWERED_EXAMPLES,
  type ConversationSource,
  type UnansweredAsk,
  type UnansweredExample,
  type UnansweredFilter,
  type UnansweredGroup,
  type UnansweredRepository,
  type UnansweredStatus,
} from '../port.js';
import { timeBounds } from './time-bounds.js';

type GroupRow = {
  id: string;
  chatbot_id: string;
  account_id: string;
  question: string;
  terms: string;
  count: number;
  first_asked_at: number;
  last_asked_at: number;
  status: UnansweredStatus;
};

type ExampleRow = {
  conversation_id: string | null;
  message_id: string | null;
  source: ConversationSource;
  asked_at: number;
};

type FilterParams = { chatbotId: string; from: number; to: number; status: UnansweredStatus | null };

const termsKey = (terms: string[]) => terms.join(' ');

const toExample = (row: ExampleRow): UnansweredExample => ({
  conversationId: row.conversation_id,
  messageId: row.message_id,
  source: row.source,
  askedAt: new Date(row.asked_at),
});

const filterParams = (chatbotId: string, filter: UnansweredFilter): FilterParams => ({
  chatbotId,
  ...timeBounds(filter),
  status: filter.status ?? null,
});

const MATCHING = `chatbot_id = @chatbotId AND last_asked_at BETWEEN @from AND @to
  AND (@status IS NULL OR status = @status)`;

export function sqliteUnanswered(db: Database): UnansweredRepository {
  const byId = db.prepare<[string, string], GroupRow>('SELECT * FROM unanswered_groups WHERE id = ? AND chatbot_id = ?');
  const byTerms = db.prepare<[string, string], GroupRow>(
    'SELECT * FROM unanswered_groups WHERE chatbot_id = ? AND terms_key = ?',
  );
  const candidates = db.prepare<[string, string, number], { id: string; terms: string }>(
    `SELECT id, terms FROM unanswered_groups
     WHERE chatbot_id = ? AND EXISTS (SELECT 1 FROM json_each(terms) WHERE value IN (SELECT value FROM json_each(?)))
     ORDER BY last_asked_at DESC LIMIT ?`,
  );
  const open = db.prepare(
    `INSERT INTO unanswered_groups
       (id, chatbot_id, account_id, question, terms, terms_key, count, first_asked_at, last_asked_at, status)
     VALUES (@id, @chatbotId, @accountId, @question, @terms, @termsKey, 1, @at, @at, 'open')`,
  );
  const countAsk = db.prepare<{ id: string; at: number }>(
    `UPDATE unanswered_groups SET count = count + 1, last_asked_at = MAX(last_asked_at, @at), status = 'open'
     WHERE id = @id`,
  );
  const addExample = db.prepare(
    `INSERT INTO unanswered_examples (group_id, conversation_id, message_id, source, asked_at)
     VALUES (@groupId, @conversationId, @messageId, @source, @askedAt)`,
  );
  const latestExamples = db.prepare<[string, number], ExampleRow>(
    'SELECT * FROM unanswered_examples WHERE group_id = ? ORDER BY seq DESC LIMIT ?',
  );
  const firstExample = db.prepare<[string], ExampleRow>(
    'SELECT * FROM unanswered_examples WHERE group_id = ? ORDER BY seq LIMIT 1',
  );
  const page = db.prepare<FilterParams & { limit: number; offset: number }, GroupRow>(
    `SELECT * FROM unanswered_groups WHERE ${MATCHING}
     ORDER BY count DESC, last_asked_at DESC, id LIMIT @limit OFFSET @offset`,
  );
  const total = db.prepare<FilterParams, number>(`SELECT COUNT(*) FROM unanswered_groups WHERE ${MATCHING}`).pluck();
  const setStatus = db.prepare<[UnansweredStatus, string, string]>(
    'UPDATE unanswered_groups SET status = ? WHERE id = ? AND chatbot_id = ?',
  );
  const pending = db.prepare<[number], GroupRow>(
    'SELECT * FROM unanswered_groups WHERE webhook_pending = 1 ORDER BY first_asked_at, id LIMIT ?',
  );
  const announced = db.prepare<[string]>('UPDATE unanswered_groups SET webhook_pending = 0 WHERE id = ?');

  const toGroup = (row: GroupRow): UnansweredGroup => ({
    id: row.id,
    chatbotId: row.chatbot_id,
    accountId: row.account_id,
    question: row.question,
    terms: JSON.parse(row.terms) as string[],
    count: row.count,
    firstAskedAt: new Date(row.first_asked_at),
    lastAskedAt: new Date(row.last_asked_at),
    status: row.status,
    examples: latestExamples.all(row.id, UNANSWERED_EXAMPLES).map(toExample),
  });

  // IMMEDIATE: the write lock is held from the first read, so a racing ask of the same terms
  // finds the group this one opens.
  const record = db.transaction((ask: UnansweredAsk) => {
    const { chatbotId, example } = ask;
    const at = example.askedAt.getTime();
    const found =
      (ask.groupId === undefined ? undefined : byId.get(ask.groupId, chatbotId)) ??
      byTerms.get(chatbotId, termsKey(ask.opening.terms));
    const id = found?.id ?? ask.opening.id;
    if (found) {
      countAsk.run({ id, at });
    } else {
      const { question, terms } = ask.opening;
      open.run({ id, chatbotId, accountId: ask.accountId, question, terms: JSON.stringify(terms), termsKey: termsKey(terms), at });
    }
    addExample.run({ groupId: id, ...example, askedAt: at });
    return { group: toGroup(byId.get(id, chatbotId) as GroupRow), created: !found };
  });
  const read = db.transaction((rows: () => GroupRow[]) => rows().map(toGroup));
  const find = (chatbotId: string, id: string) => read(() => [byId.get(id, chatbotId)].filter((row) => row !== undefined))[0];

  return {
    async candidates(chatbotId, terms, limit) {
      return candidates
        .all(chatbotId, JSON.stringify(terms), limit)
        .map((row) => ({ id: row.id, terms: JSON.parse(row.terms) as string[] }));
    },
    async record(ask) {
      return record.immediate(ask);
    },
    async list(chatbotId, filter, window) {
      const params = { ...filterParams(chatbotId, filter), limit: window.size, offset: pageOffset(window) };
      return read(() => page.all(params));
    },
    async count(chatbotId, filter) {
      return total.get(filterParams(chatbotId, filter)) ?? 0;
    },
    async find(chatbotId, id) {
      return find(chatbotId, id);
    },
    async setStatus(chatbotId, id, status) {
      return setStatus.run(status, id, chatbotId).changes === 0 ? undefined : find(chatbotId, id);
    },
    async unannounced(limit) {
      return read(() => pending.all(limit)).map((group) => ({
        group,
        opening: toExample(firstExample.get(group.id) as ExampleRow),
      }));
    },
    async markAnnounced(id) {
      announced.run(id);
    },
  };
}
