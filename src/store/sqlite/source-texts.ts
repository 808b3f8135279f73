import type { Database } from 'better-sqlite3';
import { partsOf, readParts, type KnownVersion } from '../text-parts.js';
import { sqliteSourceParts } from './source-parts.js';

// A source's text (text, file and qa sources) is kept in parts of about a million characters under
// the version its row's text_version names (see source-parts.ts).

/** The source texts' parts, for the sources repository and the v1 source text. */
export type SqliteSourceTexts = ReturnType<typeof sqliteSourceTexts>;

export function sqliteSourceTexts(db: Database) {
  const parts = sqliteSourceParts<string>(db, 'text');
  return {
    ...parts,
    /** Writes `text` in parts under a fresh version (see sqliteSourceParts' write) and answers it: null for no text. */
    async write(chatbotId: string, sourceId: string, text: string): Promise<string | null> {
      return text === '' ? null : parts.write(chatbotId, sourceId, partsOf(text));
    },
    /** The first `limit` characters of the source's current text (from `known`'s version, when given); undefined when there is no such source. */
    read(chatbotId: string, sourceId: string, limit: number, known?: KnownVersion): Promise<string | undefined> {
      return readParts(parts.of(chatbotId, sourceId), limit, known);
    },
  };
}
