import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface InboxDrop {
  kind: 'orderStatus' | 'erpOrder';
  name: string;
  body: Record<string, unknown>;
}

/**
 * Puts one message into `<inbox>/<kind>/<name>` the way an ERP should: written under a hidden
 * temp name (the daemon skips dot files), flushed, renamed into place, then the `.done` marker
 * when the daemon waits for markers. The daemon never sees half a message.
 */
export async function dropInboxFile(
  inbox: string,
  drop: InboxDrop,
  doneMarker: boolean,
): Promise<string> {
  const folder = join(inbox, drop.kind);
  await mkdir(folder, { recursive: true });
  const path = join(folder, drop.name);
  const temp = join(folder, `.${drop.name}.tmp-${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(`${JSON.stringify(drop.body, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  if (doneMarker) await writeFile(`${path}.done`, '');
  return path;
}
