import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import type { Contact, ContactChange, ContactRepository } from '../port.js';
import { translateUnique } from './unique.js';

type ContactRow = {
  id: string;
  chatbot_id: string;
  external_id: string;
  name: string | null;
  email: string | null;
  phonenumber: string | null;
  payment_accounts: string;
  custom_attributes: string;
  created_at: number;
  updated_at: number;
};

const toContact = (row: ContactRow): Contact => ({
  id: row.id,
  chatbotId: row.chatbot_id,
  externalId: row.external_id,
  name: row.name,
  email: row.email,
  phonenumber: row.phonenumber,
  paymentAccounts: JSON.parse(row.payment_accounts) as Contact['paymentAccounts'],
  customAttributes: JSON.parse(row.custom_attributes) as Contact['customAttributes'],
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toRow = (contact: Contact): ContactRow => ({
  id: contact.id,
  chatbot_id: contact.chatbotId,
  external_id: contact.externalId,
  name: contact.name,
  email: contact.email,
  phonenumber: contact.phonenumber,
  payment_accounts: JSON.stringify(contact.paymentAccounts),
  custom_attributes: JSON.stringify(contact.customAttributes),
  created_at: contact.createdAt.getTime(),
  updated_at: contact.updatedAt.getTime(),
});

/** The contact with the change applied: absent fields kept, custom attributes merged by key. */
function merge(current: Contact, change: ContactChange): Contact {
  const { customAttributes, ...fields } = change;
  const defined: Partial<Contact> = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  return {
    ...current,
    ...defined,
    customAttributes: { ...current.customAttributes, ...customAttributes },
  };
}

export function sqliteContacts(db: Database): ContactRepository {
  const insert = db.prepare<[ContactRow]>(
    `INSERT INTO contacts (id, chatbot_id, external_id, name, email, phonenumber, payment_accounts,
       custom_attributes, created_at, updated_at)
     VALUES (@id, @chatbot_id, @external_id, @name, @email, @phonenumber, @payment_accounts,
       @custom_attributes, @created_at, @updated_at)`,
  );
  const byExternalId = db.prepare<[string, string], ContactRow>(
    'SELECT * FROM contacts WHERE chatbot_id = ? AND external_id = ?',
  );
  const onePage = db.prepare<[string, number, number], ContactRow>(
    'SELECT * FROM contacts WHERE chatbot_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
  );
  const countAll = db.prepare<[string], { total: number }>('SELECT COUNT(*) AS total FROM contacts WHERE chatbot_id = ?');
  const write = db.prepare<[ContactRow]>(
    `UPDATE contacts SET external_id = @external_id, name = @name, email = @email,
       phonenumber = @phonenumber, payment_accounts = @payment_accounts,
       custom_attributes = @custom_attributes, updated_at = @updated_at
     WHERE id = @id`,
  );
  const remove = db.prepare<[string, string], ContactRow>(
    'DELETE FROM contacts WHERE chatbot_id = ? AND external_id = ? RETURNING *',
  );

  // A failing insert or update throws out of the transaction, which rolls it back: all or nothing.
  const insertMany = db.transaction((contacts: Contact[]) => {
    for (const contact of contacts) insert.run(toRow(contact));
  });
  // IMMEDIATE: the write lock is held from the read, so no other writer slips in before the merge.
  const update = db.transaction((chatbotId: string, externalId: string, change: ContactChange) => {
    const row = byExternalId.get(chatbotId, externalId);
    if (!row) return undefined;
    const next = merge(toContact(row), change);
    write.run(toRow(next));
    return next;
  });

  return {
    async insertMany(contacts) {
      translateUnique(() => insertMany.immediate(contacts));
    },
    async find(chatbotId, externalId) {
      const row = byExternalId.get(chatbotId, externalId);
      return row ? toContact(row) : undefined;
    },
    async list(chatbotId, page) {
      return onePage.all(chatbotId, page.size, pageOffset(page)).map(toContact);
    },
    async count(chatbotId) {
      return countAll.get(chatbotId)?.total ?? 0;
    },
    async update(chatbotId, externalId, change) {
      return translateUnique(() => update.immediate(chatbotId, externalId, change));
    },
    async delete(chatbotId, externalId) {
      const row = remove.get(chatbotId, externalId);
      return row ? toContact(row) : undefined;
    },
  };
}
