import { randomUUID } from 'node:crypto';
import { partsOf, readParts, type KnownVersion } from '../text-parts.js';
import type { MongoModels, SourceDoc, SourceTextPartDoc } from './models.js';

// A source's text (text, file and qa sources) is kept in parts (see text-parts.ts), one document
// each: a document holds at most 16 MiB. A new text is written part by part under a fresh version;
// the write of the source's document that sets its textVersion makes it current in one step, and
// only then are the parts of the version it displaced deleted. Readers follow textVersion, so they
// see the old text or the new, never parts of both. Parts of a version that never became current
// (a crash mid-write) are removed by the repair (repair.ts) once older than its grace.

export type MongoSourceTexts = ReturnType<typeof mongoSourceTexts>;

export function mongoSourceTexts({ sources, sourceTextParts }: MongoModels) {
  async function remove(sourceId: string, version: string | null | undefined): Promise<void> {
    if (version) await sourceTextParts.deleteMany({ sourceId, version });
  }

  return {
    /** Writes `text` in parts under a fresh version and answers it (null for no text); a write that fails leaves none. */
    async write(chatbotId: string, sourceId: string, text: string): Promise<string | null> {
      if (text === '') return null;
      const version = randomUUID();
      try {
        for (const [part, partText] of partsOf(text).entries()) {
          await sourceTextParts.insertMany([{ chatbotId, sourceId, version, part, text: partText }], { lean: true });
        }
      } catch (error) {
        await remove(sourceId, version);
        throw error;
      }
      return version;
    },
    /** Deletes a version's parts: one displaced, or one that never became current. */
    remove,
    /** The first `limit` characters of the source's current text (from `known`'s version, when given); undefined when there is no such source. */
    read(chatbotId: string, sourceId: string, limit: number, known?: KnownVersion): Promise<string | undefined> {
      return readParts(
        {
          current: async () => {
            const doc = await sources.findOne({ _id: sourceId, chatbotId }, { textVersion: 1 }).lean<Pick<SourceDoc, 'textVersion'>>();
            return doc ? (doc.textVersion ?? null) : undefined;
          },
          part: async (version, part) =>
            (await sourceTextParts.findOne({ sourceId, version, part }, { text: 1 }).lean<Pick<SourceTextPartDoc, 'text'>>())?.text,
        },
        limit,
        known,
      );
    },
  };
}
