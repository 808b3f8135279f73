import type { Section } from '../structure.js';

// Many texts as one string and their lengths, to cross between threads: the thread receiving a
// message decodes it at once, on its event loop, and fifteen thousand chunk objects (a 10 MB
// source) take tens of milliseconds to decode where one string is a copy.

export type PackedTexts = { text: string; lengths: Int32Array };

export function packTexts(texts: string[]): PackedTexts {
  return { text: texts.join(''), lengths: Int32Array.from(texts, (text) => text.length) };
}

export function unpackTexts({ text, lengths }: PackedTexts): string[] {
  const texts: string[] = [];
  let offset = 0;
  for (const length of lengths) {
    texts.push(text.slice(offset, offset + length));
    offset += length;
  }
  return texts;
}

/** Sections (structure.ts) as packed texts: their keys, their sentences, and how many sentences each has. */
export type PackedSections = { keys: PackedTexts; sentences: PackedTexts; sentenceCounts: Int32Array };

export function packSections(sections: Section[]): PackedSections {
  return {
    keys: packTexts(sections.map((section) => section.key)),
    sentences: packTexts(sections.flatMap((section) => section.sentences)),
    sentenceCounts: Int32Array.from(sections, (section) => section.sentences.length),
  };
}

export function unpackSections({ keys, sentences, sentenceCounts }: PackedSections): Section[] {
  const allSentences = unpackTexts(sentences);
  let start = 0;
  return unpackTexts(keys).map((key, k) => {
    const end = start + (sentenceCounts[k] as number);
    const section = { key, sentences: allSentences.slice(start, end) };
    start = end;
    return section;
  });
}
