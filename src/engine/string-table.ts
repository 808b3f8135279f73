// A hash table from strings to numbers in one integer array, built where the strings are at hand
// (the training worker) and read in place where they are not: a stored index's terms stay bytes
// until a search reads one, and a table of them is looked up without decoding them all, as a Map
// would need (tens of milliseconds on the event loop for a large material). Open addressing with
// linear probing, at most half full; each slot is a pair: the value + 1 (0 for an empty slot) and
// the key's hash, so a probe decodes a key only where the hashes agree.

/** Strings read one at a time: an array, or a stored index's, each decoded as it is read (index-layout.ts). */
export type StringList = { readonly length: number; at(k: number): string | undefined };

/** FNV-1a over the UTF-16 code units: the same on every thread and process. */
export function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** Slot pairs for `count` keys: a power of two, at least twice as many. */
function capacityFor(count: number): number {
  let capacity = 1;
  while (capacity < 2 * count) capacity *= 2;
  return capacity;
}

/**
 * The table of `keys[value] → value`, skipping undefined keys. A key given more than once keeps its
 * last value, as `Map.set` would.
 */
export function stringTable(keys: readonly (string | undefined)[]): Int32Array<ArrayBuffer> {
  let count = 0;
  for (const key of keys) if (key !== undefined) count += 1;
  const table = new Int32Array(2 * capacityFor(count));
  // A loop, not a callback a key: this runs once a term of a large material's vocabulary.
  for (let value = 0; value < keys.length; value += 1) {
    const key = keys[value];
    if (key === undefined) continue;
    const hash = hashOf(key);
    const slot = slotOf(table, key, hash, keys);
    table[2 * slot] = value + 1;
    table[2 * slot + 1] = hash;
  }
  return table;
}

export type StringNumbering = {
  /** The string's number, a new one the first time it is given. */
  idOf: (key: string) => number;
  /** The strings by number. */
  keys: string[];
};

/**
 * Strings numbered in order of first appearance, as by a Map's size, for at most `count` of them:
 * a table as stringTable's, filled as they come, in a third of a Map's time for a vocabulary.
 */
export function stringNumbering(count: number): StringNumbering {
  const table = new Int32Array(2 * capacityFor(count));
  const keys: string[] = [];
  const idOf = (key: string) => {
    const hash = hashOf(key);
    const slot = slotOf(table, key, hash, keys);
    const held = (table[2 * slot] as number) - 1;
    if (held >= 0) return held;
    // Past `count` the table would fill up, and a probe for a new string never end.
    if (keys.length === count) throw new Error(`more than the ${count} strings numbered for`);
    table[2 * slot] = keys.push(key);
    table[2 * slot + 1] = hash;
    return keys.length - 1;
  };
  return { idOf, keys };
}

/** The slot of `key` in a table of `keys`, or the free one it would take. */
function slotOf(table: Int32Array, key: string, hash: number, keys: readonly (string | undefined)[]): number {
  const mask = table.length / 2 - 1;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const held = (table[2 * slot] as number) - 1;
    if (held < 0 || (table[2 * slot + 1] === hash && keys[held] === key)) return slot;
  }
}

/** The value of `key` in a table, or -1; `keyOf` tells the key of a value (as given to stringTable). */
export function lookUp(table: Int32Array, key: string, keyOf: (value: number) => string | undefined): number {
  const capacity = table.length / 2;
  const hash = hashOf(key);
  for (let slot = hash & (capacity - 1); ; slot = (slot + 1) & (capacity - 1)) {
    const value = (table[2 * slot] as number) - 1;
    if (value < 0) return -1;
    if (table[2 * slot + 1] === hash && keyOf(value) === key) return value;
  }
}

/**
 * The candidates of a join of two sets of strings by their hashes, to be compared: each value of
 * `pairs` (value, hash, value, hash…) with each value of the table whose key has the same hash,
 * as pairs (pairs' value, table's value…). Answered, not visited: a loop with no callback is
 * compiled once for every table.
 */
export function sameHashes(pairs: Int32Array, table: Int32Array): Int32Array {
  const capacity = table.length / 2;
  const found: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) {
    const hash = pairs[k + 1] as number;
    for (let slot = hash & (capacity - 1); table[2 * slot] !== 0; slot = (slot + 1) & (capacity - 1)) {
      if (table[2 * slot + 1] === hash) found.push(pairs[k] as number, (table[2 * slot] as number) - 1);
    }
  }
  return Int32Array.from(found);
}
