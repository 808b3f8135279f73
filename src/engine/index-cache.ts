// A least-recently-used cache bounded by bytes rather than by entries: one 10 MB chatbot weighs
// as much as thousands of small ones. An entry larger than the whole budget is still kept until
// the next one arrives, so a single large chatbot is not rebuilt on every question.

export type ByteCache<V> = {
  get(key: string): V | undefined;
  set(key: string, value: V, bytes: number): void;
  /** The bytes the cached entries weigh together. */
  bytes(): number;
};

export function createByteCache<V>(maxBytes: number): ByteCache<V> {
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: V; bytes: number }>();
  let total = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.bytes;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, bytes) {
      remove(key);
      for (const oldest of entries.keys()) {
        if (total + bytes <= maxBytes) break;
        remove(oldest);
      }
      entries.set(key, { value, bytes });
      total += bytes;
    },
    bytes: () => total,
  };
}
