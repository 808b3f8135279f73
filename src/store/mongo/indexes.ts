import { createHash } from 'node:crypto';
import type { Model, mongo } from 'mongoose';

// Index migration at start-up, the MongoDB counterpart of SQLite's versioned migrations.
// Each declared index is named after its keys and a hash of its options, so changing an option
// declares a new index instead of colliding with the old one (which MongoDB would refuse with
// IndexOptionsConflict, stopping the hub). The new index is built first, then the old one dropped.
// Only indexes this code made are ever dropped: ours (the `sb_` names) and the default-named ones
// earlier versions created; an operator's own named indexes (an Atlas vector index, say) stay.

const OURS = 'sb_';
const ID_INDEX = '_id_';
/** MongoDB refuses a second index on the same keys whose options or name differ. */
const SAME_KEYS_CONFLICT = new Set([85, 86]);

type Keys = Record<string, mongo.IndexDirection>;
type Declared = { keys: Keys; options: Record<string, unknown> & { name: string } };
type Existing = { name: string; key: Keys };

export type IndexMigration = { created: string[]; dropped: string[] };

export function indexName(keys: Keys, options: Record<string, unknown>): string {
  const fields = Object.entries(keys).map(([field, direction]) => `${field}_${direction}`).join('_');
  const hash = createHash('sha256').update(canonicalJson(options)).digest('hex').slice(0, 8);
  return `${OURS}${fields}_${hash}`;
}

export async function migrateIndexes(model: Model<never>): Promise<IndexMigration> {
  const declared = model.schema.indexes().map(([keys, options]): Declared => {
    // `background` is a build hint that servers since 4.2 ignore; it is not part of the index.
    const { name, ...rest } = Object.fromEntries(
      Object.entries(options as Record<string, unknown>).filter(([option]) => option !== 'background'),
    );
    return {
      keys: keys as Keys,
      options: { ...rest, name: typeof name === 'string' ? name : indexName(keys as Keys, rest) },
    };
  });
  const existing = await existingIndexes(model);
  const wanted = new Set(declared.map((index) => index.options.name));
  const migration: IndexMigration = { created: [], dropped: [] };

  for (const index of declared) {
    if (existing.some((found) => found.name === index.options.name)) continue;
    try {
      await model.collection.createIndex(index.keys, index.options);
    } catch (error) {
      // The old version of this index (same keys) is in the way: it must go before the new one exists.
      const old = existing.find((found) => sameKeys(found.key, index.keys) && !wanted.has(found.name));
      if (!old || !SAME_KEYS_CONFLICT.has((error as { code?: number }).code ?? 0)) throw error;
      await model.collection.dropIndex(old.name);
      migration.dropped.push(old.name);
      await model.collection.createIndex(index.keys, index.options);
    }
    migration.created.push(index.options.name);
  }
  for (const index of existing) {
    if (wanted.has(index.name) || migration.dropped.includes(index.name) || !madeByUs(index)) continue;
    await model.collection.dropIndex(index.name);
    migration.dropped.push(index.name);
  }
  return migration;
}

async function existingIndexes(model: Model<never>): Promise<Existing[]> {
  try {
    return (await model.collection.listIndexes().toArray()) as Existing[];
  } catch (error) {
    if ((error as { codeName?: string }).codeName === 'NamespaceNotFound') return [];
    throw error;
  }
}

function madeByUs(index: Existing): boolean {
  if (index.name === ID_INDEX) return false;
  return index.name.startsWith(OURS) || index.name === defaultName(index.key);
}

/** The name MongoDB gives an index created without one, as earlier versions of the hub did. */
function defaultName(keys: Keys): string {
  return Object.entries(keys).map(([field, direction]) => `${field}_${direction}`).join('_');
}

function sameKeys(a: Keys, b: Keys): boolean {
  return JSON.stringify(Object.entries(a)) === JSON.stringify(Object.entries(b));
}

/** JSON with object keys sorted, so equal options always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
