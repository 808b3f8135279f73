import { encodedStrings } from '../encoded-strings.js';
import type { SourceReading } from '../index-parts.js';

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

/**
 * A source's reading (index-parts.ts) as plain data to cross between threads, and the buffers to
 * transfer: its keys and vocabulary packed, its sentences' bytes as they are (never decoded into
 * strings on the way).
 */
export type PackedReading = Omit<SourceReading, 'keys' | 'vocabulary' | 'sentences'> & {
  keys: PackedTexts;
  vocabulary: PackedTexts;
  sentences: { bytes: Uint8Array; starts: Int32Array };
};

export function packReading({ keys, vocabulary, sentences, ...lists }: SourceReading): { packed: PackedReading; transfer: ArrayBuffer[] } {
  // Bytes that share a buffer (Node's pool of small ones) are copied: transferring it would take it from its other users.
  const own = sentences.bytes.byteLength === sentences.bytes.buffer.byteLength ? sentences.bytes : new Uint8Array(sentences.bytes);
  const packed = { ...lists, keys: packTexts(keys), vocabulary: packTexts(vocabulary), sentences: { bytes: own, starts: sentences.starts } };
  const arrays = [...Object.values(lists), packed.keys.lengths, packed.vocabulary.lengths, own, sentences.starts];
  return { packed, transfer: arrays.map((array) => array.buffer as ArrayBuffer) };
}

export function unpackReading({ keys, vocabulary, sentences, ...lists }: PackedReading): SourceReading {
  return { ...lists, keys: unpackTexts(keys), vocabulary: unpackTexts(vocabulary), sentences: encodedStrings(sentences.bytes, sentences.starts) };
}
