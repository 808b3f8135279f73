import type { LexicalIndex, SearchableIndex } from './index-shape.js';
import type { StringList } from './string-table.js';
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
  const lists = TEXTS.map((field) => index[field]);
  // A list all ASCII, as most are, is measured by its strings' lengths and written whole; another
  // string by string, so that each is its own UTF-8 (half a surrogate pair included).
  const asciiTexts = lists.map((list) => {
    const joined = list.join('');
    return Buffer.byteLength(joined) === joined.length ? joined : undefined;
  });
  // Each list's boundaries in bytes of the text: where each string starts, and where the last ends.
  let textLength = 0;
  const boundaries = lists.map((list, i) => {
    const starts = new Int32Array(list.length + 1);
    starts[0] = textLength;
    const ascii = asciiTexts[i] !== undefined;
    for (let k = 0; k < list.length; k += 1) {
      const string = list[k] as string;
      starts[k + 1] = textLength += ascii ? string.length : Buffer.byteLength(string);
    }
    return starts;
  });
  const lookups = index.lookups ?? termLookups(index.vocabulary);
  const integers = [...INTEGERS.map((field) => index[field]), ...LOOKUPS.map((field) => lookups[field])];
  const header = Int32Array.from([...integers.map((array) => array.length), ...lists.map((list) => list.length), textLength]);
  const arrays = [header, ...integers, ...boundaries];
  const bytes = new Uint8Array(arrays.reduce((sum, array) => sum + array.byteLength, 0) + textLength);
  let offset = 0;
  for (const array of arrays) {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += array.byteLength;
  }
  // Written in place: joining every list and encoding the result copied the text twice.
  const text = Buffer.from(bytes.buffer, offset, textLength);
  let written = 0;
  lists.forEach((list, i) => {
    const ascii = asciiTexts[i];
    if (ascii !== undefined) written += text.write(ascii, written);
    else for (const string of list) written += text.write(string, written);
  });
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
    vocabulary: lazyStrings(text, vocabulary as Int32Array),
    keys: lazyStrings(text, keys as Int32Array),
    sentences: lazyStrings(text, sentences as Int32Array),
    sources: lazyStrings(text, sources as Int32Array),
  };
}

/**
 * The strings of `text` between the byte boundaries `starts`, each decoded when it is read (a
 * search reads a few dozen of each list); `at` counts back from the end for a negative position,
 * as an array's does.
 */
function lazyStrings(text: Buffer, starts: Int32Array): StringList {
  const length = starts.length - 1;
  return {
    length,
    at(k) {
      const at = k < 0 ? k + length : k;
      return at >= 0 && at < length ? text.toString('utf8', starts[at], starts[at + 1]) : undefined;
    },
  };
}
