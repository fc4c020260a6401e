/** What one look at a file saw. */
export interface FileLook {
  size: number;
  mtimeMs: number;
}

export type Completeness = { ready: true } | { ready: false; reason: string };

/**
 * How long an empty file must stay empty before it is taken (and refused as empty): a writer
 * may create its file well before the first byte.
 */
export const EMPTY_FILE_WAIT_MS = 60_000;

/**
 * Decides, without a `.done` marker, whether a file is complete: the same size and mtime over
 * two looks at least `minFileAgeMs` apart (an old mtime alone proves nothing: a file server's
 * clock may run behind, a copy may keep its source's mtime). An empty file must stay so for
 * `EMPTY_FILE_WAIT_MS`; then it is taken, to be refused, rather than waited for forever. Time
 * comes from the caller's clock: nothing here sleeps.
 */
export class CompletenessTracker {
  private readonly seen = new Map<string, FileLook & { since: number }>();
  private readonly emptyWaitMs: number;

  constructor(private readonly minFileAgeMs: number) {
    this.emptyWaitMs = Math.max(minFileAgeMs, EMPTY_FILE_WAIT_MS);
  }

  check(path: string, look: FileLook, now: number): Completeness {
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
    const age = now - before.since;
    if (look.size === 0 && age < this.emptyWaitMs) {
      return { ready: false, reason: `empty for ${age} ms of ${this.emptyWaitMs} ms` };
    }
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
