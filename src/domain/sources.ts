import { randomUUID } from 'node:crypto';
import { nanoid } from 'nanoid';
import { chunkSourcesOffThread, type NamedChunks } from '../engine/workers/training-jobs.js';
import { refusedDestination, type AddressRule } from '../net/address-rule.js';
import { normaliseUrl, sameHostSpellings } from '../sources/crawl/index.js';
import { CONTENT_TYPES, sniffFileKind, unpackedXmlBytes } from '../sources/extract/index.js';
import {
  apiTextSource,
  apiTextSourceId,
  INSERTED_REVISION,
  isOverCharLimit,
  type Account,
  type NewSource,
  type OverCharLimit,
  type Source,
  type SourceChange,
  type SourceChunk,
  type SourcePage,
  type SourceRun,
  type Store,
} from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { accessDenied, invalidRequest, notFound } from './errors.js';

// A chatbot's knowledge sources, and its material built from them: the union of its ready
// sources' passages, each tagged with its source. Every change retrains before it answers, so
// once a call returns, answers use what it added and no longer what it removed. Each source is
// chunked once per text: the material records the revision of the text each source's chunks were
// made from, and the next training takes them from there, so a change chunks the changed source
// alone; a source being read again (refreshed) trains with the chunks of its last reading, which
// the material holds, until it is done.

export type SourceLimits = {
  /** SOURCES_MAX_CHARS_PER_CHATBOT: the characters of a chatbot's sources together. */
  maxCharsPerChatbot: number;
  /** SOURCES_MAX_FILE_MB, in bytes: a larger file is refused up front. */
  maxFileBytes: number;
};

/**
 * The sources' settings: their limits, whether websites may be on private addresses
 * (SOURCES_ALLOW_PRIVATE), and the memory and time reading one file may take (SOURCES_MAX_READ_MEMORY_MB, in
 * bytes; SOURCES_MAX_READ_SECONDS, in milliseconds).
 */
export type SourceSettings = SourceLimits & { allowPrivate: boolean; maxReadMemoryBytes: number; maxReadMs: number };

export const DEFAULT_MAX_CHARS_PER_CHATBOT = 50_000_000;
export const DEFAULT_MAX_FILE_MB = 20;
export const DEFAULT_SOURCE_LIMITS: SourceLimits = {
  maxCharsPerChatbot: DEFAULT_MAX_CHARS_PER_CHATBOT,
  maxFileBytes: DEFAULT_MAX_FILE_MB * 1024 * 1024,
};

/** How much of a source's text its detail shows. */
export const SHOWN_TEXT_CHARS = 200_000;

export const qaText = (question: string, answer: string) => `${question}\n${answer}`;

/**
 * Rebuilds the chatbot's material from its sources' chunks in the current material, chunking (off
 * the event loop) those whose text changed, each run recorded with the revision of its text. Of
 * concurrent rebuilds, the one that read the sources last wins: the store refuses older material.
 */
export async function trainFromSources(store: Store, chatbotId: string, chunked?: ChunkedAhead): Promise<void> {
  const revision = await store.sources.nextRevision(chatbotId);
  const chunks: SourceChunk[] = [];
  const runs: SourceRun[] = [];
  for (const { id, revision: textRevision, chunks: trained, chunksId } of await store.sources.trainedSources(chatbotId)) {
    const ahead = chunked?.id === id && chunked.revision === textRevision ? chunked.chunks : undefined;
    // Chunks of a run recorded before runs named them are named now.
    const own = trained ? { chunks: trained, chunksId: chunksId ?? randomUUID() } : await (ahead ?? chunkSourcesOffThread(await store.sources.texts(chatbotId, id)));
    runs.push({ id, revision: textRevision, count: own.chunks.length, chunksId: own.chunksId });
    for (const chunk of own.chunks) chunks.push(chunk);
  }
  await store.training.replace(chatbotId, { chunks, revision, runs });
}

/** A source's text chunked while it was stored, good for the revision it was stored at. */
type ChunkedAhead = { id: string; revision: number; chunks: Promise<NamedChunks> };

/**
 * The source's text chunked off the event loop while it is stored, as training would chunk it
 * after (it is good for the revision the store answers): the worker starts reading it for the
 * index sooner, and training reads no text back.
 */
function chunkAhead({ id, title, type }: Source, text: string): Promise<NamedChunks> {
  const chunks = chunkSourcesOffThread([{ ref: { id, title, type }, text }]);
  chunks.catch(() => {}); // Unused when the write fails: then its failure is nobody's concern.
  return chunks;
}

export async function listSources(store: Store, account: Account, chatbotId: string): Promise<Source[]> {
  await findOwnedChatbot(store, account, chatbotId);
  return store.sources.list(chatbotId);
}

export type SourceDetail = { source: Source; text: string; pageList?: Omit<SourcePage, 'text'>[] };

/** The source with the first SHOWN_TEXT_CHARS characters of its text, and a website's pages. */
export async function findSource(store: Store, account: Account, chatbotId: string, sourceId: string): Promise<SourceDetail> {
  const source = await ownedSource(store, account, chatbotId, sourceId);
  const text = await store.sources.text(chatbotId, sourceId, SHOWN_TEXT_CHARS);
  if (source.type !== 'website') return { source, text };
  return { source, text, pageList: await store.sources.pageList(chatbotId, sourceId) };
}

/**
 * Files to read, all or none: each judged by its content (PDF, DOCX, Markdown, HTML or plain
 * text, else refused) and its size (a DOCX's unpacked as well), and stored queued with its bytes
 * and that type, created in the order given; the sources job reads them.
 */
export async function addFileSources(
  store: Store,
  account: Account,
  chatbotId: string,
  files: { filename: string; bytes: Buffer }[],
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<Source[]> {
  await findOwnedChatbot(store, account, chatbotId);
  const judged: { filename: string; bytes: number; contentType: string }[] = [];
  for (const { filename: sent, bytes } of files) {
    const filename = fileName(sent);
    if (bytes.length > limits.maxFileBytes) throw invalidRequest(`${filename} is over ${limits.maxFileBytes} bytes`);
    const kind = sniffFileKind(bytes);
    if (!kind) throw invalidRequest(`${filename} is not a PDF, DOCX, Markdown, HTML or text file`);
    // The limit holds for what a DOCX unpacks to, which is what extraction reads.
    const unpacked = kind === 'docx' ? ((await unpackedXmlBytes(bytes)) ?? 0) : 0;
    if (unpacked > limits.maxFileBytes) throw invalidRequest(`${filename} unpacks to ${unpacked} bytes of XML, over ${limits.maxFileBytes} bytes`);
    judged.push({ filename, bytes: bytes.length, contentType: CONTENT_TYPES[kind] });
  }
  // A millisecond apart, so the list (oldest first) keeps the upload's order, not its ids'.
  const now = Date.now();
  const sources = judged.map((file, k): Source => ({ ...queued(chatbotId, 'file', file.filename, new Date(now + k)), ...file }));
  await insertWithinCharLimit(store, sources.map((source, k) => ({ ...source, file: files[k]?.bytes })), limits);
  return sources;
}

/** Characters of a file's name at most. */
const MAX_FILENAME_CHARS = 255;

/**
 * An uploaded file's name as a source keeps and shows it: its base name (after the last `/` or
 * `\\`, so no client's path shows), without control characters or the marks that reorder text
 * (which can disguise a name's extension), at most MAX_FILENAME_CHARS characters, and `file` when
 * nothing is left.
 */
function fileName(sent: string): string {
  const base = sent.slice(Math.max(sent.lastIndexOf('/'), sent.lastIndexOf('\\')) + 1);
  const shown = Array.from(base.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, '').trim())
    .slice(0, MAX_FILENAME_CHARS)
    .join('')
    .trim();
  return shown === '' || shown === '.' || shown === '..' ? 'file' : shown;
}

/** A website source: a new one (`known` false), or the chatbot's source of that site already. */
export type AddedWebsite = { source: Source; known: boolean };

/**
 * A website to crawl from `url` (on its host, at most `maxPages` pages); the sources job crawls it.
 * A site the chatbot has a source of already (the same URL once normalised) is not added twice:
 * that source is crawled again, with this `maxPages`, as a refresh would (one being read is left
 * to finish). Racing adds of one site make one source. A site on an address the rule refuses is
 * refused up front, as a webhook's receiver is; the crawl checks again on connecting.
 */
export async function addWebsiteSource(
  store: Store,
  account: Account,
  chatbotId: string,
  input: { url: string; maxPages: number },
  limits: SourceLimits,
  rule: AddressRule,
): Promise<AddedWebsite> {
  await findOwnedChatbot(store, account, chatbotId);
  const url = normaliseUrl(input.url);
  if (!url) throw invalidRequest(`${input.url} is not an http or https URL`);
  const refused = await refusedDestination(new URL(url), rule);
  if (refused) throw invalidRequest(`website url refused: ${refused}`);
  const source: Source = {
    ...queued(chatbotId, 'website', url, new Date()),
    url,
    maxPages: input.maxPages,
    pages: { done: 0, failed: 0, total: 0 },
  };
  // Its start page under another spelling (the "www." twin, the other scheme) is that site: its pages would be crawled twice.
  const added = await store.sources.insertWebsite(source, limits.maxCharsPerChatbot, sameHostSpellings(url));
  const known = await withinCharLimit(store, chatbotId, limits, added);
  return known ? { source: await readAgain(store, known, { maxPages: input.maxPages }), known: true } : { source, known: false };
}

/**
 * Reads a file again or crawls a website again; one being read already is left to finish. Until
 * it is done, answers use the chunks of its last reading, which the material holds.
 */
export async function refreshSource(store: Store, account: Account, chatbotId: string, sourceId: string): Promise<Source> {
  const source = await ownedSource(store, account, chatbotId, sourceId);
  if (source.type !== 'file' && source.type !== 'website') throw invalidRequest(`a ${source.type} source is not refreshed`);
  return readAgain(store, source);
}

/** Queues a file or website source to be read again, with `change`, unless it is being read. */
async function readAgain(store: Store, source: Source, change: Pick<SourceChange, 'maxPages'> = {}): Promise<Source> {
  if (source.status === 'queued' || source.status === 'processing') return source;
  // The crawl starts afresh (its pages cleared before it may be claimed); what the pages read
  // last time hold is in the material's chunks.
  if (source.type === 'website') await store.sources.clearPages(source.id);
  const pages = source.type === 'website' ? { pages: { done: 0, failed: 0, total: 0 } } : {};
  const refreshed = await store.sources.update(source.chatbotId, source.id, { status: 'queued', error: null, ...pages, ...change, updatedAt: new Date() });
  // A change without chars is never over the limit.
  if (!refreshed || isOverCharLimit(refreshed)) throw notFound(`source ${source.id}`);
  return refreshed;
}

function queued(chatbotId: string, type: 'file' | 'website', title: string, now: Date): Source {
  return { id: nanoid(), chatbotId, type, title, status: 'queued', error: null, chars: 0, createdAt: now, updatedAt: now };
}

export async function addTextSource(
  store: Store,
  account: Account,
  chatbotId: string,
  input: { title: string; text: string },
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<Source> {
  return addReadySource(store, account, chatbotId, { type: 'text', title: input.title }, input.text, limits);
}

type QaPair = { question: string; answer: string };

const qaFields = ({ question, answer }: QaPair) => ({ type: 'qa' as const, title: question, question, answer });

/** A question with its answer, which the chatbot gives when asked that question or one like it. */
export async function addQaSource(
  store: Store,
  account: Account,
  chatbotId: string,
  input: QaPair,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<Source> {
  return addReadySource(store, account, chatbotId, qaFields(input), qaText(input.question, input.answer), limits);
}

/**
 * The owner's correction of the answer to a question (a resolved unanswered question, a revised
 * answer): the new answer of the chatbot's Q&A pair with that very question, or a new pair. The
 * store decides which with its write, so racing corrections of a new question make one pair; and
 * it deletes the other pairs of that question (made before it decided so), whose answers might be
 * given instead of the correction.
 */
export async function correctQaAnswer(store: Store, account: Account, chatbotId: string, input: QaPair, limits = DEFAULT_SOURCE_LIMITS): Promise<Source> {
  await findOwnedChatbot(store, account, chatbotId);
  const text = qaText(input.question, input.answer);
  const pair = { ...readySource(chatbotId, qaFields(input), text), text };
  const corrected = await withinCharLimit(store, chatbotId, limits, await store.sources.correctQa(pair, limits.maxCharsPerChatbot));
  await trainFromSources(store, chatbotId);
  return corrected;
}

type ReadyFields = Pick<Source, 'type' | 'title' | 'question' | 'answer'>;

function readySource(chatbotId: string, fields: ReadyFields, text: string): Source {
  const now = new Date();
  return { id: nanoid(), chatbotId, ...fields, status: 'ready', error: null, chars: text.length, createdAt: now, updatedAt: now };
}

async function addReadySource(
  store: Store,
  account: Account,
  chatbotId: string,
  fields: ReadyFields,
  text: string,
  limits: SourceLimits,
): Promise<Source> {
  await findOwnedChatbot(store, account, chatbotId);
  const source = readySource(chatbotId, fields, text);
  const chunks = chunkAhead(source, text);
  await insertWithinCharLimit(store, [{ ...source, text }], limits);
  await trainFromSources(store, chatbotId, { id: source.id, revision: INSERTED_REVISION, chunks });
  return source;
}

export type SourcePatch = { title?: string; text?: string; question?: string; answer?: string };

/**
 * Edits a text source (title, text) or a qa source (question, answer); other types are refused. A
 * Q&A edit keeps what it does not change, even when another edit lands in between: its write
 * expects the question and answer it read, and is made again over the other edit when they moved.
 */
export async function updateSource(
  store: Store,
  account: Account,
  chatbotId: string,
  sourceId: string,
  patch: SourcePatch,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<Source> {
  for (;;) {
    const source = await ownedSource(store, account, chatbotId, sourceId);
    const change = sourceChange(source, patch);
    if (change.text !== undefined) change.chars = change.text.length;
    const { question, answer } = source;
    const expected = question !== undefined && answer !== undefined ? { question, answer } : undefined;
    const updated = await withinCharLimit(store, chatbotId, limits, await store.sources.update(chatbotId, sourceId, change, expected, limits.maxCharsPerChatbot));
    if (updated) {
      await trainFromSources(store, chatbotId);
      return updated;
    }
  }
}

function sourceChange(source: Source, patch: SourcePatch): SourceChange {
  const change: SourceChange = { updatedAt: new Date() };
  if (source.type === 'text') {
    if (patch.question !== undefined || patch.answer !== undefined) throw invalidRequest('a text source has no question or answer');
    change.title = patch.title;
    change.text = patch.text;
  } else if (source.type === 'qa') {
    if (patch.title !== undefined || patch.text !== undefined) throw invalidRequest('a qa source is edited by its question and answer');
    change.question = patch.question ?? source.question ?? '';
    change.answer = patch.answer ?? source.answer ?? '';
    change.title = change.question;
    change.text = qaText(change.question, change.answer);
  } else {
    throw invalidRequest(`a ${source.type} source cannot be edited`);
  }
  return change;
}

/** Removes the source; once this returns, answers no longer use it. */
export async function deleteSource(store: Store, account: Account, chatbotId: string, sourceId: string): Promise<void> {
  await findOwnedChatbot(store, account, chatbotId);
  if (!(await store.sources.delete(chatbotId, sourceId))) throw notFound(`source ${sourceId}`);
  await trainFromSources(store, chatbotId);
}

/**
 * The v1 `sourceText`: the chatbot's one text source titled `API text`, replaced whole (or removed,
 * when empty or white space alone, as the sources API takes no blank text); the other sources stay. Retrains.
 */
export async function replaceApiText(
  store: Store,
  chatbotId: string,
  text: string,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<void> {
  if (text.trim() === '') {
    await store.sources.delete(chatbotId, apiTextSourceId(chatbotId));
    await trainFromSources(store, chatbotId);
    return;
  }
  const source = apiTextSource(chatbotId, text, new Date());
  const chunks = chunkAhead(source, text);
  const { revision } = await withinCharLimit(store, chatbotId, limits, await store.sources.put(source, limits.maxCharsPerChatbot));
  await trainFromSources(store, chatbotId, { id: source.id, revision, chunks });
}

async function ownedSource(store: Store, account: Account, chatbotId: string, sourceId: string): Promise<Source> {
  await findOwnedChatbot(store, account, chatbotId);
  const source = await store.sources.find(chatbotId, sourceId);
  if (!source) throw notFound(`source ${sourceId} of chatbot ${chatbotId}`);
  return source;
}

/**
 * The store's answer to a write made within the character limit, or 403 when the store refused
 * it: the store checks with the write, so concurrent writes never pass the limit together. A
 * write undone after it landed (MongoDB) was visible meanwhile, to a training too: the material
 * is rebuilt from what stands before the refusal is answered, so no answer quotes it.
 */
async function withinCharLimit<T>(store: Store, chatbotId: string, limits: SourceLimits, answer: T | OverCharLimit): Promise<T> {
  if (answer && isOverCharLimit(answer)) {
    if (answer.undone) await trainFromSources(store, chatbotId);
    throw accessDenied(`chatbot ${chatbotId} would hold ${answer.wouldHold} characters of sources, over ${limits.maxCharsPerChatbot}`);
  }
  return answer;
}

/** Stores new sources of one chatbot within the character limit, each counted as at least one character. */
async function insertWithinCharLimit(store: Store, sources: NewSource[], limits: SourceLimits): Promise<void> {
  await withinCharLimit(store, sources[0]?.chatbotId ?? '', limits, await store.sources.insert(sources, limits.maxCharsPerChatbot));
}
