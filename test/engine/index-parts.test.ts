import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { packIndex } from '../../src/engine/index-layout.js';
import { type IndexPart, joinSectionTerms, mergeIndexParts, readIndexPart, readSectionTerms, readSourceSections } from '../../src/engine/index-parts.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import { indexTerms } from '../../src/engine/lexicon.js';
import { wordHash } from '../../src/engine/text.js';
import { HALVED_FROM_CHARS, readSourceInHalves } from '../../src/engine/workers/read-in-halves.js';
import { buildIndexOffThread } from '../../src/engine/workers/training-jobs.js';
import type { Chunk, SourceRef } from '../../src/store/port.js';
import { documentText } from './eval/score.js';

// An index is each source's part read on its own, then merged; the training worker keeps the
// parts it read, so a change to one source reads that source alone again. Either way the index is
// the one reading everything at once gives.

const chunksOf = (text: string, source: SourceRef, from = 0): Chunk[] => chunkText(text).map((chunk, k) => ({ seq: from + k, text: chunk, source }));
const DOCUMENTS = ['bike-shop.md', 'clinic-faq.md', 'ferry-faq.md', 'handbook.md', 'thermostat-manual.md'];
const handbook: SourceRef = { id: 'handbook', title: 'Handbook', type: 'text' };
const bikes: SourceRef = { id: 'bikes', title: 'Bike shop', type: 'file' };
const qa: SourceRef = { id: 'qa-1', title: 'Do you open on Sundays?', type: 'qa' };

/** Each key and sentence of a part is indexed by its distinct indexTerms, in order. */
function expectIndexTerms(part: IndexPart): void {
  const termsOf = (terms: Int32Array, starts: Int32Array, k: number) => Array.from(terms.subarray(starts[k], starts[k + 1]), (id) => part.vocabulary[id]);
  part.sentences.forEach((sentence, k) => expect(termsOf(part.sentenceTerms, part.sentenceTermStart, k)).toEqual([...new Set(indexTerms(sentence))]));
  part.keys.forEach((key, k) => expect(termsOf(part.keyTerms, part.keyTermStart, k)).toEqual([...new Set(indexTerms(key))]));
}

describe('index parts', () => {
  it('numbers the terms where they first appear across the parts, and lists the sentences of every part holding one', () => {
    const index = mergeIndexParts([
      readIndexPart(JSON.stringify(qa), ['Do you open on Sundays?\nWe open on Sundays at noon.']),
      readIndexPart(undefined, ['The shop opens at nine. Bikes are repaired at noon.']),
    ]);
    const noon = index.vocabulary.indexOf('noon');
    const sentencesOf = (id: number) => Array.from(index.postings.subarray(index.postingStart[id], index.postingStart[id + 1]), (k) => index.sentences[k]);
    expect(sentencesOf(noon)).toEqual(['We open on Sundays at noon.', 'Bikes are repaired at noon.']);
    expect(index.vocabulary.indexOf('open')).toBeLessThan(index.vocabulary.indexOf('shop'));
    expect(Array.from(index.sectionSource)).toEqual([0, -1]);
    expect(index.sources).toEqual([JSON.stringify(qa)]);
  });

  it('merges one part as it merges it among others: its lists as they are, its source numbered', () => {
    const texts = [...chunkText(documentText('bike-shop.md')), 'The children paid for e-bikes; the children’s e-bikes were bought second-hand.'];
    const nothing = readIndexPart(undefined, []);
    expect(nothing.keys).toEqual([]);
    for (const source of [JSON.stringify(bikes), undefined]) {
      const part = readIndexPart(source, texts);
      const alone = mergeIndexParts([part]);
      expect(alone).toEqual(mergeIndexParts([part, nothing]));
      expect(alone).toEqual(mergeIndexParts([nothing, part]));
      expect(alone.sources).toEqual(source === undefined ? [] : [source]);
    }
  });

  it('indexes each key and sentence by its distinct indexTerms, in order', () => {
    const texts = [...chunkText(documentText('bike-shop.md')), ...chunkText(documentText('handbook.md')), 'The children paid for e-bikes; the children’s e-bikes were bought second-hand.'];
    const part = readIndexPart(undefined, texts);
    expect(part.sentences.length).toBeGreaterThan(60);
    expectIndexTerms(part);
  });

  it('indexes by indexTerms text that is not ASCII, and words of the same hash apart', () => {
    // Two words the part keeps by the same hash.
    expect(wordHash('cbuvkfk')).toBe(wordHash('qrwtgpw'));
    const texts = [
      'Cbuvkfk QRWTGPW cbuvkfk-qrwtgpw. İstanbul’s ΣΑΣ. ferries ran; the children’s e-bikes were bought.',
      'Straße STRASSE café CAFÉ naïve 東京 😀 x\u200by. The Ǆemal ﬁles: don’t panic!\n\n## Ωμέγα ΣΟΦΟΣ\n\nPaid qrwtgpw Cbuvkfk.',
    ];
    const part = readIndexPart(undefined, texts);
    expect(part.sentences.length).toBeGreaterThan(4);
    expectIndexTerms(part);
    expect(part.vocabulary).toEqual(expect.arrayContaining(['cbuvkfk', 'qrwtgpw', 'σας', 'straße', 'strass']));
  });

  it('builds on the worker, from kept parts, the index of reading everything at once, and reads a changed source again', async () => {
    const first = [...chunksOf(documentText('handbook.md'), handbook), ...chunksOf(documentText('bike-shop.md'), bikes, 1_000)];
    await buildIndexOffThread(first);
    const added = [...first, ...chunksOf('Do you open on Sundays?\nYes, from noon to four.', qa, 2_000)];
    expect(Buffer.from(await buildIndexOffThread(added)).equals(Buffer.from(packIndex(buildLexicalIndex(added))))).toBe(true);

    const changed = [...chunksOf(documentText('handbook.md').replace(/\bholiday/gi, 'vacation'), handbook), ...added.slice(-2)];
    const built = await buildIndexOffThread(changed);
    expect(Buffer.from(built).equals(Buffer.from(packIndex(buildLexicalIndex(changed))))).toBe(true);
    const search = lexicalSearcher(buildLexicalIndex(changed));
    expect(search('How many vacation days do I get?', 1)[0]?.source?.id).toBe('handbook');

    // Changed without changing its length: as many chunks and characters as the part kept.
    const sameLength = [...chunksOf(documentText('handbook.md').replace(/\bholiday/gi, 'leisure'), handbook), ...added.slice(-2)];
    const before = [...chunksOf(documentText('handbook.md'), handbook), ...added.slice(-2)];
    await buildIndexOffThread(before);
    expect(sameLength.map((chunk) => chunk.text.length)).toEqual(before.map((chunk) => chunk.text.length));
    expect(Buffer.from(await buildIndexOffThread(sameLength)).equals(Buffer.from(packIndex(buildLexicalIndex(sameLength))))).toBe(true);
  });

  it('builds the same index from a material posted to the worker in several slices', async () => {
    // Thousands of chunks, each of its own words, over three sources: more than one slice.
    const sources = [handbook, bikes, qa];
    const large = Array.from({ length: 2_500 }, (_, k): Chunk => ({ seq: k, text: `Parcel ${k} ships on day ${k % 7} from depot D${k}.`, source: sources[Math.floor((3 * k) / 2_500)] }));
    expect(Buffer.from(await buildIndexOffThread(large)).equals(Buffer.from(packIndex(buildLexicalIndex(large))))).toBe(true);
  });

  it('joins the terms of sections read in runs into the terms of reading them at once', () => {
    const sections = readSourceSections(DOCUMENTS.map((name) => documentText(name)));
    const whole = readSectionTerms(sections);
    for (const cuts of [[1], [sections.length >> 1], [3, 40, sections.length - 1], [sections.length]]) {
      const runs = [0, ...cuts, sections.length].slice(1).map((end, k, ends) => sections.slice(k === 0 ? 0 : ends[k - 1], end));
      expect(joinSectionTerms(runs.map(readSectionTerms))).toEqual(whole);
    }
  });

  it('reads a large source in halves on two threads, as one thread reads it whole', async () => {
    // Every document, its sentences renumbered as many times as it takes to make it large: parted
    // at a heading.
    const documents = Array.from({ length: 60 }, (_, k) => DOCUMENTS.map((name) => documentText(name).replace(/\.(\s)/g, ` ${k}.$1`)).join('\n\n')).join('\n\n');
    // Paragraphs alone: parted anywhere, the second half reads as from a text's start.
    const paragraphs = documents.replace(/^#+ .*$/gm, '').replace(/^.*\?$/gm, '');
    // One title over paragraphs with no other until a paragraph past the middle, on its second
    // line: the second half belongs to the first half's section, so the halves do not read alike
    // and the first thread reads on.
    const paragraph = (k: number) => `Depot ${k % 7} ships parcel ${k} on day ${k % 5}. It keeps a record of each parcel it ships, and its number.`;
    const underOneTitle = ['Handbook', ...Array.from({ length: 6_000 }, (_, k) => (k === 3_100 ? `${paragraph(k)}\n## Returns` : paragraph(k)))].join('\n\n');
    for (const text of [documents, paragraphs, underOneTitle]) {
      const texts = chunkText(text);
      expect(text.length).toBeGreaterThan(HALVED_FROM_CHARS);
      const sections = readSourceSections(texts);
      expect(await readSourceInHalves(texts)).toEqual({ sections, terms: readSectionTerms(sections) });
    }
    const chunks = chunksOf(documents, handbook);
    expect(Buffer.from(await buildIndexOffThread(chunks)).equals(Buffer.from(packIndex(buildLexicalIndex(chunks))))).toBe(true);
  });
});
