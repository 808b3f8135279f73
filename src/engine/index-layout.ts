import type { LexicalIndex, SearchableIndex } from './index-shape.js';
import { byteLength, copyEncoded, encodedStrings, encodeStrings } from './encoded-strings.js';
import { termLookups, type TermLookups } from './term-lookups.js';

// The stored form of a lexical index, laid out so that loading it costs next to nothing on the
// event loop: a header of lengths, the integer arrays as they lie in memory (read in place, not
// copied), and the strings as UTF-8 with their byte boundaries, decoded one by one when a search
// reads them. v8.deserialize rebuilt every string of a 10 MB index up front, holding up the
// server for a tenth of a second to a second. The hash tables a search looks terms up by are
// computed here, on the training worker, and stored with it, so that no string of the vocabulary
// is decoded to make a searcher. Integers are in the machine's byte order: every platform Node
// runs on in practice is little-endian.

const INTEGERS = [
  'sectionStart',
  'sentenceSection',
  'sentenceTerms',
  'sentenceTermStart',
  'keyTerms',
  'keyTermStart',
  'postings',
  'postingStart',
  'keyPostings',
  'keyPostingStart',
  'sectionSource',
] as const;
const LOOKUPS = ['terms', 'joined', 'heads', 'headed', 'headedStart'] as const satisfies (keyof TermLookups)[];
const TEXTS = ['vocabulary', 'keys', 'sentences', 'sources'] as const;
// One length per integer array and per lookup, one count per string list, the UTF-8 text's byte length.
const HEADER = INTEGERS.length + LOOKUPS.length + TEXTS.length + 1;

/** The index in bytes of their own buffer (from its start), so that they can be transferred. */
export function packIndex(index: LexicalIndex): Uint8Array<ArrayBuffer> {
  const lists = TEXTS.map((field) => {
    const list = index[field];
    return Array.isArray(list) ? encodeStrings(list) : list;
  });
  const textLength = lists.reduce((sum, list) => sum + byteLength(list), 0);
  const lookups = index.lookups ?? termLookups(index.vocabulary);
  const integers = [...INTEGERS.map((field) => index[field]), ...LOOKUPS.map((field) => lookups[field])];
  const header = Int32Array.from([...integers.map((array) => array.length), ...lists.map((list) => list.length), textLength]);
  // Each list's boundaries in bytes of the text: where each string starts, and where the last ends.
  const boundaries = lists.map((list) => new Int32Array(list.length + 1));
  const arrays = [header, ...integers, ...boundaries];
  const textOffset = arrays.reduce((sum, array) => sum + array.byteLength, 0);
  const bytes = new Uint8Array(textOffset + textLength);
  // The text is copied in place, and its boundaries found as it is, before they are copied.
  const text = bytes.subarray(textOffset);
  let written = 0;
  lists.forEach((list, i) => {
    const starts = boundaries[i] as Int32Array;
    starts[0] = written;
    copyEncoded(list, text, starts, 0);
    written = starts[list.length] as number;
  });
  let offset = 0;
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += array.byteLength;
  }
  return bytes;
}

/** The index in packed bytes. Its integer arrays and lookups are views of them and its strings are read from them when asked for. */
export function unpackIndex(packed: Uint8Array): SearchableIndex {
  // Views need 4-byte alignment; a buffer from a pool may start anywhere.
  const bytes = packed.byteOffset % 4 === 0 ? packed : packed.slice();
  const header = new Int32Array(bytes.buffer, bytes.byteOffset, HEADER);
  let offset = bytes.byteOffset + header.byteLength;
  const view = (length: number) => {
    const array = new Int32Array(bytes.buffer, offset, length);
    offset += array.byteLength;
    return array;
  };
  const integers = INTEGERS.map((_, i) => view(header[i] as number));
  const lookups = LOOKUPS.map((_, i) => view(header[INTEGERS.length + i] as number));
  const [vocabulary, keys, sentences, sources] = TEXTS.map((_, i) => view((header[INTEGERS.length + LOOKUPS.length + i] as number) + 1));
  const text = Buffer.from(bytes.buffer, offset, header[HEADER - 1]);
  return {
    ...(Object.fromEntries(INTEGERS.map((field, i) => [field, integers[i]])) as Pick<LexicalIndex, (typeof INTEGERS)[number]>),
    lookups: Object.fromEntries(LOOKUPS.map((field, i) => [field, lookups[i]])) as TermLookups,
    vocabulary: encodedStrings(text, vocabulary as Int32Array),
    keys: encodedStrings(text, keys as Int32Array),
    sentences: encodedStrings(text, sentences as Int32Array),
    sources: encodedStrings(text, sources as Int32Array),
  };
}
