import { describe, expect, it } from 'vitest';
import { chunkPassages, chunkText, passageBlocks } from '../../src/engine/chunking.js';
import { packIndex } from '../../src/engine/index-layout.js';
import { type IndexPart, joinSectionTerms, mergeIndexParts, readIndexPart, readSourceSections, type SectionTerms, sourceReading, type SourceReading } from '../../src/engine/index-parts.js';
import type { Section } from '../../src/engine/structure.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import { indexTerms } from '../../src/engine/lexicon.js';
import { PLACE_TERM } from '../../src/engine/place-stated.js';
import { wordHash } from '../../src/engine/text.js';
import { PIECE_CHARS, readSourceInPieces } from '../../src/engine/workers/read-in-pieces.js';
import { buildIndexOffThread, chunkSourcesOffThread, keptIndexOffThread } from '../../src/engine/workers/training-jobs.js';
import type { Chunk, MaterialRun, SourceRef } from '../../src/store/port.js';
import { documentText } from './eval/score.js';

// An index is each source's part read on its own, then merged; the training worker keeps the
// parts it read under the name of their chunks, so a change to one source reads that source alone
// again. Either way the index is
// the one reading everything at once gives.

const chunksOf = (text: string, source: SourceRef, from = 0): Chunk[] => chunkText(text).map((chunk, k) => ({ seq: from + k, text: chunk, source }));
const DOCUMENTS = ['bike-shop.md', 'clinic-faq.md', 'ferry-faq.md', 'handbook.md', 'thermostat-manual.md'];
const handbook: SourceRef = { id: 'handbook', title: 'Handbook', type: 'text' };
const bikes: SourceRef = { id: 'bikes', title: 'Bike shop', type: 'file' };
const qa: SourceRef = { id: 'qa-1', title: 'Do you open on Sundays?', type: 'qa' };
const bytesOf = (index: Uint8Array | undefined) => index && Buffer.from(index);

/** The material's runs, one a source, each naming its chunks by the next of `names`. */
function runsOf(chunks: Chunk[], ...names: string[]): MaterialRun[] {
  const runs: MaterialRun[] = [];
  chunks.forEach(({ source }, seq) => {
    const last = runs.at(-1);
    if (last && last.id === source?.id) last.end = seq + 1;
    else runs.push({ id: source?.id ?? '', revision: 0, start: seq, end: seq + 1, chunksId: names[runs.length] as string });
  });
  return runs;
}

/** A reading with its sentences' bytes as one string: toEqual compares a buffer byte by byte, a minute for a large source's. */
const comparable = ({ sentences, ...reading }: SourceReading) => ({ ...reading, sentences: sentences.bytes.toString('latin1', sentences.starts[0], sentences.starts.at(-1)), starts: sentences.starts });

/** Each key and sentence of a part is indexed by its distinct indexTerms, in order. */
function expectIndexTerms(part: IndexPart): void {
  const termsOf = (terms: Int32Array, starts: Int32Array, k: number) => Array.from(terms.subarray(starts[k], starts[k + 1]), (id) => part.vocabulary[id]);
  Array.from({ length: part.sentences.length }, (_, k) => part.sentences.at(k) as string).forEach((sentence, k) => expect(termsOf(part.sentenceTerms, part.sentenceTermStart, k)).toEqual([...new Set(indexTerms(sentence))]));
  part.keys.forEach((key, k) => expect(termsOf(part.keyTerms, part.keyTermStart, k)).toEqual([...new Set(indexTerms(key))]));
}

describe('index parts', () => {
  it('numbers the terms where they first appear across the parts, and lists the sentences of every part holding one', () => {
    const index = mergeIndexParts([
      readIndexPart(JSON.stringify(qa), ['Do you open on Sundays?\nWe open on Sundays at noon.']),
      readIndexPart(undefined, ['The shop opens at nine. Bikes are repaired at noon.']),
    ]);
    const noon = index.vocabulary.indexOf('noon');
    const sentencesOf = (id: number) => Array.from(index.postings.subarray(index.postingStart[id], index.postingStart[id + 1]), (k) => index.sentences.at(k));
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
    const texts = [
      ...chunkText(documentText('bike-shop.md')),
      ...chunkText(documentText('handbook.md')),
      'The children paid for e-bikes; the children’s e-bikes were bought second-hand.',
      // Read from their bytes, but for what may hold an address and what is not ASCII: read as strings.
      "Write to hello@lumen-lamps.example about O'Neil's lamps. See www.lumen.example, e.g. the lamps page. Lamps’ prices drop.",
      // Sentences stating where a business is (place-stated.ts), read from bytes and as strings alike.
      'Nordlys is at Storgata 41, 0182 Oslo. Find us at Königstraße 12. Address: Gaiety Quay, Cork T12 XK47. We are located in the old town.',
    ];
    const part = readIndexPart(undefined, texts);
    expect(part.sentences.length).toBeGreaterThan(60);
    expectIndexTerms(part);
    const placed = part.vocabulary.indexOf(PLACE_TERM);
    expect(Array.from(part.sentenceTerms).filter((id) => id === placed).length).toBeGreaterThanOrEqual(6);
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
    // Accents and ß are folded: "café" and "CAFÉ" are "cafe", "Straße" is "strasse".
    expect(part.vocabulary).toEqual(expect.arrayContaining(['cbuvkfk', 'qrwtgpw', 'σας', 'strass', 'cafe']));
    expect(part.vocabulary).not.toContain('straße');
  });

  it('builds on the worker, from what it kept of named chunks, the index of reading everything at once, and reads a changed source again', async () => {
    const first = [...chunksOf(documentText('handbook.md'), handbook), ...chunksOf(documentText('bike-shop.md'), bikes, 1_000)];
    await buildIndexOffThread(first, runsOf(first, 'handbook-1', 'bikes-1'));
    const added = [...first, ...chunksOf('Do you open on Sundays?\nYes, from noon to four.', qa, 2_000)];
    // The Q&A is read now; the others are kept.
    expect(await keptIndexOffThread(runsOf(added, 'handbook-1', 'bikes-1', 'qa-1'))).toBeUndefined();
    expect(bytesOf(await buildIndexOffThread(added, runsOf(added, 'handbook-1', 'bikes-1', 'qa-1')))).toEqual(bytesOf(packIndex(buildLexicalIndex(added))));
    expect(bytesOf(await keptIndexOffThread(runsOf(added, 'handbook-1', 'bikes-1', 'qa-1')))).toEqual(bytesOf(packIndex(buildLexicalIndex(added))));

    const changed = [...chunksOf(documentText('handbook.md').replace(/\bholiday/gi, 'vacation'), handbook), ...added.filter(({ source }) => source !== handbook)];
    const built = await buildIndexOffThread(changed, runsOf(changed, 'handbook-2', 'bikes-1', 'qa-1'));
    expect(bytesOf(built)).toEqual(bytesOf(packIndex(buildLexicalIndex(changed))));
    const search = lexicalSearcher(buildLexicalIndex(changed));
    expect(search('How many vacation days do I get?', 1)[0]?.source?.id).toBe('handbook');
  });

  it('keeps what it read of chunks under their name, and reads them no more: the name alone stands for them', async () => {
    const hours = chunksOf('We open at nine.', handbook);
    await buildIndexOffThread(hours, runsOf(hours, 'hours-1'));
    // Other texts under the same name: what was read under it is used, as they are not read.
    const other = chunksOf('We close at five.', handbook);
    expect(bytesOf(await buildIndexOffThread(other, runsOf(other, 'hours-1')))).toEqual(bytesOf(packIndex(buildLexicalIndex(hours))));
    // Unnamed, they are read.
    expect(bytesOf(await buildIndexOffThread(other))).toEqual(bytesOf(packIndex(buildLexicalIndex(other))));
    // A material with a run recorded before runs named their chunks is built from its chunks.
    expect(await keptIndexOffThread([{ id: handbook.id, revision: 0, start: 0, end: hours.length }])).toBeUndefined();
  });

  it('reads the chunks it makes at once, under their name: their index needs the name alone', async () => {
    // A source's texts read as one run of its chunks, one of nothing but white space (no chunk) among them.
    const texts = [
      { ref: handbook, text: documentText('handbook.md') },
      { ref: handbook, text: ' \n\n\t' },
      { ref: handbook, text: documentText('clinic-faq.md') },
      { ref: { ...bikes, type: 'website' as const, url: 'https://bikes.example/' }, text: documentText('bike-shop.md') },
    ];
    const { chunksId, chunks } = await chunkSourcesOffThread(texts);
    const material = chunks.map((chunk, seq) => ({ ...chunk, seq }));
    expect(chunks.map((chunk) => chunk.text)).toEqual(texts.flatMap(({ text }) => chunkText(text)));
    const run = { id: handbook.id, revision: 0, start: 0, end: chunks.length, chunksId };
    expect(bytesOf(await keptIndexOffThread([run]))).toEqual(bytesOf(packIndex(buildLexicalIndex(material))));
    expect((await chunkSourcesOffThread(texts)).chunksId).not.toBe(chunksId);
  });

  it('builds the same index from a material posted to the worker in several slices', async () => {
    // Thousands of chunks, each of its own words, over three sources: more than one slice.
    const sources = [handbook, bikes, qa];
    const large = Array.from({ length: 2_500 }, (_, k): Chunk => ({ seq: k, text: `Parcel ${k} ships on day ${k % 7} from depot D${k}.`, source: sources[Math.floor((3 * k) / 2_500)] }));
    const index = bytesOf(packIndex(buildLexicalIndex(large)));
    expect(bytesOf(await buildIndexOffThread(large))).toEqual(index);
    // Named, each source's slices are read as one run and kept.
    const runs = runsOf(large, 'parcels-1', 'parcels-2', 'parcels-3');
    expect(bytesOf(await buildIndexOffThread(large, runs))).toEqual(index);
    expect(bytesOf(await keptIndexOffThread(runs))).toEqual(index);
  });

  it('joins the terms of sections read in runs into the terms of reading them at once', () => {
    const sections = readSourceSections(DOCUMENTS.map((name) => documentText(name)));
    const termsOf = (run: Section[]): SectionTerms => {
      const { vocabulary, keyTerms, keyTermStart, sentenceTerms, sentenceTermStart } = sourceReading(run);
      return { vocabulary, keyTerms, keyTermStart, sentenceTerms, sentenceTermStart };
    };
    const whole = termsOf(sections);
    for (const cuts of [[1], [sections.length >> 1], [3, 40, sections.length - 1], [sections.length]]) {
      const runs = [0, ...cuts, sections.length].slice(1).map((end, k, ends) => sections.slice(k === 0 ? 0 : ends[k - 1], end));
      expect(joinSectionTerms(runs.map(termsOf))).toEqual(whole);
    }
  });

  // Reading four large texts 20 times over takes its time.
  it('reads a large source in pieces on several threads, as one thread reads it whole', { timeout: 90_000 }, async () => {
    // Every document, its sentences renumbered as many times as it takes to make it large: parted
    // at headings.
    const documents = Array.from({ length: 90 }, (_, k) => DOCUMENTS.map((name) => documentText(name).replace(/\.(\s)/g, ` ${k}.$1`)).join('\n\n')).join('\n\n');
    // Paragraphs alone: parted anywhere, each piece reads as from a text's start.
    const paragraphs = documents.replace(/^#+ .*$/gm, '').replace(/^.*\?$/gm, '');
    // One title over paragraphs with no other until a paragraph past the middle, on its second
    // line: the second piece belongs to the first one's section, so they do not read alike and the
    // first thread reads on.
    const paragraph = (k: number) => `Depot ${k % 7} ships parcel ${k} on day ${k % 5}. It keeps a record of each parcel it ships, and its number.`;
    const underOneTitle = ['Handbook', ...Array.from({ length: 12_000 }, (_, k) => (k === 6_100 ? `${paragraph(k)}\n## Returns` : paragraph(k)))].join('\n\n');
    // Paragraphs, then a heading over the rest: in four pieces the first two read alike, and the
    // second runs on into the third, so the rest is read again from the second's start.
    const titledLater = [...Array.from({ length: 5_000 }, (_, k) => paragraph(k)), '## Depots', ...Array.from({ length: 7_000 }, (_, k) => paragraph(k))].join('\n\n');
    for (const text of [documents, paragraphs, underOneTitle, titledLater]) {
      const texts = chunkText(text);
      expect(text.length).toBeGreaterThan(4 * PIECE_CHARS);
      const sections = readSourceSections(texts);
      const whole = comparable(sourceReading(sections));
      for (const threads of [2, 3, 4]) expect(comparable(await readSourceInPieces({ chunks: texts }, threads))).toEqual(whole);
      // Given as the blocks of its passages, as the training worker reads a text it chunks.
      for (const threads of [1, 2, 4]) expect(comparable(await readSourceInPieces({ blocks: passageBlocks(chunkPassages(text)) }, threads))).toEqual(whole);
    }
    const chunks = chunksOf(documents, handbook);
    expect(Buffer.from(await buildIndexOffThread(chunks)).equals(Buffer.from(packIndex(buildLexicalIndex(chunks))))).toBe(true);
  });

  it('reads headings each over a lead-in read as a title in pieces as one thread reads them whole', { timeout: 60_000 }, async () => {
    // A lead-in ("Ship them:") opening a heading's section is keyed under that heading, a reading
    // that depends on the heading before it: in pieces it reads as whole.
    const step = (k: number) => `## Depot ${k}\n\nShip them:\n\nDepot ${k % 7} ships parcel ${k} on day ${k % 5}, and keeps a record of each parcel it ships.`;
    const text = Array.from({ length: 6_000 }, (_, k) => step(k)).join('\n\n');
    expect(text.length).toBeGreaterThan(2 * PIECE_CHARS);
    const texts = chunkText(text);
    const whole = comparable(sourceReading(readSourceSections(texts)));
    expect(whole.keys.slice(0, 2)).toEqual(['Depot 0 › Ship them', 'Depot 1 › Ship them']);
    for (const threads of [2, 3, 4]) expect(comparable(await readSourceInPieces({ chunks: texts }, threads))).toEqual(whole);
    for (const threads of [2, 4]) expect(comparable(await readSourceInPieces({ blocks: passageBlocks(chunkPassages(text)) }, threads))).toEqual(whole);
  });

  it('reads title lines keyed under section headings in pieces as one thread reads them whole', { timeout: 60_000 }, async () => {
    // A title line ("Summer") opening a section heading's section, and those after it in that
    // section, are keyed under that heading, a reading that depends on the heading before them.
    const depot = (k: number) =>
      `## Depot ${k}\n\nSummer\n\nDepot ${k % 7} ships parcel ${k} on day ${k % 5}, and keeps a record of each parcel it ships.\n\nWinter\n\nDepot ${k % 7} ships on day ${k % 3}.`;
    const text = Array.from({ length: 5_000 }, (_, k) => depot(k)).join('\n\n');
    expect(text.length).toBeGreaterThan(2 * PIECE_CHARS);
    const texts = chunkText(text);
    const whole = comparable(sourceReading(readSourceSections(texts)));
    expect(whole.keys.slice(0, 3)).toEqual(['Depot 0 › Summer', 'Depot 0 › Winter', 'Depot 1 › Summer']);
    for (const threads of [2, 3, 4]) expect(comparable(await readSourceInPieces({ chunks: texts }, threads))).toEqual(whole);
    for (const threads of [2, 4]) expect(comparable(await readSourceInPieces({ blocks: passageBlocks(chunkPassages(text)) }, threads))).toEqual(whole);
  });

  it('reads a large fenced code block as one thread reads it whole, though its comments read alone are headings', { timeout: 60_000 }, async () => {
    // A comment ("# step 3: …") begins a block that, read alone, begins with a heading; no piece
    // in the code block reads as from a text's start, so the first thread reads it all.
    const command = (k: number) => `# step ${k}: ship the parcels of depot ${k % 7}\nship-parcels --depot ${k % 7} --day ${k % 5} --record parcels-${k}.log`;
    const text = ['Runbook', '```sh', ...Array.from({ length: 7_000 }, (_, k) => command(k)), '```', 'Every parcel is shipped.'].join('\n\n');
    expect(text.length).toBeGreaterThan(2 * PIECE_CHARS);
    const texts = chunkText(text);
    const whole = comparable(sourceReading(readSourceSections(texts)));
    expect(comparable(await readSourceInPieces({ chunks: texts }, 2))).toEqual(whole);
    expect(comparable(await readSourceInPieces({ blocks: passageBlocks(chunkPassages(text)) }, 2))).toEqual(whole);
  });

  it('reads a large code block cut into chunks as one thread reads it whole, though each chunk closes and opens its fence', { timeout: 60_000 }, async () => {
    // A piece begun by a chunk's fence, read alone, begins a section of its own; after the fence
    // the chunk before closed, it goes on in that one's.
    const command = (k: number) => `ship-parcels --depot ${k % 7} --day ${k % 5} --record parcels-${k}.log`;
    const text = ['Ship them all:', '```sh', ...Array.from({ length: 12_000 }, (_, k) => command(k)), '```', 'Every parcel is shipped.'].join('\n');
    expect(text.length).toBeGreaterThan(2 * PIECE_CHARS);
    const texts = chunkText(text);
    const whole = comparable(sourceReading(readSourceSections(texts)));
    expect(whole.keys).toEqual(['']);
    expect(comparable(await readSourceInPieces({ chunks: texts }, 2))).toEqual(whole);
    expect(comparable(await readSourceInPieces({ blocks: passageBlocks(chunkPassages(text)) }, 2))).toEqual(whole);
  });
});
