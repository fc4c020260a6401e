import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';

/** Drops a file into `<inbox>/<folder>/`, complete with its `.done` marker (the rigs' setting). */
export function dropInto(inbox: string, folder: string, name: string, data: string | Buffer): void {
  const dir = join(inbox, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), data);
  writeFileSync(join(dir, `${name}.done`), '');
}

/** An export of the German ERP (docs/readme/connect-your-erp.md): CRLF lines in Windows-1252. */
export const germanExport = (rows: readonly string[]): Buffer =>
  iconv.encode(`${rows.join('\r\n')}\r\n`, 'windows-1252');
