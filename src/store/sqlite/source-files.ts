import type { Database } from 'better-sqlite3';
import { readCurrentParts } from '../text-parts.js';
import { sqliteSourceParts } from './source-parts.js';

// A file source's bytes are kept in parts of a megabyte under the version its row's file_version
// names (see source-parts.ts): a 20 MB blob written or read in one statement would hold the event
// loop for a tenth of a second.

/** Bytes of a part: about a millisecond to write or read. */
export const FILE_PART_BYTES = 1024 * 1024;

/** The file sources' parts, for the sources repository. */
export type SqliteSourceFiles = ReturnType<typeof sqliteSourceFiles>;

export function sqliteSourceFiles(db: Database) {
  const parts = sqliteSourceParts<Buffer>(db, 'file');
  return {
    ...parts,
    /** Writes `file` in parts under a fresh version (see sqliteSourceParts' write) and answers it; an empty file has no part. */
    write(chatbotId: string, sourceId: string, file: Buffer): Promise<string> {
      const slices: Buffer[] = [];
      for (let start = 0; start < file.length; start += FILE_PART_BYTES) slices.push(file.subarray(start, start + FILE_PART_BYTES));
      return parts.write(chatbotId, sourceId, slices);
    },
    /** The source's current file; undefined when there is no such source or it has no file. */
    async read(chatbotId: string, sourceId: string): Promise<Buffer | undefined> {
      const read = await readCurrentParts(parts.of(chatbotId, sourceId), Number.MAX_SAFE_INTEGER);
      return read ? Buffer.concat(read) : undefined;
    },
  };
}
