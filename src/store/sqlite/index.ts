import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CHUNK_GRACE_MS, type Store } from '../port.js';
import { sqliteAccounts } from './accounts.js';
import { sqliteActivity, sqliteActivityCount } from './activity.js';
import { sqliteHandoffNotices, sqliteHandoffNoticeWriter } from './handoff-notices.js';
import { sqliteHandoffs } from './handoffs.js';
import { sqliteAdapterClaims } from './adapter-claims.js';
import { sqliteCommandServers } from './command-servers.js';
import { sqliteAssets } from './assets.js';
import { sqliteAttributes } from './attributes.js';
import { sqliteBindings } from './bindings.js';
import { sqliteChatbots } from './chatbots.js';
import { checkpointOffThread } from './checkpoints.js';
import { watchCommits } from './commit-watch.js';
import { sqliteConsoleSessions } from './console-sessions.js';
import { sqliteConversations } from './conversations.js';
import { sqliteConversationAppend } from './conversation-append.js';
import { sqliteDigestRuns } from './digest-runs.js';
import { sqliteDigests } from './digests.js';
import { sqliteLeads } from './leads.js';
import { sqliteContacts } from './contacts.js';
import { groupCommit } from './group-commit.js';
import { migrate } from './migrations.js';
import { sqliteRateLimits } from './rate-limits.js';
import { sqliteRetrieval } from './retrieval.js';
import { sqliteSourceFiles } from './source-files.js';
import { sqliteSourceTexts } from './source-texts.js';
import { sqliteSources } from './sources.js';
import { sqliteTraining } from './training.js';
import { sqliteUnanswered } from './unanswered.js';
import { sqliteUsage } from './usage.js';
import { sqliteWebhookOutbox } from './webhook-outbox.js';
import { sqliteWebhooks } from './webhooks.js';

/** Opens (creating if needed) a SQLite database file, or `:memory:`, and brings its schema up to date. */
export function openSqliteStore(filename: string): Store {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const stopCheckpoints = filename === ':memory:' ? async () => {} : checkpointOffThread(db, filename);
  const commits = watchCommits(db);

  const sourceTexts = sqliteSourceTexts(db);
  const sourceFiles = sqliteSourceFiles(db);
  const training = sqliteTraining(db, sourceTexts);
  const retrieval = sqliteRetrieval(db);
  const countActivity = sqliteActivityCount(db);
  const enqueueNotice = sqliteHandoffNoticeWriter(db);
  const appendConversation = sqliteConversationAppend(db, countActivity);
  const batched = groupCommit(db);
  return {
    engine: 'sqlite',
    accounts: sqliteAccounts(db),
    chatbots: sqliteChatbots(db, commits),
    training,
    sources: sqliteSources(db, sourceTexts, sourceFiles, training),
    retrieval,
    assets: sqliteAssets(db),
    leads: sqliteLeads(db, countActivity),
    conversations: sqliteConversations(db, countActivity, appendConversation),
    contacts: sqliteContacts(db),
    attributes: sqliteAttributes(db),
    rateLimits: sqliteRateLimits(db),
    usage: sqliteUsage(db, batched),
    bindings: sqliteBindings(db),
    digests: sqliteDigests(db),
    digestRuns: sqliteDigestRuns(db),
    // Counters and cascades are single transactions; only staged material, source texts and
    // files, and indexes can be left.
    async repair({ chunkGraceMs = CHUNK_GRACE_MS, now = new Date() } = {}) {
      const stagedBefore = now.getTime() - chunkGraceMs;
      const orphans =
        (await training.removeDebris(stagedBefore)) +
        (await sourceTexts.removeDebris(stagedBefore)) +
        (await sourceFiles.removeDebris(stagedBefore)) +
        (await retrieval.removeDebris());
      return { counters: 0, orphans };
    },
    webhooks: sqliteWebhooks(db),
    webhookOutbox: sqliteWebhookOutbox(db),
    adapterClaims: sqliteAdapterClaims(db),
    commandServers: sqliteCommandServers(db),
    activity: sqliteActivity(db, countActivity, batched),
    unanswered: sqliteUnanswered(db, batched),
    consoleSessions: sqliteConsoleSessions(db),
    handoffs: sqliteHandoffs(db, enqueueNotice, appendConversation),
    handoffNotices: sqliteHandoffNotices(db),
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      batched.flush();
      await stopCheckpoints();
      db.close();
      commits.close();
    },
  };
}
