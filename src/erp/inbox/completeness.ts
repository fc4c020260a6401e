/** What one look at a file saw. */
export interface FileLook {
  size: number;
  mtimeMs: number;
}

export type Completeness = { ready: true } | { ready: false; reason: string };

/**
 * Decides, without a `.done` marker, whether a file is complete: not empty, and either not
 * modified for `minFileAgeMs` (its mtime says so: a one-off `sync --once` takes it at the first
 * look) or the same size and mtime over two looks at least `minFileAgeMs` apart. It remembers
 * the first look at each state; time comes from the caller's clock, so nothing here sleeps.
 */
export class CompletenessTracker {
  private readonly seen = new Map<string, FileLook & { since: number }>();

  constructor(private readonly minFileAgeMs: number) {}

  check(path: string, look: FileLook, now: number): Completeness {
    if (look.size > 0 && now - look.mtimeMs >= this.minFileAgeMs) return { ready: true };
    const before = this.seen.get(path);
    const unchanged = before?.size === look.size && before.mtimeMs === look.mtimeMs;
    // A clock that jumped backwards starts the wait again rather than never ending it.
    if (!unchanged || before === undefined || now < before.since) {
      this.seen.set(path, { ...look, since: now });
      if (look.size === 0) return { ready: false, reason: 'empty so far' };
      return {
        ready: false,
        reason: before ? 'still being written' : 'first seen; waiting to see it unchanged',
      };
    }
    if (look.size === 0) return { ready: false, reason: 'empty so far' };
    const age = now - before.since;
    if (age < this.minFileAgeMs) {
      return { ready: false, reason: `unchanged for ${age} ms of ${this.minFileAgeMs} ms` };
    }
    return { ready: true };
  }

  forget(path: string): void {
    this.seen.delete(path);
  }

  /** Drops what it remembers of files that are gone. */
  keepOnly(paths: ReadonlySet<string>): void {
    for (const path of this.seen.keys()) if (!paths.has(path)) this.seen.delete(path);
  }
}
