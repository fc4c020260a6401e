import fs from 'node:fs';
import path from 'node:path';
import { ARCHIVE, ERROR } from '../../erp/inbound/folders.js';
import type { Patient } from './patient.js';

/** Files under `folder` (recursively) whose bytes hold one of the needles. */
function filesHolding(folder: string, needles: readonly string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const patterns = needles.map((needle) => Buffer.from(needle, 'utf8'));
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => {
      const bytes = fs.readFileSync(file);
      return patterns.some((pattern) => bytes.includes(pattern));
    });
}

/**
 * The inbox's archive and error folders: a file naming the patient is removed whole (with the
 * error report beside it). Files not yet handled are not touched: they are work under way.
 */
export function eraseInboxFiles(inbox: string, patient: Patient): string[] {
  const found = [ARCHIVE, ERROR].flatMap((folder) =>
    filesHolding(path.join(inbox, folder), patient.needles),
  );
  const reports = found.map((file) => `${file}.error.json`).filter((file) => fs.existsSync(file));
  const files = [...new Set([...found, ...reports])];
  for (const file of files) fs.rmSync(file, { force: true });
  return files;
}
