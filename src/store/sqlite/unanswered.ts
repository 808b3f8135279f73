import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import {
  UNANSWERED_EXAMPLES,
  type UnansweredAsk,
  type UnansweredExample,
  type UnansweredFilter,
  type UnansweredGroup,
  type UnansweredRepository,
  type UnansweredStatus,
} from '../port.js';
import { unansweredKey } from '../same-question.js';
import { newestAskedFirst } from '../unanswered-examples.js';
import type { GroupCommit } from './group-commit.js';
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
  /** JSON: the latest examples, oldest first. */
  examples: string;
  /** JSON: the example that opened the group. */
  opening: string;
};

/** An example as a group's row holds it (JSON), its time in epoch milliseconds. */
type StoredExample = Omit<UnansweredExample, 'askedAt'> & { askedAt: number };

type FilterParams = { chatbotId: string; from: number; to: number; status: UnansweredStatus | null };

const storedExample = (example: UnansweredExample): string =>
  JSON.stringify({ ...example, askedAt: example.askedAt.getTime() } satisfies StoredExample);

const toExample = (stored: StoredExample): UnansweredExample => ({ ...stored, askedAt: new Date(stored.askedAt) });

const filterParams = (chatbotId: string, filter: UnansweredFilter): FilterParams => ({
  chatbotId,
  ...timeBounds(filter),
  status: filter.status ?? null,
});

const MATCHING = `chatbot_id = @chatbotId AND last_asked_at BETWEEN @from AND @to
  AND (@status IS NULL OR status = @status)`;

/**
 * Counts one ask into the group: the example joins the latest ones, the oldest leaving past the
 * limit. Asks are recorded as their replies end, not always in the order they were asked: the
 * group's first and last ask are the earliest and latest of its examples' times.
 */
const COUNT_ASK = `count = count + 1, first_asked_at = MIN(first_asked_at, @at), last_asked_at = MAX(last_asked_at, @at), status = 'open',
  examples = json_insert(
    CASE WHEN json_array_length(examples) >= ${UNANSWERED_EXAMPLES} THEN json_remove(examples, '$[0]') ELSE examples END,
    '$[#]', json(@example))`;

/**
 * The ask's conversation, if it names one, still stands: checked in the statement that counts
 * the ask, so an erasure (erasure.ts) that came between the reply and its record wins.
 */
const CONVERSATION_STANDS = `(@conversationId IS NULL
  OR EXISTS (SELECT 1 FROM conversations WHERE chatbot_id = @chatbotId AND id = @conversationId))`;

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
  examples: newestAskedFirst((JSON.parse(row.examples) as StoredExample[]).map(toExample)),
});

export function sqliteUnanswered(db: Database, batched: GroupCommit): UnansweredRepository {
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
       (id, chatbot_id, account_id, question, terms, terms_key, count, first_asked_at, last_asked_at, status, examples, opening)
     VALUES (@id, @chatbotId, @accountId, @question, @terms, @termsKey, 1, @at, @at, 'open', json_array(json(@example)), @example)`,
  );
  const countAsk = db.prepare<{ id: string; at: number; example: string }>(`UPDATE unanswered_groups SET ${COUNT_ASK} WHERE id = @id`);
  const countRepeat = db.prepare<{ chatbotId: string; termsKey: string; conversationId: string | null; at: number; example: string }>(
    `UPDATE unanswered_groups SET ${COUNT_ASK} WHERE chatbot_id = @chatbotId AND terms_key = @termsKey AND ${CONVERSATION_STANDS}`,
  );
  const conversationStands = db
    .prepare<{ chatbotId: string; conversationId: string | null }, number>(`SELECT ${CONVERSATION_STANDS}`)
    .pluck();
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

  // IMMEDIATE: the write lock is held from the first read, so a racing ask of the same terms
  // finds the group this one opens.
  const record = db.transaction((ask: UnansweredAsk) => {
    const { chatbotId } = ask;
    if (!conversationStands.get({ chatbotId, conversationId: ask.example.conversationId })) return undefined;
    const at = ask.example.askedAt.getTime();
    const example = storedExample(ask.example);
    const key = unansweredKey(ask.opening);
    const found = (ask.groupId === undefined ? undefined : byId.get(ask.groupId, chatbotId)) ?? byTerms.get(chatbotId, key);
    const id = found?.id ?? ask.opening.id;
    if (found) {
      countAsk.run({ id, at, example });
    } else {
      const { question, terms } = ask.opening;
      open.run({ id, chatbotId, accountId: ask.accountId, question, terms: JSON.stringify(terms), termsKey: key, at, example });
    }
    return { group: toGroup(byId.get(id, chatbotId) as GroupRow), created: !found };
  });
  const find = (chatbotId: string, id: string) => {
    const row = byId.get(id, chatbotId);
    return row && toGroup(row);
  };

  return {
    async candidates(chatbotId, terms, limit) {
      return candidates
        .all(chatbotId, JSON.stringify(terms), limit)
        .map((row) => ({ id: row.id, terms: JSON.parse(row.terms) as string[] }));
    },
    repeat({ chatbotId, terms, question, example }) {
      const { conversationId } = example;
      const params = { chatbotId, termsKey: unansweredKey({ terms, question }), conversationId, at: example.askedAt.getTime(), example: storedExample(example) };
      return batched.write(() => countRepeat.run(params).changes === 1);
    },
    async record(ask) {
      return record.immediate(ask);
    },
    async list(chatbotId, filter, window) {
      const params = { ...filterParams(chatbotId, filter), limit: window.size, offset: pageOffset(window) };
      return page.all(params).map(toGroup);
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
      return pending.all(limit).map((row) => ({ group: toGroup(row), opening: toExample(JSON.parse(row.opening) as StoredExample) }));
    },
    async markAnnounced(id) {
      announced.run(id);
    },
  };
}
