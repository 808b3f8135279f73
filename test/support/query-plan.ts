import Database from 'better-sqlite3';
import { migrate } from '../../src/store/sqlite/migrations.js';

// SQLite query plans, on a migrated in-memory database with statistics, as a busy one would have.

/** A migrated database holding the rows `fill` writes (without owners), analysed for the planner. */
export function plannerDatabase(fill: (db: Database.Database) => void): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  db.pragma('foreign_keys = OFF');
  db.transaction(() => fill(db))();
  db.exec('ANALYZE');
  return db;
}

/** SQLite's plan for a statement with these parameters, one step a line. */
export function queryPlan(db: Database.Database, sql: string, params: Record<string, unknown>): string {
  return db
    .prepare<[Record<string, unknown>], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(params)
    .map((step) => step.detail)
    .join('\n');
}
