import type { NewSource, Source, SourceChange, SourcePageStatus, SourceRepository, SourceText, TrainedSource } from '../port.js';
import type { AtomicWrites } from './atomic.js';
import type { MongoModels, SourceChunkDoc, SourceDoc, SourcePageDoc } from './models.js';

// A chatbot's knowledge sources. A source's document holds its extracted text (a website's is in
// its pages' documents) and never its file's bytes, which are in parts of their own: a document
// holds at most 16 MB, and a list never reads either. A source's chunks are documents of
// sourceChunks under the revision of the text they were made from; the source's chunkedRevision
// names the one complete set.

const FILE_PART_BYTES = 8 * 1024 * 1024;
const DUPLICATE_KEY = 11000;
const CHUNK_BATCH = 1000;
/** What a source's document holds besides the source itself. */
const INTERNAL = { text: 0, claimedBy: 0, leaseUntil: 0, revision: 0, chunkedRevision: 0 } as const;

export function toSource({
  _id,
  text: _text,
  claimedBy: _claimedBy,
  leaseUntil: _leaseUntil,
  revision: _revision,
  chunkedRevision: _chunkedRevision,
  ...rest
}: SourceDoc): Source {
  return { id: _id, ...rest };
}

/** The write of a change: a new text or status is a new revision, and a failed source keeps no chunks. */
function changeWrite({ updatedAt, ...change }: SourceChange, extra: Record<string, unknown> = {}) {
  const fields: Record<string, unknown> = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  if (change.status === 'failed') fields.chunkedRevision = null;
  const revised = change.text !== undefined || change.pages !== undefined || change.status !== undefined;
  return { $set: { ...fields, ...extra, updatedAt }, ...(revised ? { $inc: { revision: 1 } } : {}) };
}

export function toDoc({ id, text = '', file: _file, ...rest }: NewSource): SourceDoc {
  return { _id: id, ...rest, text };
}

function fileParts(sourceId: string, file: Buffer) {
  const parts = [];
  for (let part = 0, start = 0; start < file.length || part === 0; part += 1, start += FILE_PART_BYTES) {
    parts.push({ sourceId, part, data: file.subarray(start, start + FILE_PART_BYTES) });
  }
  return parts;
}

export function mongoSources(models: MongoModels, { compensated }: AtomicWrites): SourceRepository {
  const { sources, sourceFileParts, sourcePages, sourceChunks, sourceRevisions } = models;
  const removeChildren = (ids: string[]) =>
    Promise.all([
      sourceFileParts.deleteMany({ sourceId: { $in: ids } }),
      sourcePages.deleteMany({ sourceId: { $in: ids } }),
      sourceChunks.deleteMany({ sourceId: { $in: ids } }),
    ]);
  const readChunks = async (sourceId: string, revision: number) =>
    (await sourceChunks.find({ sourceId, revision }, { text: 1, source: 1 }).sort({ seq: 1 }).lean<SourceChunkDoc[]>()).map(
      ({ text, source }) => ({ text, source }),
    );

  const repository: SourceRepository = {
    async insert(batch) {
      // Undone on failure: only what this call inserted (a clashing id belongs to another source).
      let inserted: string[] = [];
      await compensated(
        async () => {
          try {
            await sources.insertMany(batch.map(toDoc), { ordered: true, lean: true });
          } catch (error) {
            inserted = Object.values((error as { insertedIds?: Record<string, string> }).insertedIds ?? {});
            throw error;
          }
          inserted = batch.map((source) => source.id);
          const parts = batch.flatMap((source) => (source.file ? fileParts(source.id, source.file) : []));
          if (parts.length > 0) await sourceFileParts.insertMany(parts, { ordered: true, lean: true });
        },
        async () => {
          await sources.deleteMany({ _id: { $in: inserted } });
          await removeChildren(inserted);
        },
      );
    },
    async put(source) {
      const { _id, createdAt, ...fields } = toDoc(source);
      const stored = await sources
        .findOneAndUpdate(
          { _id, chatbotId: source.chatbotId },
          { $set: fields, $setOnInsert: { createdAt }, $inc: { revision: 1 } },
          { upsert: true, returnDocument: 'after', projection: INTERNAL },
        )
        .lean<SourceDoc>();
      if (source.file) {
        await sourceFileParts.deleteMany({ sourceId: _id });
        await sourceFileParts.insertMany(fileParts(_id, source.file), { ordered: true, lean: true });
      }
      return toSource(stored as SourceDoc);
    },
    async find(chatbotId, id) {
      const doc = await sources.findOne({ _id: id, chatbotId }, INTERNAL).lean<SourceDoc>();
      return doc ? toSource(doc) : undefined;
    },
    async list(chatbotId) {
      const docs = await sources.find({ chatbotId }, INTERNAL).sort({ createdAt: 1, _id: 1 }).lean<SourceDoc[]>();
      return docs.map(toSource);
    },
    async update(chatbotId, id, change) {
      const doc = await sources
        .findOneAndUpdate({ _id: id, chatbotId }, changeWrite(change), { returnDocument: 'after', projection: INTERNAL })
        .lean<SourceDoc>();
      return doc ? toSource(doc) : undefined;
    },
    async delete(chatbotId, id) {
      const { deletedCount } = await sources.deleteOne({ _id: id, chatbotId });
      if (deletedCount === 0) return false;
      await removeChildren([id]);
      return true;
    },
    async text(chatbotId, id, limit) {
      const doc = await sources.findOne({ _id: id, chatbotId }, { type: 1, text: 1 }).lean<Pick<SourceDoc, 'type' | 'text'>>();
      if (!doc || doc.type !== 'website') return doc?.text.slice(0, limit) ?? '';
      let text = '';
      for await (const page of sourcePages.find({ sourceId: id, status: 'read' }, { text: 1 }).sort({ seq: 1 }).lean<SourcePageDoc>()) {
        text += (text ? '\n\n' : '') + page.text;
        if (text.length >= limit) break;
      }
      return text.slice(0, limit);
    },
    async file(chatbotId, id) {
      if (!(await sources.exists({ _id: id, chatbotId }))) return undefined;
      const parts = await sourceFileParts.find({ sourceId: id }).sort({ part: 1 }).lean<{ data: { buffer: Uint8Array } | Buffer }[]>();
      if (parts.length === 0) return undefined;
      return Buffer.concat(parts.map(({ data }) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer))));
    },
    async totalChars(chatbotId, except) {
      const [row] = await sources.aggregate<{ total: number }>([
        { $match: { chatbotId, ...(except === undefined ? {} : { _id: { $ne: except } }) } },
        { $group: { _id: null, total: { $sum: '$chars' } } },
      ]);
      return row?.total ?? 0;
    },
    async texts(chatbotId, id) {
      const doc = await sources.findOne({ _id: id, chatbotId }, { type: 1, title: 1, text: 1 }).lean<Pick<SourceDoc, 'type' | 'title' | 'text'>>();
      if (!doc) return [];
      const { type, title, text } = doc;
      if (type !== 'website') return [{ ref: { id, title, type }, text }];
      const pages = await sourcePages
        .find({ sourceId: id, status: 'read' }, { url: 1, title: 1, text: 1 })
        .sort({ seq: 1 })
        .lean<SourcePageDoc[]>();
      return pages.map((page): SourceText => ({ ref: { id, title: page.title || title, url: page.url, type }, text: page.text }));
    },
    async trainedSources(chatbotId, sourceId) {
      const docs = await sources
        .find(
          { chatbotId, ...(sourceId === undefined ? {} : { _id: sourceId }), $or: [{ status: 'ready' }, { status: { $in: ['queued', 'processing'] }, chunkedRevision: { $ne: null } }] },
          { status: 1, revision: 1, chunkedRevision: 1 },
        )
        .sort({ createdAt: 1, _id: 1 })
        .lean<Pick<SourceDoc, '_id' | 'status' | 'revision' | 'chunkedRevision'>[]>();
      const trained: TrainedSource[] = [];
      for (const { _id: id, status, revision = 0, chunkedRevision: chunked } of docs) {
        if (status === 'ready' && chunked !== revision) trained.push({ id, revision });
        else trained.push({ id, revision, chunks: await readChunks(id, chunked as number) });
      }
      return trained;
    },
    async saveChunks(chatbotId, id, revision, chunks) {
      const docs = chunks.map(({ text, source }, seq): SourceChunkDoc => ({ chatbotId, sourceId: id, revision, seq, text, source }));
      // A concurrent training may be saving the same revision: its chunks are the same, and the
      // duplicates it already wrote are skipped.
      for (let start = 0; start < docs.length; start += CHUNK_BATCH) {
        await sourceChunks.insertMany(docs.slice(start, start + CHUNK_BATCH), { ordered: false, lean: true }).catch((error: unknown) => {
          const errors = (error as { writeErrors?: { code?: number }[] }).writeErrors;
          if (!errors?.every((failure) => failure.code === DUPLICATE_KEY)) throw error;
        });
      }
      // A source stored before revisions were counted has none: revision 0.
      const current = revision === 0 ? { $in: [0, null] } : revision;
      const { matchedCount } = await sources.updateOne({ _id: id, chatbotId, revision: current }, { $set: { chunkedRevision: revision } });
      await sourceChunks.deleteMany({ sourceId: id, revision: matchedCount > 0 ? { $ne: revision } : revision });
      return matchedCount > 0;
    },
    async claimNext({ now, claimedBy, leaseUntil }) {
      const doc = await sources
        .findOneAndUpdate(
          { $or: [{ status: 'queued' }, { status: 'processing', $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] }] },
          { $set: { status: 'processing', claimedBy, leaseUntil } },
          { sort: { createdAt: 1, _id: 1 }, returnDocument: 'after', projection: INTERNAL },
        )
        .lean<SourceDoc>();
      return doc ? toSource(doc) : undefined;
    },
    async renewLease(id, claimedBy, leaseUntil) {
      const { modifiedCount, matchedCount } = await sources.updateOne({ _id: id, claimedBy, status: 'processing' }, { $set: { leaseUntil } });
      return matchedCount + modifiedCount > 0;
    },
    async settle(id, claimedBy, change) {
      const doc = await sources
        .findOneAndUpdate(
          { _id: id, claimedBy, status: 'processing' },
          changeWrite(change, { claimedBy: null, leaseUntil: null }),
          { returnDocument: 'after', projection: INTERNAL },
        )
        .lean<SourceDoc>();
      return doc ? toSource(doc) : undefined;
    },
    async release(id, claimedBy) {
      await sources.updateOne({ _id: id, claimedBy }, { $set: { leaseUntil: new Date(0) } });
    },
    async planPages(sourceId, urls) {
      // Sequence numbers follow the last known; a URL already known collides on (sourceId, url).
      const [last] = await sourcePages.find({ sourceId }, { seq: 1 }).sort({ seq: -1 }).limit(1).lean<SourcePageDoc[]>();
      let seq = (last?.seq ?? -1) + 1;
      let added = 0;
      for (const url of urls) {
        try {
          await sourcePages.create({ sourceId, seq, url, title: '', status: 'planned', chars: 0, text: '' });
          seq += 1;
          added += 1;
        } catch (error) {
          if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
        }
      }
      return added;
    },
    async nextPage(sourceId, afterSeq) {
      const doc = await sourcePages
        .findOne({ sourceId, status: 'planned', seq: { $gt: afterSeq } }, { seq: 1, url: 1 })
        .sort({ seq: 1 })
        .lean<SourcePageDoc>();
      return doc ? { seq: doc.seq, url: doc.url } : undefined;
    },
    async recordPage(sourceId, { url, title, status, chars, text, reason }) {
      const outcome = { title, status, chars, text, reason: reason ?? null };
      const { matchedCount } = await sourcePages.updateOne({ sourceId, url }, { $set: outcome });
      if (matchedCount === 0) {
        await repository.planPages(sourceId, [url]);
        await sourcePages.updateOne({ sourceId, url }, { $set: outcome });
      }
      const pages = await repository.pageCounts(sourceId);
      await sources.updateOne({ _id: sourceId }, { $set: { pages } });
      return pages;
    },
    async pageCounts(sourceId) {
      const rows = await sourcePages.aggregate<{ _id: string; n: number }>([
        { $match: { sourceId } },
        { $group: { _id: '$status', n: { $sum: 1 } } },
      ]);
      const count = (status: string) => rows.find((row) => row._id === status)?.n ?? 0;
      return { done: count('read'), failed: count('failed'), total: rows.reduce((sum, row) => sum + row.n, 0) };
    },
    async pageList(chatbotId, sourceId) {
      if (!(await sources.exists({ _id: sourceId, chatbotId }))) return [];
      const docs = await sourcePages
        .find({ sourceId, status: { $ne: 'planned' } }, { url: 1, title: 1, status: 1, chars: 1, reason: 1 })
        .sort({ seq: 1 })
        .lean<SourcePageDoc[]>();
      return docs.map(({ url, title, status, chars, reason }) => ({
        url,
        title,
        status: status as SourcePageStatus,
        chars,
        ...(reason ? { reason } : {}),
      }));
    },
    async clearPages(sourceId) {
      await sourcePages.deleteMany({ sourceId });
    },
    async nextRevision(chatbotId) {
      const doc = await sourceRevisions
        .findOneAndUpdate({ _id: chatbotId }, { $inc: { revision: 1 } }, { upsert: true, returnDocument: 'after' })
        .lean<{ revision: number }>();
      return (doc as { revision: number }).revision;
    },
  };
  return repository;
}
