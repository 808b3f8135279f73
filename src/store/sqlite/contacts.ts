import type { Database } from 'better-sqlite3';
import { givenFields } from '../given-fields.js';
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
type StoredContactRow = ContactRow & { position: number };

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

/** The contact with the change applied: absent fields kept, custom attributes merged by key (null removes one). */
function merge(current: Contact, change: ContactChange): Contact {
  const { customAttributes, ...fields } = change;
  const defined: Partial<Contact> = givenFields(fields);
  return {
    ...current,
    ...defined,
    customAttributes: Object.fromEntries(
      Object.entries({ ...current.customAttributes, ...customAttributes }).filter(([, value]) => value !== null),
    ),
  };
}

/** Positions per counted bucket: a page is found by summing at most (contacts / 1024) counts. */
const BUCKET_BITS = 10;

// `position` orders a chatbot's contacts as (created_at, id) does; deletions leave gaps, and
// contact_buckets counts the live contacts per block of 1024 positions. A page at any depth is
// then found by summing those counts and seeking into one block, and the total is their sum,
// where OFFSET and COUNT(*) would walk every contact while all requests wait.
export function sqliteContacts(db: Database): ContactRepository {
  const rankBefore = db
    .prepare<[ContactRow], number>(
      `SELECT position FROM contacts WHERE chatbot_id = @chatbot_id AND (created_at, id) < (@created_at, @id)
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .pluck();
  const rankAfter = db
    .prepare<[ContactRow], number>(
      `SELECT position FROM contacts WHERE chatbot_id = @chatbot_id AND (created_at, id) > (@created_at, @id)
       ORDER BY created_at, id LIMIT 1`,
    )
    .pluck();
  const makeRoom = db.prepare<[ContactRow]>(
    `UPDATE contacts SET position = position + 1
     WHERE chatbot_id = @chatbot_id AND (created_at, id) > (@created_at, @id)`,
  );
  const insert = db.prepare<[StoredContactRow]>(
    `INSERT INTO contacts (id, chatbot_id, external_id, name, email, phonenumber, payment_accounts,
       custom_attributes, created_at, updated_at, position)
     VALUES (@id, @chatbot_id, @external_id, @name, @email, @phonenumber, @payment_accounts,
       @custom_attributes, @created_at, @updated_at, @position)`,
  );
  const countIn = db.prepare<[string, number, number]>(
    `INSERT INTO contact_buckets (chatbot_id, bucket, live) VALUES (?, ?, ?)
     ON CONFLICT (chatbot_id, bucket) DO UPDATE SET live = live + excluded.live`,
  );
  const dropBucketsFrom = db.prepare<[string, number]>('DELETE FROM contact_buckets WHERE chatbot_id = ? AND bucket >= ?');
  const recountFrom = db.prepare<[{ chatbotId: string; bucket: number }]>(
    `INSERT INTO contact_buckets (chatbot_id, bucket, live)
     SELECT chatbot_id, position >> ${BUCKET_BITS}, COUNT(*) FROM contacts
     WHERE chatbot_id = @chatbotId AND position >= @bucket << ${BUCKET_BITS}
     GROUP BY position >> ${BUCKET_BITS}`,
  );
  const buckets = db.prepare<[string], { bucket: number; live: number }>(
    'SELECT bucket, live FROM contact_buckets WHERE chatbot_id = ? ORDER BY bucket',
  );
  const byExternalId = db.prepare<[string, string], ContactRow>(
    'SELECT * FROM contacts WHERE chatbot_id = ? AND external_id = ?',
  );
  const pageFrom = db.prepare<[string, number, number, number], ContactRow>(
    'SELECT * FROM contacts WHERE chatbot_id = ? AND position >= ? ORDER BY position LIMIT ? OFFSET ?',
  );
  const write = db.prepare<[ContactRow]>(
    `UPDATE contacts SET external_id = @external_id, name = @name, email = @email,
       phonenumber = @phonenumber, payment_accounts = @payment_accounts,
       custom_attributes = @custom_attributes, updated_at = @updated_at
     WHERE id = @id`,
  );
  const remove = db.prepare<[string, string], StoredContactRow>(
    'DELETE FROM contacts WHERE chatbot_id = ? AND external_id = ? RETURNING *',
  );

  /** New contacts are the newest, so nothing moves; one dated earlier moves those after it. */
  const insertRanked = (row: ContactRow) => {
    const position = (rankBefore.get(row) ?? 0) + 1;
    const taken = rankAfter.get(row) === position;
    if (taken) makeRoom.run(row);
    insert.run({ ...row, position });
    const bucket = position >> BUCKET_BITS;
    if (taken) {
      // Moved contacts may have crossed into the next block: count again from this one on.
      dropBucketsFrom.run(row.chatbot_id, bucket);
      recountFrom.run({ chatbotId: row.chatbot_id, bucket });
    } else {
      countIn.run(row.chatbot_id, bucket, 1);
    }
  };
  /** Sorted rows of one chatbot that follow every stored contact (the usual case) take the next positions. */
  const append = (chatbotId: string, rows: ContactRow[], last: number) => {
    const added = new Map<number, number>();
    rows.forEach((row, index) => {
      const position = last + index + 1;
      insert.run({ ...row, position });
      added.set(position >> BUCKET_BITS, (added.get(position >> BUCKET_BITS) ?? 0) + 1);
    });
    for (const [bucket, live] of added) countIn.run(chatbotId, bucket, live);
  };
  // Per chatbot and in order, so a batch (which shares its created_at) never moves its own rows.
  // A failing insert throws out of the transaction, which rolls it back: all or nothing.
  const insertMany = db.transaction((contacts: Contact[]) => {
    const rows = contacts.map(toRow).sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
    const byChatbot = new Map<string, ContactRow[]>();
    for (const row of rows) {
      const group = byChatbot.get(row.chatbot_id);
      if (group) group.push(row);
      else byChatbot.set(row.chatbot_id, [row]);
    }
    for (const [chatbotId, ofChatbot] of byChatbot) {
      const [first] = ofChatbot;
      if (first && rankAfter.get(first) === undefined) append(chatbotId, ofChatbot, rankBefore.get(first) ?? 0);
      else for (const row of ofChatbot) insertRanked(row);
    }
  });
  const removeOne = db.transaction((chatbotId: string, externalId: string) => {
    const row = remove.get(chatbotId, externalId);
    if (row) countIn.run(chatbotId, row.position >> BUCKET_BITS, -1);
    return row;
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
      let skip = pageOffset(page);
      for (const { bucket, live } of buckets.all(chatbotId)) {
        if (skip < live) return pageFrom.all(chatbotId, bucket << BUCKET_BITS, page.size, skip).map(toContact);
        skip -= live;
      }
      return [];
    },
    async count(chatbotId) {
      return buckets.all(chatbotId).reduce((total, { live }) => total + live, 0);
    },
    async update(chatbotId, externalId, change) {
      return translateUnique(() => update.immediate(chatbotId, externalId, change));
    },
    async delete(chatbotId, externalId) {
      const row = removeOne.immediate(chatbotId, externalId);
      return row ? toContact(row) : undefined;
    },
  };
}
