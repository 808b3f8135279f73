/**
 * Keys seen lately, bounded in number and age: remembers delivered events and handled messages in
 * this process, without growing for ever (what instances share lives in the hub's claims).
 */
export class RecentSet {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Remembers `key`; answers false when it was already remembered. */
  add(key: string): boolean {
    this.prune();
    if (this.has(key)) return false;
    this.seen.delete(key);
    this.seen.set(key, this.now());
    return true;
  }

  has(key: string): boolean {
    const at = this.seen.get(key);
    return at !== undefined && this.now() - at < this.ttlMs;
  }

  private prune(): void {
    const oldest = this.now() - this.ttlMs;
    for (const [key, at] of this.seen) {
      if (this.seen.size < this.max && at > oldest) break;
      this.seen.delete(key);
    }
  }
}
