import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { entryKind } from '../../shared/fileKind.js';
import type { InboxFolder } from '../messages/kinds.js';
import type { OddEntry } from './scanReport.js';
import { reportEntry, type AsideContext } from './setAside.js';

/** What to do about each kind of entry; a link is the one an ERP may have meant as a file. */
function oddReason(kind: InboxFolder, what: string): string {
  const left = 'it is left where it is and not read';
  if (what === 'a symbolic link') {
    return `${what}, not a regular file: links are not followed, so nothing outside the inbox is read or moved; ${left}. Write the message itself into ${kind}/ and remove the link`;
  }
  return `${what}, not a regular file; ${left}. Remove it, and write each message as a regular file into ${kind}/`;
}

/**
 * Remembers the odd entries already reported, by kind folder and name with their inode and
 * type: one warning per entry, not one per scan, and a new one when the entry is replaced. In
 * memory: a restart reports each once more, which tells the reader of the new log it is there.
 */
export class OddEntries {
  private readonly reported = new Map<string, string>();

  constructor(private readonly ctx: AsideContext) {}

  /**
   * Reports the entries of `names` in `kind`'s folder not reported before; forgets those gone.
   * `lstat` neither opens (a FIFO cannot block the scan) nor follows a link.
   */
  async fresh(kind: InboxFolder, names: readonly string[]): Promise<OddEntry[]> {
    const now = new Set<string>();
    const found: OddEntry[] = [];
    for (const name of names) {
      const key = `${kind}/${name}`;
      // Gone since the folder was listed: nothing odd stands there any more.
      const look = await lstat(join(this.ctx.layout.kind(kind), name)).catch(() => undefined);
      if (look === undefined || look.isFile()) continue;
      now.add(key);
      const identity = `${look.dev}:${look.ino}:${look.mode & 0o170000}`;
      if (this.reported.get(key) === identity) continue;
      this.reported.set(key, identity);
      found.push(await this.report(kind, name, entryKind(look)));
    }
    for (const key of this.reported.keys()) {
      if (key.startsWith(`${kind}/`) && !now.has(key)) this.reported.delete(key);
    }
    return found;
  }

  /** `.error/<kind>/<name>.error.json`, a new one beside any earlier report of that name. */
  private async report(kind: InboxFolder, name: string, what: string): Promise<OddEntry> {
    const reason = oddReason(kind, what);
    return { kind, name, what, reason, report: await reportEntry(this.ctx, kind, name, reason) };
  }
}
