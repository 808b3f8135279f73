import { MAX_ANSWER_CHARS, MAX_QUESTION_CHARS } from '../../../src/domain/qa-limits.js';
import { call, callData, explained, send } from '../api.js';
import type { Source } from '../types.js';

// Adding sources: files (multipart, one `file` part each) and websites, which answer 202 with the
// queued sources the list then follows, and texts and questions, ready once added. The API refuses
// bad input with the contract's bare "Invalid request data" (and a full chatbot with "Access
// denied or quota exceeded"); here each refusal says what to change instead.

export const sourcesPath = (chatbotId: string) => `/chatbots/${encodeURIComponent(chatbotId)}/sources`;

/** Files in one upload, as the API takes them. */
export const MAX_FILES = 10;

export const FULL = 'This chatbot’s sources already hold as much text as the hub allows (SOURCES_MAX_CHARS_PER_CHATBOT): delete or shorten a source first.';

export function uploadFiles(base: string, files: readonly File[]): Promise<Source[]> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  return explained(callData<Source[]>('POST', base, form), {
    400: `The hub refused the upload, so none of its files was added: send at most ${MAX_FILES} files at once, each a PDF, Word (DOCX), Markdown, HTML or plain text file (judged by its content, not its name) within the hub’s size limit (20 MB unless SOURCES_MAX_FILE_MB sets another).`,
    403: FULL,
  });
}

/** A website source added, or (`known`, 200) the chatbot's source of that site, crawled again. */
export async function addWebsite(base: string, url: string, maxPages: number): Promise<{ source: Source; known: boolean }> {
  const response = await explained(call('POST', base, { type: 'website', url, maxPages }), {
    400: 'The hub refused the address: give a web address starting with http:// or https://, without a user name or password.',
    403: FULL,
  });
  return { source: ((await response.json()) as { data: Source }).data, known: response.status === 200 };
}

export const TEXT_REFUSED = { 400: 'The hub refused the text: it needs a text that is not blank, of at most 12 million characters, and a title of at most 300.', 403: FULL };
export const QUESTION_REFUSED = {
  400: `The hub refused the question: it needs a question of at most ${MAX_QUESTION_CHARS.toLocaleString('en')} characters and an answer of at most ${MAX_ANSWER_CHARS.toLocaleString('en')}, neither blank.`,
  403: FULL,
};

export function addText(base: string, title: string, text: string): Promise<Source> {
  return explained(callData<Source>('POST', base, { type: 'text', text, ...(title && { title }) }), TEXT_REFUSED);
}

export function addQuestion(base: string, question: string, answer: string): Promise<Source> {
  return explained(callData<Source>('POST', base, { type: 'qa', question, answer }), QUESTION_REFUSED);
}

export async function refreshSource(base: string, sourceId: string): Promise<void> {
  await send('POST', `${base}/${encodeURIComponent(sourceId)}/refresh`);
}

/** The default number of pages a crawl reads, as the API's. */
export const DEFAULT_MAX_PAGES = 50;
export const MAX_PAGES = 1_000;
