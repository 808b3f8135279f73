import { randomUUID } from 'node:crypto';
import { givenFields } from '../given-fields.js';
import { trainedFromMaterial } from '../material-runs.js';
import { sameQuestionKey } from '../same-question.js';
import { countedChars, isOverCharLimit, type NewSource, type OverCharLimit, type Source, type SourceChange, type SourcePageStatus, type SourceRepository, type SourceText } from '../port.js';
import { whileHolding } from './holds.js';
import type { MongoModels, SourceDoc, SourcePageDoc, SourceRevisionDoc } from './models.js';
import type { MongoSourceTexts } from './source-texts.js';
import type { MongoMaterialRuns } from './training.js';

// A chatbot's knowledge sources. A source's document names the version of its extracted text
// (source-texts.ts; a website's is in its pages' documents) and of a file's bytes; the text and the
// bytes are in parts of their own: a document holds at most 16 MB, and a list never reads either.
// Both are written before the document that names them: a queued source is claimed at once by
// the sources job of any hub, which reads its bytes. A source's chunks are in the material
// (material-runs.ts).

/** A source's document as a write left it, and as it was before (null: the write created it). */
type Written = { doc: SourceDoc; before: SourceDoc | null };

/** A write's character limit: the characters it brings, and the sources whose own it replaces (or adds). */
type CharLimit = { chatbotId: string; chars: number; except: string[]; maxChars: number };

const FILE_PART_BYTES = 8 * 1024 * 1024;
/** Far longer than a write of a source takes: a hub that dies holding the turn lets go after it. */
const WRITE_HOLD_MS = 60_000;
const DUPLICATE_KEY = 11000;
/** What a source's document holds besides the source itself and the version of its text. */
const JOB = { claimedBy: 0, leaseUntil: 0, revision: 0, createdRevision: 0 } as const;
/** What a source's document holds besides the source itself. */
const INTERNAL = { ...JOB, textVersion: 0, fileVersion: 0 } as const;

export function toSource({
  _id,
  textVersion: _textVersion,
  fileVersion: _fileVersion,
  claimedBy: _claimedBy,
  leaseUntil: _leaseUntil,
  revision: _revision,
  createdRevision: _createdRevision,
  ...rest
}: SourceDoc): Source {
  return { id: _id, ...rest };
}

/** The limit a change is written within: only a change of the characters is limited. */
const changeLimit = ({ chars }: SourceChange, maxChars: number) => ({ chars: chars ?? 0, maxChars: chars === undefined ? Infinity : maxChars });

/** The write of a change, its text written under `textVersion`: a new text or status is a new revision. */
function changeWrite({ updatedAt, text: _text, ...change }: SourceChange, textVersion: string | null | undefined, extra: Record<string, unknown> = {}) {
  const fields: Record<string, unknown> = givenFields(change);
  if (textVersion !== undefined) fields.textVersion = textVersion;
  const revised = textVersion !== undefined || change.pages !== undefined || change.status !== undefined;
  return { $set: { ...fields, ...extra, updatedAt }, ...(revised ? { $inc: { revision: 1 } } : {}) };
}

/** The document of a source whose text is kept under `textVersion` (and its file's bytes under `fileVersion`, when given). */
export function toDoc({ id, text: _text, file: _file, ...rest }: NewSource, textVersion: string | null, fileVersion?: string): SourceDoc {
  return { _id: id, ...rest, textVersion, ...(fileVersion === undefined ? {} : { fileVersion }) };
}

/** A document's fields as a restore puts them back: not its id, which a write may not set, nor its revision, which moves on. */
const restorable = ({ _id, revision: _revision, ...fields }: SourceDoc) => fields;

function fileParts(sourceId: string, version: string, file: Buffer) {
  const parts = [];
  for (let part = 0, start = 0; start < file.length || part === 0; part += 1, start += FILE_PART_BYTES) {
    parts.push({ sourceId, version, part, data: file.subarray(start, start + FILE_PART_BYTES) });
  }
  return parts;
}

export function mongoSources(models: MongoModels, texts: MongoSourceTexts, material: MongoMaterialRuns): SourceRepository {
  const { sources, sourceFileParts, sourcePages, sourceRevisions } = models;
  const removeChildren = (ids: string[]) =>
    Promise.all([sourceFileParts.deleteMany({ sourceId: { $in: ids } }), sourcePages.deleteMany({ sourceId: { $in: ids } })]);

  /** Deletes a version of a file's bytes (null: the bytes of a source stored before versions). */
  async function removeFile(sourceId: string, version: string | null): Promise<void> {
    await sourceFileParts.deleteMany({ sourceId, version });
  }
  /** Writes a file's bytes in parts under a fresh version and answers it; a write that fails leaves none. */
  async function writeFile(sourceId: string, file: Buffer): Promise<string> {
    const version = randomUUID();
    try {
      await sourceFileParts.insertMany(fileParts(sourceId, version, file), { ordered: true, lean: true });
    } catch (error) {
      await removeFile(sourceId, version);
      throw error;
    }
    return version;
  }

  /**
   * Writes `text` (when given) in parts, then runs `write`, which makes them current and answers
   * the source as it left it; deletes the text it displaced, or the new one when the write is
   * refused (answers undefined) or fails.
   */
  async function withText(
    chatbotId: string,
    id: string,
    text: string | undefined,
    write: (textVersion: string | null | undefined) => Promise<Written | undefined>,
  ): Promise<SourceDoc | undefined> {
    const textVersion = text === undefined ? undefined : await texts.write(chatbotId, id, text);
    let written: Written | undefined;
    try {
      written = await write(textVersion);
    } finally {
      if (!written) await texts.remove(id, textVersion);
    }
    if (written && textVersion !== undefined) await texts.remove(id, written.before?.textVersion);
    return written?.doc;
  }
  /** Applies `update` to the source `filter` finds, answering it as written and as it was. */
  async function changeSource(filter: Record<string, unknown>, update: ReturnType<typeof changeWrite>): Promise<Written | undefined> {
    const before = await sources.findOneAndUpdate(filter, update, { returnDocument: 'before', projection: JOB }).lean<SourceDoc>();
    return before ? { doc: { ...before, ...update.$set }, before } : undefined;
  }
  /**
   * withText, its write made within the character limit (withinLimit; or `limited`, limitedWrite
   * where the chatbot's source writes are held already), `except` the sources the limit leaves out
   * (the source itself unless given): a write refused after it landed is undone, the document put
   * back as it was (removed, when the write created it) unless another write changed its text since.
   */
  async function withTextWithinLimit(
    chatbotId: string,
    id: string,
    text: string | undefined,
    limit: Pick<CharLimit, 'chars' | 'maxChars'> & Partial<Pick<CharLimit, 'except'>>,
    write: (textVersion: string | null | undefined) => Promise<Written | undefined>,
    limited = withinLimit,
  ): Promise<SourceDoc | OverCharLimit | undefined> {
    let refused: OverCharLimit | undefined;
    const doc = await withText(chatbotId, id, text, async (textVersion) => {
      let written: Written | undefined;
      refused = await limited({ chatbotId, except: [id], ...limit }, async () => {
        const done = await write(textVersion);
        written = done;
        return done && (() => restore(id, textVersion, done.before));
      });
      return refused ? undefined : written;
    });
    return refused ?? doc;
  }
  /**
   * Puts back the source's document as it was `before` a write that gave it `textVersion` (removes
   * it, when the write created it), unless another write changed its text since: that one stands.
   * A new revision, so that chunks made meanwhile of the text undone do not stand for it.
   */
  async function restore(id: string, textVersion: string | null | undefined, before: SourceDoc | null): Promise<void> {
    // A write without a text (a website settled) changed no text: nothing to tell another's from.
    const ours = textVersion === undefined ? { _id: id } : { _id: id, textVersion };
    if (before) {
      await sources.updateOne(ours, { $set: restorable(before), $inc: { revision: 1 } });
    } else if ((await sources.deleteOne(ours)).deletedCount > 0) {
      await removeChildren([id]);
    }
  }

  /** The characters of the chatbot's sources but those given. */
  async function charsHeld(chatbotId: string, except: string[]): Promise<number> {
    const [row] = await sources.aggregate<{ total: number }>([
      { $match: { chatbotId, ...(except.length > 0 ? { _id: { $nin: except } } : {}) } },
      { $group: { _id: null, total: { $sum: '$chars' } } },
    ]);
    return row?.total ?? 0;
  }
  /** The chatbot's revision counter (nextRevision's), undefined before it first moves. */
  async function revisionOf(chatbotId: string): Promise<number | undefined> {
    return (await sourceRevisions.findOne({ _id: chatbotId }, { revision: 1 }).lean<SourceRevisionDoc>())?.revision;
  }
  /** Moves the counter on from `revision`; false when another change moved it first. */
  async function moveRevision(chatbotId: string, revision: number | undefined): Promise<boolean> {
    const current = revision ?? { $exists: false };
    try {
      const { matchedCount, upsertedCount } = await sourceRevisions.updateOne(
        { _id: chatbotId, revision: current },
        { $inc: { revision: 1 } },
        { upsert: revision === undefined },
      );
      return matchedCount + upsertedCount > 0;
    } catch (error) {
      // The counter came to be meanwhile: the upsert clashed with it.
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  /**
   * Records the chatbot's revision on the sources just created (material-runs.ts), read after they
   * landed: a training that took a later one read them, not sources of the same ids deleted before.
   * Until then (null) the material's chunks are taken for none of them.
   */
  async function recordCreated(chatbotId: string, ids: string[]): Promise<void> {
    const createdRevision = (await revisionOf(chatbotId)) ?? 0;
    await sources.updateMany({ _id: { $in: ids }, createdRevision: null }, { $set: { createdRevision } });
  }

  /**
   * Writes the sources' texts, documents and files' parts, and answers how to remove them again.
   * Not one transaction (a file's parts may pass its size): a failure part-way undoes, write by
   * write, what this call wrote (a clashing id belongs to another source).
   */
  async function writeBatch(batch: NewSource[]): Promise<() => Promise<void>> {
    const staged: { id: string; textVersion: string | null; fileVersion?: string }[] = [];
    let inserted: string[] = [];
    const undo = async () => {
      await sources.deleteMany({ _id: { $in: inserted } });
      await removeChildren(inserted);
      for (const { id, textVersion, fileVersion } of staged) {
        await texts.remove(id, textVersion);
        if (fileVersion) await removeFile(id, fileVersion);
      }
    };
    try {
      for (const { chatbotId, id, text = '', file } of batch) {
        const written: (typeof staged)[number] = { id, textVersion: null };
        staged.push(written);
        written.textVersion = await texts.write(chatbotId, id, text);
        if (file) written.fileVersion = await writeFile(id, file);
      }
      try {
        const docs = batch.map((source, k) => ({ ...toDoc(source, staged[k]?.textVersion ?? null, staged[k]?.fileVersion), createdRevision: null }));
        await sources.insertMany(docs, { ordered: true, lean: true });
      } catch (error) {
        inserted = Object.values((error as { insertedIds?: Record<string, string> }).insertedIds ?? {});
        throw error;
      }
      inserted = batch.map((source) => source.id);
      await recordCreated(batch[0]?.chatbotId ?? '', inserted);
    } catch (error) {
      await undo();
      throw error;
    }
    return undo;
  }

  /**
   * Runs `write` (which answers how to undo it, or undefined when it wrote nothing) unless the
   * chatbot's sources would then hold more than the limit. The limit is checked before the write
   * and again after it until no other change moved the chatbot's revision counter in between (a
   * write within the limit moves it), so of racing writes the first to move it stands, and the
   * others count it; one refused after it landed is undone. The chatbot's writes of sources take
   * turns, each from its check to its undo (holds.ts): an undo puts back what the source was
   * before, and racing writes undone at once put back each other's, one a text another's undo had
   * removed.
   */
  function withinLimit(limit: CharLimit, write: () => Promise<(() => Promise<void>) | undefined>): Promise<OverCharLimit | undefined> {
    return holdingWrites(limit.chatbotId, () => limitedWrite(limit, write));
  }

  /** Runs `work` while the chatbot's source writes take turns with it. */
  function holdingWrites<T>(chatbotId: string, work: () => Promise<T>): Promise<T> {
    return whileHolding(models, `source-writes\u0000${chatbotId}`, WRITE_HOLD_MS, work);
  }

  async function limitedWrite(
    { chatbotId, chars, except, maxChars }: CharLimit,
    write: () => Promise<(() => Promise<void>) | undefined>,
  ): Promise<OverCharLimit | undefined> {
    if (maxChars === Infinity) {
      await write();
      return undefined;
    }
    const wouldHold = async () => (await charsHeld(chatbotId, except)) + chars;
    let revision = await revisionOf(chatbotId);
    const before = await wouldHold();
    if (before > maxChars) return { wouldHold: before };
    const undo = await write();
    if (!undo) return undefined;
    while (!(await moveRevision(chatbotId, revision))) {
      revision = await revisionOf(chatbotId);
      const held = await wouldHold();
      if (held > maxChars) {
        await undo();
        return { wouldHold: held, undone: true };
      }
    }
    return undefined;
  }

  // As SQLite's foreign key does, a deleted source takes no page. Pages are refused before their
  // write when their source is gone, and dropped after it when it was deleted meanwhile.
  const noSource = (sourceId: string, refused: string) => new Error(`source ${sourceId} does not exist: ${refused}`);
  async function refusePagesOfDeleted(sourceId: string, refused: string): Promise<void> {
    if (!(await sources.exists({ _id: sourceId }))) throw noSource(sourceId, refused);
  }
  async function dropPagesOfDeleted(sourceId: string, refused: string): Promise<never> {
    await sourcePages.deleteMany({ sourceId });
    throw noSource(sourceId, refused);
  }

  const repository: SourceRepository = {
    async insert(batch, maxChars = Infinity) {
      const [first] = batch;
      if (!first) return undefined;
      const except = batch.map((source) => source.id);
      return withinLimit({ chatbotId: first.chatbotId, chars: countedChars(batch), except, maxChars }, () => writeBatch(batch));
    },
    async insertWebsite(source, maxChars = Infinity, urls = [source.url ?? '']) {
      const { chatbotId } = source;
      const sameSite = () => sources.findOne({ chatbotId, type: 'website', url: { $in: urls } }, INTERNAL).sort({ createdAt: 1, _id: 1 }).lean<SourceDoc>();
      // Inserts of one chatbot's sources take turns, so no other adds the site between the check and the write.
      return holdingWrites(chatbotId, async () => {
        const existing = await sameSite();
        if (existing) return toSource(existing);
        return limitedWrite({ chatbotId, chars: countedChars([source]), except: [source.id], maxChars }, () => writeBatch([source]));
      });
    },
    async put(source, maxChars = Infinity) {
      const limit = { chars: source.chars, maxChars };
      let revision = 0;
      const fileVersion = source.file && (await writeFile(source.id, source.file));
      /** The version of the bytes the put replaces. */
      let displacedFile: string | null | undefined;
      const stored = await withTextWithinLimit(source.chatbotId, source.id, source.text ?? '', limit, async (textVersion = null) => {
        const { _id, createdAt, ...fields } = toDoc(source, textVersion, fileVersion);
        const before = await sources
          .findOneAndUpdate(
            { _id, chatbotId: source.chatbotId },
            { $set: fields, $setOnInsert: { createdAt, createdRevision: null }, $inc: { revision: 1 } },
            { upsert: true, returnDocument: 'before', projection: { claimedBy: 0, leaseUntil: 0 } },
          )
          .lean<SourceDoc>();
        if (!before) await recordCreated(source.chatbotId, [_id]);
        displacedFile = before?.fileVersion ?? null;
        // One on from the revision it had: none (0) when new, or stored before revisions were counted.
        revision = (before?.revision ?? 0) + 1;
        return { doc: { ...(before ?? { _id, createdAt }), ...fields, revision }, before };
      }).catch(async (error: unknown) => {
        if (fileVersion) await removeFile(source.id, fileVersion);
        throw error;
      });
      if (fileVersion) await removeFile(source.id, isOverCharLimit(stored) ? fileVersion : (displacedFile ?? null));
      if (isOverCharLimit(stored)) return stored;
      return { source: toSource(stored as SourceDoc), revision };
    },
    async correctQa(pair, maxChars = Infinity) {
      const { chatbotId, question, answer, title, chars, updatedAt } = pair;
      // The chatbot's source writes take turns, so no other stores a pair of the question between the look and the write.
      return holdingWrites(chatbotId, async () => {
        for (;;) {
          const pairs = await sources.find({ chatbotId, type: 'qa' }, { _id: 1, question: 1 }).sort({ createdAt: 1, _id: 1 }).lean<Pick<SourceDoc, '_id' | 'question'>[]>();
          const key = sameQuestionKey(question ?? '');
          const ids = pairs.filter((pair) => sameQuestionKey(pair.question ?? '') === key).map(({ _id }) => _id);
          const [kept, ...others] = ids;
          const limit = { chatbotId, chars: countedChars([pair]), except: [pair.id, ...ids], maxChars };
          if (!kept) return (await limitedWrite(limit, () => writeBatch([pair]))) ?? toSource(toDoc(pair, null));
          const written = await withTextWithinLimit(
            chatbotId,
            kept,
            pair.text ?? '',
            limit,
            (textVersion) => changeSource({ _id: kept, chatbotId }, changeWrite({ question, answer, title, chars, updatedAt }, textVersion)),
            limitedWrite,
          );
          if (written && isOverCharLimit(written)) return written;
          // Gone meanwhile (a delete does not wait its turn): look again.
          if (!written) continue;
          for (const id of others) await repository.delete(chatbotId, id);
          return toSource(written);
        }
      });
    },
    async find(chatbotId, id) {
      const doc = await sources.findOne({ _id: id, chatbotId }, INTERNAL).lean<SourceDoc>();
      return doc ? toSource(doc) : undefined;
    },
    async list(chatbotId) {
      const docs = await sources.find({ chatbotId }, INTERNAL).sort({ createdAt: 1, _id: 1 }).lean<SourceDoc[]>();
      return docs.map(toSource);
    },
    async update(chatbotId, id, change, expected, maxChars = Infinity) {
      const written = await withTextWithinLimit(chatbotId, id, change.text, changeLimit(change, maxChars), (textVersion) =>
        changeSource({ _id: id, chatbotId, ...expected }, changeWrite(change, textVersion)),
      );
      return written && (isOverCharLimit(written) ? written : toSource(written));
    },
    async delete(chatbotId, id) {
      const deleted = await sources.findOneAndDelete({ _id: id, chatbotId }, { projection: { textVersion: 1 } }).lean<Pick<SourceDoc, 'textVersion'>>();
      if (!deleted) return false;
      await removeChildren([id]);
      await texts.remove(id, deleted.textVersion);
      return true;
    },
    async text(chatbotId, id, limit) {
      const doc = await sources.findOne({ _id: id, chatbotId }, { type: 1, textVersion: 1 }).lean<Pick<SourceDoc, 'type' | 'textVersion'>>();
      if (!doc) return '';
      if (doc.type !== 'website') return (await texts.read(chatbotId, id, limit, { version: doc.textVersion ?? null })) ?? '';
      let text = '';
      for await (const page of sourcePages.find({ sourceId: id, status: 'read' }, { text: 1 }).sort({ seq: 1 }).lean<SourcePageDoc>()) {
        text += (text ? '\n\n' : '') + page.text;
        if (text.length >= limit) break;
      }
      return text.slice(0, limit);
    },
    async file(chatbotId, id) {
      const doc = await sources.findOne({ _id: id, chatbotId }, { fileVersion: 1 }).lean<Pick<SourceDoc, 'fileVersion'>>();
      if (!doc) return undefined;
      const parts = await sourceFileParts.find({ sourceId: id, version: doc.fileVersion ?? null }).sort({ part: 1 }).lean<{ data: { buffer: Uint8Array } | Buffer }[]>();
      if (parts.length === 0) return undefined;
      return Buffer.concat(parts.map(({ data }) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer))));
    },
    async totalChars(chatbotId, except) {
      return charsHeld(chatbotId, except === undefined ? [] : [except]);
    },
    async texts(chatbotId, id) {
      const doc = await sources
        .findOne({ _id: id, chatbotId }, { type: 1, title: 1, textVersion: 1 })
        .lean<Pick<SourceDoc, 'type' | 'title' | 'textVersion'>>();
      if (!doc) return [];
      const { type, title, textVersion } = doc;
      if (type !== 'website') {
        const text = await texts.read(chatbotId, id, Number.MAX_SAFE_INTEGER, { version: textVersion ?? null });
        return text === undefined ? [] : [{ ref: { id, title, type }, text }];
      }
      const pages = await sourcePages
        .find({ sourceId: id, status: 'read' }, { url: 1, title: 1, text: 1 })
        .sort({ seq: 1 })
        .lean<SourcePageDoc[]>();
      return pages.map((page): SourceText => ({ ref: { id, title: page.title || title, url: page.url, type }, text: page.text }));
    },
    async trainedSources(chatbotId) {
      // The material's runs are read before the sources: a source changed in between is chunked again.
      return trainedFromMaterial(
        async () => {
          const current = await material.runs(chatbotId);
          const docs = await sources
            .find({ chatbotId, status: { $in: ['ready', 'queued', 'processing'] } }, { status: 1, revision: 1, createdRevision: 1 })
            .sort({ createdAt: 1, _id: 1 })
            .lean<Pick<SourceDoc, '_id' | 'status' | 'revision' | 'createdRevision'>[]>();
          // A source stored before revisions were counted has none: revision 0, created at 0.
          const snapshot = docs.map(({ _id: id, status, revision = 0, createdRevision = 0 }) => ({ id, status, revision, createdRevision: createdRevision ?? Infinity }));
          return { ...current, sources: snapshot };
        },
        (version, run) => material.readRun(chatbotId, version, run),
        () => material.version(chatbotId),
      );
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
    async settle(id, claimedBy, change, maxChars = Infinity) {
      const held = { _id: id, claimedBy, status: 'processing' as const };
      const holder = await sources.findOne(held, { chatbotId: 1, leaseUntil: 1 }).lean<Pick<SourceDoc, 'chatbotId' | 'leaseUntil'>>();
      if (!holder) return undefined;
      const written = await withTextWithinLimit(holder.chatbotId, id, change.text, changeLimit(change, maxChars), async (textVersion) => {
        const done = await changeSource(held, changeWrite(change, textVersion, { claimedBy: null, leaseUntil: null }));
        // Undone, the source is held again: its holder settles it otherwise.
        return done && { ...done, before: done.before && { ...done.before, claimedBy, leaseUntil: holder.leaseUntil } };
      });
      return written && (isOverCharLimit(written) ? written : toSource(written));
    },
    async release(id, claimedBy) {
      await sources.updateOne({ _id: id, claimedBy }, { $set: { leaseUntil: new Date(0) } });
    },
    async planPages(sourceId, urls) {
      if (urls.length === 0) return 0;
      const refused = 'its pages are not planned';
      await refusePagesOfDeleted(sourceId, refused);
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
      if (added > 0 && !(await sources.exists({ _id: sourceId }))) await dropPagesOfDeleted(sourceId, refused);
      return added;
    },
    async nextPage(sourceId, afterSeq) {
      const doc = await sourcePages
        .findOne({ sourceId, status: 'planned', seq: { $gt: afterSeq } }, { seq: 1, url: 1 })
        .sort({ seq: 1 })
        .lean<SourcePageDoc>();
      return doc ? { seq: doc.seq, url: doc.url } : undefined;
    },
    async claimPageContent(sourceId, url, contentHash) {
      // The unique index on (sourceId, contentHash) decides: a page refused it finds the holder, unless
      // its pages were cleared meanwhile.
      for (;;) {
        try {
          await sourcePages.updateOne({ sourceId, url }, { $set: { contentHash } });
          return undefined;
        } catch (error) {
          if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
        }
        const holder = await sourcePages.findOne({ sourceId, contentHash }, { url: 1 }).lean<SourcePageDoc>();
        if (holder) return holder.url;
      }
    },
    async recordPage(sourceId, { url, title, status, chars, text, reason }) {
      const refused = `its page ${url} is not recorded`;
      await refusePagesOfDeleted(sourceId, refused);
      const outcome = { title, status, chars, text, reason: reason ?? null };
      const { matchedCount } = await sourcePages.updateOne({ sourceId, url }, { $set: outcome });
      if (matchedCount === 0) {
        await repository.planPages(sourceId, [url]);
        await sourcePages.updateOne({ sourceId, url }, { $set: outcome });
      }
      const pages = await repository.pageCounts(sourceId);
      // Its counts find no source: it was deleted meanwhile.
      if ((await sources.updateOne({ _id: sourceId }, { $set: { pages } })).matchedCount === 0) await dropPagesOfDeleted(sourceId, refused);
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
