import type { Section } from '../structure.js';

// Many texts as one string and their lengths, to cross between threads: the thread receiving a
// message decodes it at once, on its event loop, and fifteen thousand chunk objects (a 10 MB
// source) take tens of milliseconds to decode where one string is a copy.

export type PackedTexts = { text: string; lengths: Int32Array };

// Loops, not Int32Array.from with a mapping function or flatMap: packing a reading helper's half of
// a 10 MB source took 16–18 ms of CPU that way, 8–10 with loops (most of the rest is the join).

export function packTexts(texts: string[]): PackedTexts {
  const lengths = new Int32Array(texts.length);
  for (let k = 0; k < texts.length; k += 1) lengths[k] = (texts[k] as string).length;
  return { text: texts.join(''), lengths };
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
  const keys: string[] = [];
  const sentences: string[] = [];
  const sentenceCounts = new Int32Array(sections.length);
  sections.forEach((section, k) => {
    keys.push(section.key);
    for (const sentence of section.sentences) sentences.push(sentence);
    sentenceCounts[k] = section.sentences.length;
  });
  return { keys: packTexts(keys), sentences: packTexts(sentences), sentenceCounts };
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
