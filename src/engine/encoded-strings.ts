import type { StringList } from './string-table.js';

// Strings kept as their UTF-8 bytes and where each starts, decoded one at a time when read: how a
// packed index holds its texts (index-layout.ts), and how an index part holds its sentences, so
// that a source read in pieces on several threads has each piece's sentences encoded on the thread
// that read them, and joining the pieces and packing the index copy bytes, not strings.

/** String k is the bytes from starts[k] up to starts[k + 1]; `starts` has one entry more than there are strings. */
export type EncodedStrings = StringList & { readonly bytes: Buffer; readonly starts: Int32Array };

/** The same function for every list, so that two lists of the same strings are equal as data. */
function at(this: EncodedStrings, k: number): string | undefined {
  const i = k < 0 ? k + this.length : k;
  return i >= 0 && i < this.length ? this.bytes.toString('utf8', this.starts[i], this.starts[i + 1]) : undefined;
}

/** The strings of `bytes` between the boundaries `starts` (where the first starts, then where each ends). */
export function encodedStrings(bytes: Uint8Array, starts: Int32Array): EncodedStrings {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { bytes: buffer, starts, length: starts.length - 1, at };
}

export function encodeStrings(list: readonly string[]): EncodedStrings {
  const starts = new Int32Array(list.length + 1);
  // A list all ASCII, as most are, is measured by its strings' lengths and written whole; another
  // string by string, so that each is its own UTF-8 (half a surrogate pair included).
  const joined = list.join('');
  if (Buffer.byteLength(joined) === joined.length) {
    for (let k = 0; k < list.length; k += 1) starts[k + 1] = (starts[k] as number) + (list[k] as string).length;
    return encodedStrings(Buffer.from(joined, 'latin1'), starts);
  }
  for (let k = 0; k < list.length; k += 1) starts[k + 1] = (starts[k] as number) + Buffer.byteLength(list[k] as string);
  const bytes = Buffer.allocUnsafe(starts[list.length] as number);
  list.forEach((string, k) => bytes.write(string, starts[k] as number));
  return encodedStrings(bytes, starts);
}

/** The strings of the lists, in order, in bytes of their own. */
export function joinEncoded(lists: readonly EncodedStrings[]): EncodedStrings {
  if (lists.length === 1) return lists[0] as EncodedStrings;
  const starts = new Int32Array(lists.reduce((sum, list) => sum + list.length, 1));
  const bytes = Buffer.allocUnsafe(lists.reduce((sum, list) => sum + byteLength(list), 0));
  let count = 0;
  for (const list of lists) count += copyEncoded(list, bytes, starts, count);
  return encodedStrings(bytes, starts);
}

/**
 * Copies the list's bytes into `bytes` where string `at` of `starts` starts, and its boundaries
 * into `starts`, shifted to match; answers how many strings it copied.
 */
export function copyEncoded(list: EncodedStrings, bytes: Uint8Array, starts: Int32Array, at: number): number {
  const from = list.starts[0] as number;
  const offset = starts[at] as number;
  bytes.set(list.bytes.subarray(from, list.starts[list.length]), offset);
  for (let k = 1; k <= list.length; k += 1) starts[at + k] = offset + (list.starts[k] as number) - from;
  return list.length;
}

/** The bytes of the list's strings. */
export function byteLength(list: EncodedStrings): number {
  return (list.starts[list.length] as number) - (list.starts[0] as number);
}
