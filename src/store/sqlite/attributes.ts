import type { Database } from 'better-sqlite3';
import type { AttributeRepository, AttributeType, CustomAttribute } from '../port.js';
import { translateUnique } from './unique.js';

type AttributeRow = {
  chatbot_id: string;
  name: string;
  label: string;
  type: AttributeType;
  description: string;
  archived: 0 | 1;
  created_at: number;
};

const toAttribute = (row: AttributeRow): CustomAttribute => ({
  chatbotId: row.chatbot_id,
  name: row.name,
  label: row.label,
  type: row.type,
  description: row.description,
  archived: row.archived === 1,
  createdAt: new Date(row.created_at),
});

// SQLite binds no booleans; null leaves the column as it is (see the update statement).
const flag = (value: boolean | undefined) => (value === undefined ? null : Number(value));

export function sqliteAttributes(db: Database): AttributeRepository {
  const insert = db.prepare(
    `INSERT INTO custom_attributes (chatbot_id, name, label, type, description, archived, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const ofChatbot = db.prepare<[string], AttributeRow>(
    'SELECT * FROM custom_attributes WHERE chatbot_id = ? ORDER BY created_at, name',
  );
  // One statement: changes only the columns given, atomically, and answers the result.
  const update = db.prepare<[string | null, string | null, number | null, string, string], AttributeRow>(
    `UPDATE custom_attributes
     SET label = COALESCE(?, label), description = COALESCE(?, description), archived = COALESCE(?, archived)
     WHERE chatbot_id = ? AND name = ?
     RETURNING *`,
  );

  return {
    async create(attribute) {
      const { chatbotId, name, label, type, description, archived, createdAt } = attribute;
      translateUnique(() =>
        insert.run(chatbotId, name, label, type, description, Number(archived), createdAt.getTime()),
      );
    },
    async list(chatbotId) {
      return ofChatbot.all(chatbotId).map(toAttribute);
    },
    async update(chatbotId, name, change) {
      const row = update.get(change.label ?? null, change.description ?? null, flag(change.archived), chatbotId, name);
      return row ? toAttribute(row) : undefined;
    },
  };
}
