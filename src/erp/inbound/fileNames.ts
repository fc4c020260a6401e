import { OPENTRANS_FOLDER, type InboxFolder } from '../messages/kinds.js';

/**
 * Why a file name is refused, or undefined. A name must stay inside its folder wherever it is
 * later copied, so Windows separators and drive letters are refused too.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return `"${name}" is not a file name`;
  if (/[/\\\0]/.test(name)) return `file name "${name}" holds a path separator`;
  if (name.startsWith('..'))
    return `file name "${name}" starts with "..", which points outside the folder`;
  if (/^[A-Za-z]:/.test(name)) return `file name "${name}" looks like an absolute Windows path`;
  return undefined;
}

/** Whether the file's name says what its kind's folder reads: JSON, article CSV, a mapped format. */
export function extensionProblem(
  kind: InboxFolder,
  name: string,
  mapped?: 'csv' | 'xml',
): string | undefined {
  const lower = name.toLowerCase();
  if (kind === OPENTRANS_FOLDER) {
    return lower.endsWith('.xml')
      ? undefined
      : `file "${name}" does not end in .xml, so it is not read as an openTRANS answer`;
  }
  const endings = ['.json'];
  if (mapped !== undefined) endings.push(`.${mapped}`);
  if (kind === 'article' && mapped !== 'csv') endings.push('.csv');
  if (endings.some((ending) => lower.endsWith(ending))) return undefined;
  const allowed = endings.join(' or ');
  return `file "${name}" does not end in ${allowed}, so it is not read as a ${kind} message`;
}
