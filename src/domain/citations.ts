import type { Passage } from '../engine/lexical-index.js';
import type { MessageSource } from '../store/port.js';

// Which sources an answer drew on, for its citations. The offline responder quotes sentences of
// its passages, so the passages it quoted are the ones used. A model reads every passage of its
// prompt, so those that ranked near the best are: the others were retrieved only to fill it.
// A web page is cited once, by the best-ranked source that read it: two crawls of one site (a
// whole site and its changelog, say) both hold its pages, and a reader sees one page.

/** A passage a model read counts as used when it scores at least this share of the best one. */
const MODEL_CITED_SHARE = 0.5;

export function citedSources(passages: Passage[], reply: string, responder: 'offline' | 'model'): MessageSource[] {
  const best = Math.max(0, ...passages.map((passage) => passage.score));
  const used =
    responder === 'offline'
      ? passages.filter((passage) => quoted(passage, reply))
      : passages.filter((passage) => passage.score >= best * MODEL_CITED_SHARE);
  const cited = new Map<string, MessageSource>();
  for (const { source } of used) {
    if (!source) continue;
    const key = source.url ?? source.id;
    if (!cited.has(key)) cited.set(key, { id: source.id, title: source.title, ...(source.url ? { url: source.url } : {}) });
  }
  return [...cited.values()];
}

function quoted(passage: Passage, reply: string): boolean {
  const sentences = passage.sentences.length > 0 ? passage.sentences.map((sentence) => sentence.text) : [passage.text];
  return sentences.some((sentence) => sentence.trim().length > 0 && reply.includes(sentence.trim()));
}
