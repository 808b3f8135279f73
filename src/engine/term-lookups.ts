import { lookUp, stringTable, type StringList } from './string-table.js';
import { compoundKeys, type CompoundLookup } from './text.js';

// What a search looks an index's terms up by: the term table and the compounds', as hash tables
// (string-table.ts). They are computed where an index is packed (index-layout.ts), on the training
// worker, and read in place from a stored one, so that a searcher is ready without decoding its
// vocabulary (a Map of a large material's held the event loop up to 100 ms).

export type TermLookups = {
  /** Term → id. */
  terms: Int32Array;
  /** A compound's key written together (compoundKeys) → its id. */
  joined: Int32Array;
  /** A two-part compound's second part → its group: the compounds with it, ascending (flat, with starts). */
  heads: Int32Array;
  headed: Int32Array;
  headedStart: Int32Array;
};

export function termLookups(vocabulary: readonly string[]): TermLookups {
  const keys = vocabulary.map((term) => compoundKeys(term));
  // Each two-part compound's group, numbered where its head first appears, and the groups laid
  // out by counting their members: material with thousands of codes ("KES-4105") has thousands
  // of heads, and a list each cost more than the rest of the lookups.
  const groupIds = new Map<string, number>();
  const groupOf = new Int32Array(keys.length).fill(-1);
  const headedStart = [0];
  keys.forEach((key, id) => {
    if (key?.head === undefined) return;
    let group = groupIds.get(key.head);
    if (group === undefined) {
      group = groupIds.size;
      groupIds.set(key.head, group);
      headedStart.push(0);
    }
    groupOf[id] = group;
    headedStart[group + 1] = (headedStart[group + 1] as number) + 1;
  });
  for (let group = 0; group < groupIds.size; group += 1) headedStart[group + 1] = (headedStart[group + 1] as number) + (headedStart[group] as number);
  const headed = new Int32Array(headedStart.at(-1) as number);
  const next = headedStart.slice(0, -1);
  groupOf.forEach((group, id) => {
    if (group < 0) return;
    headed[next[group] as number] = id;
    next[group] = (next[group] as number) + 1;
  });
  return {
    terms: stringTable(vocabulary),
    joined: stringTable(keys.map((key) => key?.joined)),
    heads: stringTable([...groupIds.keys()]),
    headed,
    headedStart: Int32Array.from(headedStart),
  };
}

export type TermReader = ReturnType<typeof termReader>;

/**
 * An index's terms by id, an id by its term (-1 for none), and its compounds, read through its
 * lookups (computed here when the index, built in this process, has none).
 */
export function termReader(vocabulary: StringList, lookups: TermLookups | undefined, size: number) {
  const { terms, joined, heads, headed, headedStart } = lookups ?? termLookups(Array.from({ length: vocabulary.length }, (_, id) => vocabulary.at(id) as string));
  const termOf = (id: number) => vocabulary.at(id) as string;
  const headedBy = (group: number) => Array.from(headed.subarray(headedStart[group], headedStart[group + 1]), termOf);
  const compounds: CompoundLookup = {
    joined(key) {
      const id = lookUp(joined, key, (found) => compoundKeys(termOf(found))?.joined);
      return id < 0 ? undefined : termOf(id);
    },
    headedBy(head) {
      const group = lookUp(heads, head, (found) => compoundKeys(termOf(headed[headedStart[found] as number] as number))?.head);
      return group < 0 ? [] : headedBy(group);
    },
  };
  return { size, table: terms, termOf, idOf: (term: string) => lookUp(terms, term, termOf), compounds };
}
