import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * File names an ERP chose, reduced to what an operator needs. ERPs often name a file after its
 * patient (`Norris_Arved_1933-11-23_Brueckenstr29c.json`), and a log line, an alert or a metric
 * leaves for places `forget` cannot reach. What stays is a short hash of the name and its
 * extension (`#5d41402a.json`); the kind and the day come with it (the line's `kind` and time,
 * the folder a path names, the alert's date). `trace` finds a file by the label as by its
 * name; `ls` beside `sha256sum` finds it in a folder. The hash is not keyed: whoever already
 * knows a file's exact name can tell it is the one meant, and no one else learns the name.
 */
const HASH_CHARS = 8;

const hashOf = (text: string): string =>
  createHash('sha256').update(text).digest('hex').slice(0, HASH_CHARS);

/** An extension as ERPs write them; anything else is part of the name and hashed with it. */
const extension = /\.[A-Za-z0-9]{1,8}$/;

/** A file name as logs and alerts show it: `#<8 hex of its SHA-256><extension>`. */
export function fileLabel(name: string): string {
  return `#${hashOf(name)}${extension.exec(name)?.[0] ?? ''}`;
}

/** Whether `key` is a label (`#5d41402a`, with or without its extension), for lookups. */
export const LABEL = /^#?([0-9a-f]{8})(?:\.[A-Za-z0-9]{1,8})?$/i;

/** An operator's replay of a message adds `:replay:<time>` to its name (src/store/jobKeys.ts). */
const replayMark = /:replay:\d{4}-\d\d-\d\dT[\d:.]+Z$/;
/**
 * What a message's name adds to its file's: its rows (`3`, `2,5` for rows of one message; `row3`
 * as older builds named them), an order's id.
 */
const safeSuffix =
  /^(?:(?:row)?\d+(?:,\d+)*|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The file an ERP message's name comes from (`<file>#3`, `<file>#<order>`, a replay's). */
export function fileOfMessage(name: string): string {
  const base = name.replace(replayMark, '');
  const hash = base.indexOf('#');
  return hash < 0 ? base : base.slice(0, hash);
}

/**
 * An ERP message's name (`<file>#3`, `<file>#2,5`, `<file>#<order id>`, `…:replay:<time>`) with
 * its file reduced to its label; its rows, an order's id and a replay's time stay. Any other suffix
 * is hashed too: it came from the file.
 */
export function messageLabel(name: string): string {
  const replay = replayMark.exec(name)?.[0] ?? '';
  const base = name.slice(0, name.length - replay.length);
  const file = fileOfMessage(base);
  const suffix = base.slice(file.length + 1);
  if (file === base) return `${fileLabel(file)}${replay}`;
  const kept = safeSuffix.test(suffix) ? suffix : hashOf(suffix);
  return `${fileLabel(file)}#${kept}${replay}`;
}

/** Log fields holding an ERP file's name, a path to it, or an ERP message's name. */
const NAME_FIELDS = ['file'] as const;
const PATH_FIELDS = ['movedTo', 'report', 'copy'] as const;
const REPORT_SUFFIX = '.error.json';

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}

/** Each name the line gives in its fields, with what replaces it wherever the line holds it. */
function namesOf(line: Readonly<Record<string, unknown>>): Map<string, string> {
  const names = new Map<string, string>();
  const add = (name: string) => {
    if (name !== '' && !names.has(name)) names.set(name, fileLabel(name));
  };
  for (const field of NAME_FIELDS) strings(line[field]).forEach(add);
  // The inbox's root entries that are no kind: its folders are the operator's (a misspelt
  // kind), a file there is the ERP's.
  strings(line['unknown'])
    .filter((entry) => extension.test(entry))
    .forEach(add);
  for (const field of PATH_FIELDS) {
    for (const value of strings(line[field])) {
      const base = path.basename(value);
      add(base.endsWith(REPORT_SUFFIX) ? base.slice(0, -REPORT_SUFFIX.length) : base);
    }
  }
  // A request's Idempotency-Key is the ERP's name for it, no file's: kept as it is.
  const messages = line['source'] === 'http' ? [] : strings(line['messageName']);
  for (const name of messages) {
    names.set(name, messageLabel(name));
    add(fileOfMessage(name));
  }
  return names;
}

function replaced(value: unknown, names: readonly [string, string][]): unknown {
  if (typeof value === 'string') {
    return names.reduce((text, [name, label]) => text.split(name).join(label), value);
  }
  if (Array.isArray(value)) return value.map((item: unknown) => replaced(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, replaced(item, names)]),
  );
}

/**
 * A log line with the ERP's file names it names in its fields (NAME_FIELDS, the last step of
 * PATH_FIELDS, `messageName`) reduced to their labels wherever the line holds them: in those
 * fields, in paths and in the message. One place for every line, so a file name reaches the
 * log collector from no line that names it as a file (src/erp/inbound/scanReport.ts logs them so).
 */
export function labelFileNames(line: Record<string, unknown>): Record<string, unknown> {
  const names = namesOf(line);
  if (names.size === 0) return line;
  // Longest first: a name that holds another is replaced whole.
  const ordered = [...names].sort(([a], [b]) => b.length - a.length);
  return replaced(line, ordered) as Record<string, unknown>;
}
