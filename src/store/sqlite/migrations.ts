import type { Database } from 'better-sqlite3';

// Schema versions, applied in order and recorded in PRAGMA user_version. Append; never edit one
// that has shipped.
/** A database at user_version N has run the first N. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    messages_per_month INTEGER NOT NULL,
    max_chatbots INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX api_keys_by_account ON api_keys(account_id);
  CREATE TABLE chatbots (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX chatbots_by_account ON chatbots(account_id, created_at);
  CREATE TABLE training_sources (
    chatbot_id TEXT PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
    source_text TEXT NOT NULL
  );
  CREATE TABLE training_chunks (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (chatbot_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE assets (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL,
    etag TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, kind)
  );
  `,
  `
  CREATE TABLE contacts (
    id TEXT PRIMARY KEY,
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    external_id TEXT NOT NULL,
    name TEXT,
    email TEXT,
    phonenumber TEXT,
    payment_accounts TEXT NOT NULL,
    custom_attributes TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (chatbot_id, external_id),
    UNIQUE (chatbot_id, email)
  );
  CREATE INDEX contacts_by_chatbot ON contacts(chatbot_id, created_at, id);
  CREATE TABLE custom_attributes (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    label TEXT NOT NULL,
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    archived INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, name)
  );
  CREATE TABLE leads (
    id TEXT PRIMARY KEY,
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    name TEXT,
    email TEXT,
    phone TEXT,
    conversation_id TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (chatbot_id, conversation_id)
  );
  CREATE INDEX leads_by_chatbot_time ON leads(chatbot_id, created_at DESC, id DESC);
  CREATE TABLE conversations (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    source TEXT NOT NULL,
    contact_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, id)
  );
  CREATE INDEX conversations_by_chatbot_time ON conversations(chatbot_id, created_at DESC, id DESC);
  CREATE TABLE conversation_messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    chatbot_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (chatbot_id, conversation_id) REFERENCES conversations(chatbot_id, id) ON DELETE CASCADE
  );
  CREATE INDEX conversation_messages_in_order ON conversation_messages(chatbot_id, conversation_id, seq);
  CREATE TABLE rate_limits (
    key TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (key, window_start)
  ) WITHOUT ROWID;
  CREATE INDEX rate_limits_by_expiry ON rate_limits(expires_at);
  `,
  `
  ALTER TABLE training_sources ADD COLUMN version TEXT NOT NULL DEFAULT '';
  CREATE TABLE usage (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    period TEXT NOT NULL,
    messages INTEGER NOT NULL,
    PRIMARY KEY (account_id, period)
  ) WITHOUT ROWID;
  `,
  `
  CREATE TABLE bindings (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    mode TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, platform, workspace_id, channel_id)
  );
  CREATE INDEX bindings_by_account ON bindings(account_id, created_at, id);
  CREATE INDEX bindings_by_chatbot ON bindings(chatbot_id);
  CREATE TABLE digests (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    time TEXT NOT NULL,
    timezone TEXT NOT NULL,
    post_when_empty INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, chatbot_id, platform, workspace_id, channel_id)
  );
  CREATE INDEX digests_by_account ON digests(account_id, created_at, id);
  CREATE INDEX digests_by_chatbot ON digests(chatbot_id);
  CREATE INDEX digests_by_time ON digests(created_at, id);
  `,
  `
  CREATE TABLE digest_runs (
    digest_id TEXT NOT NULL REFERENCES digests(id) ON DELETE CASCADE,
    local_date TEXT NOT NULL,
    scheduled_at INTEGER NOT NULL,
    claimed_by TEXT NOT NULL,
    claimed_at INTEGER NOT NULL,
    lease_until INTEGER NOT NULL,
    status TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    finished_at INTEGER,
    PRIMARY KEY (digest_id, local_date)
  ) WITHOUT ROWID;
  `,
  `
  -- Every lead created from now on carries webhook_pending = 1 from its own INSERT (the column's
  -- default), so its leads.submit event cannot be lost between two writes; the webhook job
  -- enqueues it and clears the mark. Leads already stored are not announced.
  ALTER TABLE leads ADD COLUMN webhook_pending INTEGER NOT NULL DEFAULT 1;
  UPDATE leads SET webhook_pending = 0;
  CREATE INDEX leads_webhook_pending ON leads(created_at, id) WHERE webhook_pending = 1;
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    chatbot_id TEXT REFERENCES chatbots(id) ON DELETE CASCADE,
    secret TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    disabled_reason TEXT,
    failing_since INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX webhooks_by_account ON webhooks(account_id, created_at, id);
  CREATE INDEX webhooks_by_chatbot ON webhooks(chatbot_id);
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    event_key TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    claimed_by TEXT,
    lease_until INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (webhook_id, event_key)
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at, id) WHERE status = 'pending';
  CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    webhook_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    status TEXT NOT NULL,
    response_status INTEGER,
    error TEXT,
    at INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
  ) WITHOUT ROWID;
  CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts(webhook_id, at, delivery_id, attempt);
  `,
  `
  CREATE TABLE adapter_claims (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX adapter_claims_by_expiry ON adapter_claims(expires_at);
  `,
  `
  CREATE TABLE retrieval_indexes (
    chatbot_id TEXT PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    data BLOB NOT NULL
  );
  CREATE TABLE retrieval_vectors (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    model TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (chatbot_id, hash, model)
  ) WITHOUT ROWID;
  `,
  `
  -- A lead's rank in its chatbot's (created_at, id) order: deep pages seek instead of skipping.
  ALTER TABLE leads ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
  UPDATE leads SET position = ranked.position
  FROM (
    SELECT id AS lead_id, ROW_NUMBER() OVER (PARTITION BY chatbot_id ORDER BY created_at, id) AS position
    FROM leads
  ) AS ranked
  WHERE leads.id = ranked.lead_id;
  CREATE INDEX leads_by_chatbot_position ON leads(chatbot_id, position);

  -- The same order for contacts, with gaps where contacts were deleted, and the live contacts
  -- counted per block of 1024 positions.
  ALTER TABLE contacts ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
  UPDATE contacts SET position = ranked.position
  FROM (
    SELECT id AS contact_id, ROW_NUMBER() OVER (PARTITION BY chatbot_id ORDER BY created_at, id) AS position
    FROM contacts
  ) AS ranked
  WHERE contacts.id = ranked.contact_id;
  CREATE INDEX contacts_by_chatbot_position ON contacts(chatbot_id, position);
  CREATE TABLE contact_buckets (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    bucket INTEGER NOT NULL,
    live INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, bucket)
  ) WITHOUT ROWID;
  INSERT INTO contact_buckets (chatbot_id, bucket, live)
  SELECT chatbot_id, position >> 10, COUNT(*) FROM contacts GROUP BY chatbot_id, position >> 10;
  `,
  // A stored index is kept in parts, read one at a time, so loading a large one never holds the
  // event loop for the whole read; retrieval_indexes keeps the version the parts are of.
  `
  DELETE FROM retrieval_indexes;
  CREATE TABLE retrieval_index_parts (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (chatbot_id, part)
  );
  `,
  // Material and indexes are written in stages under a fresh version, made current in one short
  // transaction (see staging.ts): rows carry their version, and training_stages names the
  // versions being written. Indexes are rebuilt from the material on demand.
  `
  CREATE TABLE training_chunks_by_version (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (chatbot_id, version, seq)
  );
  INSERT INTO training_chunks_by_version (chatbot_id, version, seq, text)
  SELECT chunk.chatbot_id, source.version, chunk.seq, chunk.text
  FROM training_chunks chunk JOIN training_sources source ON source.chatbot_id = chunk.chatbot_id;
  DROP TABLE training_chunks;
  ALTER TABLE training_chunks_by_version RENAME TO training_chunks;
  CREATE TABLE training_source_parts (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    part INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (chatbot_id, version, part)
  );
  INSERT INTO training_source_parts (chatbot_id, version, part, text)
  SELECT chatbot_id, version, 0, source_text FROM training_sources;
  ALTER TABLE training_sources DROP COLUMN source_text;
  CREATE TABLE training_stages (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, version)
  ) WITHOUT ROWID;
  DELETE FROM retrieval_indexes;
  DROP TABLE retrieval_index_parts;
  CREATE TABLE retrieval_index_parts (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    part INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (chatbot_id, version, part)
  );
  -- get-chatbots lists in (created_at, id) order: read from an index, not sorted per request.
  DROP INDEX chatbots_by_account;
  CREATE INDEX chatbots_by_account ON chatbots(account_id, created_at, id);
  `,
  // A reader's 👍/👎 on an answer.
  `
  ALTER TABLE conversation_messages ADD COLUMN feedback TEXT CHECK (feedback IN ('up', 'down'));
  `,
  // The three settings get-chatbots lists, copied from the settings JSON into columns of their
  // own (written with it): picking them out of the JSON was half the cost of the list query.
  `
  ALTER TABLE chatbots ADD COLUMN model TEXT;
  ALTER TABLE chatbots ADD COLUMN instructions TEXT;
  ALTER TABLE chatbots ADD COLUMN visibility TEXT;
  UPDATE chatbots SET model = settings ->> '$.model', instructions = settings ->> '$.instructions',
    visibility = settings ->> '$.visibility';
  `,
  // Knowledge sources. A chatbot's material is built from its ready sources, each chunk naming the
  // source it came from; the v1 sourceText becomes the chatbot's `API text` source.
  `
  CREATE TABLE sources (
    id TEXT PRIMARY KEY,
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    chars INTEGER NOT NULL,
    filename TEXT,
    content_type TEXT,
    bytes INTEGER,
    url TEXT,
    max_pages INTEGER,
    pages_done INTEGER,
    pages_failed INTEGER,
    pages_total INTEGER,
    question TEXT,
    answer TEXT,
    text TEXT NOT NULL,
    claimed_by TEXT,
    lease_until INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX sources_by_chatbot ON sources(chatbot_id, created_at, id);
  CREATE INDEX sources_by_status ON sources(status, lease_until);
  CREATE TABLE source_files (
    source_id TEXT PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
    data BLOB NOT NULL
  );
  CREATE TABLE source_pages (
    source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL,
    chars INTEGER NOT NULL,
    text TEXT NOT NULL,
    reason TEXT,
    PRIMARY KEY (source_id, seq),
    UNIQUE (source_id, url)
  );
  CREATE INDEX source_pages_by_status ON source_pages(source_id, status, seq);
  CREATE TABLE source_revisions (
    chatbot_id TEXT PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE training_chunks ADD COLUMN source TEXT;
  -- The source revision the current material was built from (see TrainingMaterial.revision).
  CREATE TABLE training_revisions (
    chatbot_id TEXT PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO sources (id, chatbot_id, type, title, status, chars, text, created_at, updated_at)
  SELECT 'api_' || chatbot.id, chatbot.id, 'text', 'API text', 'ready', length(source.text), source.text,
    chatbot.created_at, chatbot.updated_at
  FROM chatbots chatbot
  JOIN training_sources current ON current.chatbot_id = chatbot.id
  JOIN (SELECT chatbot_id, version, group_concat(text, '' ORDER BY part) AS text
        FROM training_source_parts GROUP BY chatbot_id, version) source
    ON source.chatbot_id = chatbot.id AND source.version = current.version
  WHERE length(source.text) > 0;
  UPDATE training_chunks SET source = json_object('id', 'api_' || chatbot_id, 'title', 'API text', 'type', 'text')
  WHERE EXISTS (SELECT 1 FROM sources WHERE sources.id = 'api_' || training_chunks.chatbot_id);
  `,
  // Review and improve: per-hour activity counters, owners' revisions of answers, and the
  // questions that went unanswered, grouped (unanswered_examples holds each time one was asked).
  `
  CREATE TABLE activity_hours (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    hour INTEGER NOT NULL,
    conversations INTEGER NOT NULL DEFAULT 0,
    user_messages INTEGER NOT NULL DEFAULT 0,
    assistant_messages INTEGER NOT NULL DEFAULT 0,
    credits INTEGER NOT NULL DEFAULT 0,
    declined INTEGER NOT NULL DEFAULT 0,
    leads INTEGER NOT NULL DEFAULT 0,
    feedback_up INTEGER NOT NULL DEFAULT 0,
    feedback_down INTEGER NOT NULL DEFAULT 0,
    source_api INTEGER NOT NULL DEFAULT 0,
    source_slack INTEGER NOT NULL DEFAULT 0,
    source_discord INTEGER NOT NULL DEFAULT 0,
    source_widget INTEGER NOT NULL DEFAULT 0,
    source_playground INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chatbot_id, hour)
  ) WITHOUT ROWID;
  ALTER TABLE conversation_messages ADD COLUMN revision_answer TEXT;
  ALTER TABLE conversation_messages ADD COLUMN revision_at INTEGER;
  CREATE TABLE unanswered_groups (
    id TEXT PRIMARY KEY,
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    question TEXT NOT NULL,
    terms TEXT NOT NULL,
    terms_key TEXT NOT NULL,
    count INTEGER NOT NULL,
    first_asked_at INTEGER NOT NULL,
    last_asked_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'resolved', 'dismissed')),
    webhook_pending INTEGER NOT NULL DEFAULT 1,
    UNIQUE (chatbot_id, terms_key)
  );
  CREATE INDEX unanswered_by_rank ON unanswered_groups(chatbot_id, count DESC, last_asked_at DESC, id);
  CREATE INDEX unanswered_webhook_pending ON unanswered_groups(first_asked_at, id) WHERE webhook_pending = 1;
  CREATE TABLE unanswered_examples (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id TEXT NOT NULL REFERENCES unanswered_groups(id) ON DELETE CASCADE,
    conversation_id TEXT,
    message_id TEXT,
    source TEXT NOT NULL,
    asked_at INTEGER NOT NULL
  );
  CREATE INDEX unanswered_examples_by_group ON unanswered_examples(group_id, seq);
  `,
  // API keys get a public id, a label and their first characters (unknown for the keys stored
  // before); console sessions and one-time sign-in links are kept by the hashes of their tokens.
  `
  ALTER TABLE api_keys ADD COLUMN id TEXT;
  ALTER TABLE api_keys ADD COLUMN label TEXT NOT NULL DEFAULT 'Default';
  ALTER TABLE api_keys ADD COLUMN prefix TEXT;
  UPDATE api_keys SET id = lower(hex(randomblob(12)));
  CREATE UNIQUE INDEX api_keys_by_id ON api_keys(id);
  CREATE TABLE console_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    api_key_hash TEXT,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX console_sessions_by_key ON console_sessions(api_key_hash);
  CREATE INDEX console_sessions_by_expiry ON console_sessions(expires_at);
  CREATE TABLE console_links (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX console_links_by_expiry ON console_links(expires_at);
  `,
  // The sources an answer drew on (JSON), shown with it.
  `
  ALTER TABLE conversation_messages ADD COLUMN sources TEXT;
  `,
  `
  -- A conversation handed to a person (HandoffRepository); the lease is the timeout job's.
  CREATE TABLE conversation_handoffs (
    chatbot_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    requested_at INTEGER NOT NULL,
    taken_by TEXT,
    due_at INTEGER,
    claimed_by TEXT,
    lease_until INTEGER,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, conversation_id),
    FOREIGN KEY (chatbot_id, conversation_id) REFERENCES conversations(chatbot_id, id) ON DELETE CASCADE
  ) WITHOUT ROWID;
  CREATE INDEX conversation_handoffs_due ON conversation_handoffs(due_at) WHERE due_at IS NOT NULL;
  `,
  // A team member's reply in a handoff names them (Author).
  `ALTER TABLE conversation_messages ADD COLUMN author_name TEXT;`,
  // An unanswered group keeps its latest examples and the one that opened it in its own row
  // (JSON), as the MongoDB adapter does: counting an ask is one update, and no table grows by a
  // row with every declined question.
  `
  ALTER TABLE unanswered_groups ADD COLUMN examples TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE unanswered_groups ADD COLUMN opening TEXT NOT NULL DEFAULT '{}';
  UPDATE unanswered_groups SET
    examples = (
      SELECT json_group_array(json(example) ORDER BY seq) FROM (
        SELECT seq, json_object('conversationId', conversation_id, 'messageId', message_id, 'source', source, 'askedAt', asked_at) AS example
        FROM unanswered_examples WHERE group_id = unanswered_groups.id ORDER BY seq DESC LIMIT 5
      )
    ),
    opening = coalesce((
      SELECT json_object('conversationId', conversation_id, 'messageId', message_id, 'source', source, 'askedAt', asked_at)
      FROM unanswered_examples WHERE group_id = unanswered_groups.id ORDER BY seq LIMIT 1
    ), '{}');
  DROP TABLE unanswered_examples;
  `,
  `
  -- What the chat adapters post about handoffs (HandoffNoticeRepository), in seq order. A
  -- follow-up (message, closed) names its handoff's requested notice, whose thread it posts in.
  CREATE TABLE handoff_notices (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    request_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    chatbot_id TEXT NOT NULL,
    chatbot_name TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    source TEXT NOT NULL,
    platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    status TEXT NOT NULL,
    requested_at INTEGER NOT NULL,
    taken_by TEXT,
    transcript TEXT,
    person TEXT,
    text TEXT,
    thread_channel_id TEXT,
    thread_id TEXT,
    lease_until INTEGER,
    done_at INTEGER,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (chatbot_id, conversation_id) REFERENCES conversations(chatbot_id, id) ON DELETE CASCADE
  );
  CREATE INDEX handoff_notices_undone ON handoff_notices(account_id, platform, seq) WHERE done_at IS NULL;
  CREATE INDEX handoff_notices_of_conversation ON handoff_notices(chatbot_id, conversation_id, seq);
  CREATE INDEX handoff_notices_by_thread ON handoff_notices(platform, thread_channel_id, thread_id) WHERE thread_id IS NOT NULL;
  `,
  // Each source's chunks, kept between trainings (SourceRepository.trainedSources): a change to one
  // source chunks that source alone. Rows carry the revision of the text they were made from;
  // chunked_revision names the one complete set, written in stages.
  `
  ALTER TABLE sources ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE sources ADD COLUMN chunked_revision INTEGER;
  CREATE TABLE source_chunks (
    source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    ref TEXT NOT NULL,
    PRIMARY KEY (source_id, revision, seq)
  );
  `,
  // A source's text in parts of about a million characters (TEXT_PART_CHARS), each written in a
  // transaction of its own under a fresh version that one short write makes the source's
  // text_version (see source-texts.ts); source_text_stages names the versions being written. A
  // part is written before its source's row exists, so it names its chatbot (for the cascade), not
  // its source. Existing texts move into parts cut by character, which never splits a character.
  `
  CREATE TABLE source_text_parts (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    source_id TEXT NOT NULL,
    version TEXT NOT NULL,
    part INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (source_id, version, part)
  );
  CREATE TABLE source_text_stages (
    source_id TEXT NOT NULL,
    version TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    PRIMARY KEY (source_id, version)
  ) WITHOUT ROWID;
  ALTER TABLE sources ADD COLUMN text_version TEXT;
  UPDATE sources SET text_version = 'migrated' WHERE text != '';
  WITH RECURSIVE cut (source_id, part) AS (
    SELECT id, 0 FROM sources WHERE text_version IS NOT NULL
    UNION ALL
    SELECT cut.source_id, cut.part + 1 FROM cut JOIN sources ON sources.id = cut.source_id
    WHERE (cut.part + 1) * 1048576 < length(sources.text)
  )
  INSERT INTO source_text_parts (chatbot_id, source_id, version, part, text)
  SELECT source.chatbot_id, source.id, source.text_version, cut.part, substr(source.text, cut.part * 1048576 + 1, 1048576)
  FROM cut JOIN sources source ON source.id = cut.source_id;
  ALTER TABLE sources DROP COLUMN text;
  `,
  // A file source's bytes in parts of a megabyte (FILE_PART_BYTES), staged and made current as a
  // text is (see source-parts.ts), under the source's file_version; source_text_stages becomes
  // source_part_stages, for the versions of both being written. Existing files move into parts cut
  // by byte; an empty file keeps its version and has no part.
  `
  CREATE TABLE source_file_parts (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    source_id TEXT NOT NULL,
    version TEXT NOT NULL,
    part INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (source_id, version, part)
  );
  ALTER TABLE source_text_stages RENAME TO source_part_stages;
  ALTER TABLE sources ADD COLUMN file_version TEXT;
  UPDATE sources SET file_version = 'migrated' WHERE id IN (SELECT source_id FROM source_files);
  WITH RECURSIVE cut (source_id, part) AS (
    SELECT source_id, 0 FROM source_files WHERE length(data) > 0
    UNION ALL
    SELECT cut.source_id, cut.part + 1 FROM cut JOIN source_files file ON file.source_id = cut.source_id
    WHERE (cut.part + 1) * 1048576 < length(file.data)
  )
  INSERT INTO source_file_parts (chatbot_id, source_id, version, part, data)
  SELECT source.chatbot_id, source.id, source.file_version, cut.part, substr(file.data, cut.part * 1048576 + 1, 1048576)
  FROM cut JOIN source_files file ON file.source_id = cut.source_id JOIN sources source ON source.id = cut.source_id;
  DROP TABLE source_files;
  `,
  // A source's chunks are stored once, in the material: training_sources.runs records, for the
  // current version, each source's run of chunks and the revision of the text they were made from
  // (see material-runs.ts). The chunks kept beside it go. Existing material has no runs: each
  // chatbot's next training chunks its sources again.
  `
  ALTER TABLE training_sources ADD COLUMN runs TEXT;
  DROP TABLE source_chunks;
  ALTER TABLE sources DROP COLUMN chunked_revision;
  `,
  // The chatbot's revision (source_revisions) when each source was created: material trained from
  // a later one read this source, not another of the same id deleted before (see material-runs.ts).
  `
  ALTER TABLE sources ADD COLUMN created_revision INTEGER NOT NULL DEFAULT 0;
  `,
  // A lead's revision: 1 when created, one more for each correction of a conversation's lead,
  // which marks it for leads.submit again (webhook_pending), so receivers get the corrected fields.
  `
  ALTER TABLE leads ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
  `,
  // What each of the chatbot's messages is (MessageKind), marked where it is written; the messages
  // saved before stay NULL, read by the text rule of then (see message-kinds.ts in the domain).
  `ALTER TABLE conversation_messages ADD COLUMN kind TEXT CHECK (kind IN ('answer', 'decline', 'handoff'));`,
  // A handoff notice of kind `reply` goes to the person, naming the team member who wrote it (none
  // for the hand-back and the offline message); its thread (the person's) is set when it is written.
  `ALTER TABLE handoff_notices ADD COLUMN author_name TEXT;`,
  // get-conversations' handoffStatus: a chatbot's conversations by where their handoff stands.
  `CREATE INDEX conversation_handoffs_by_status ON conversation_handoffs(chatbot_id, status);`,
  // A crawled page's main content, hashed: a page whose content another page of the crawl holds is
  // skipped as its duplicate (claimPageContent), one holder per content.
  `
  ALTER TABLE source_pages ADD COLUMN content_hash TEXT;
  CREATE UNIQUE INDEX source_pages_by_content ON source_pages(source_id, content_hash) WHERE content_hash IS NOT NULL;
  `,
  // Each webhook delivery names the chatbot its event is about, so deleting the chatbot deletes its
  // events (a lead's details among them) from every webhook's outbox, an account-wide one's too,
  // with their attempts. Deliveries of chatbots deleted before this go now.
  `
  ALTER TABLE webhook_deliveries ADD COLUMN chatbot_id TEXT REFERENCES chatbots(id) ON DELETE CASCADE;
  DELETE FROM webhook_attempts WHERE delivery_id IN (
    SELECT id FROM webhook_deliveries WHERE json_extract(body, '$.chatbotId') NOT IN (SELECT id FROM chatbots));
  DELETE FROM webhook_deliveries WHERE json_extract(body, '$.chatbotId') NOT IN (SELECT id FROM chatbots);
  UPDATE webhook_deliveries SET chatbot_id = json_extract(body, '$.chatbotId');
  CREATE INDEX webhook_deliveries_by_chatbot ON webhook_deliveries(chatbot_id);
  `,
  // Deliveries done, by when: the hourly prune takes those past the delivery log's retention.
  `CREATE INDEX webhook_deliveries_done ON webhook_deliveries(updated_at) WHERE status <> 'pending';`,
  // A material's chunks in pages of consecutive chunks of one source (see training-pages.ts) rather
  // than a row each. Each chunk stored before becomes a page of its own, its text as UTF-8 bytes: a
  // page's last chunk runs to the end of its text, so a page of one has no offsets.
  `
  CREATE TABLE training_pages (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    text BLOB NOT NULL,
    offsets BLOB NOT NULL,
    source TEXT,
    PRIMARY KEY (chatbot_id, version, first_seq)
  );
  INSERT INTO training_pages (chatbot_id, version, first_seq, text, offsets, source)
  SELECT chatbot_id, version, seq, CAST(text AS BLOB), x'', source FROM training_chunks;
  DROP TABLE training_chunks;
  `,
  // Where a Discord application's /chatbot may be registered per server (CommandServerRepository).
  `
  CREATE TABLE command_servers (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    application_id TEXT NOT NULL,
    server_ids TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, application_id)
  ) WITHOUT ROWID;
  `,
  // Each conversation named when created (Incarnation); those created before stay unnamed (null).
  `ALTER TABLE conversations ADD COLUMN incarnation TEXT;`,
  // Whether an assistant message was ever rated 👎, so that only its first 👎 is reviewed.
  `ALTER TABLE conversation_messages ADD COLUMN rated_down INTEGER NOT NULL DEFAULT 0;`,
  // The language a widget conversation's visitor reads, so the hub's own texts written later (the
  // hand-back, the offline message) are in it; null where the window never said.
  `ALTER TABLE conversations ADD COLUMN lang TEXT;`,
  // The hashes of the keys the hub provisioned from BOOTSTRAP_API_KEY, kept after a revocation.
  `CREATE TABLE provisioned_keys (hash TEXT PRIMARY KEY, provisioned_at INTEGER NOT NULL) WITHOUT ROWID;`,
];

export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.slice(current).forEach((sql, offset) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${current + offset + 1}`);
    }).immediate();
  });
}
