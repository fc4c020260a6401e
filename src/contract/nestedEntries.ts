/**
 * How the platform keeps the entries inside a record (packaging units, care givers) on a write,
 * spec document 2: an entry without `_id` gets one; a packaging unit absent from a PUT stays in
 * the list, marked `archived: true`; a care giver is removed by setting `archived`. A live entry
 * is one not so marked, and the platform gives each it keeps `archived: false`.
 */
const isArchivedEntry = (entry: unknown): boolean =>
  entry !== null &&
  typeof entry === 'object' &&
  (entry as { archived?: unknown }).archived === true;

/** The entries of a list the record still uses, in their order. */
export const liveEntries = (entries: readonly unknown[]): unknown[] =>
  entries.filter((entry) => !isArchivedEntry(entry));

/** A field the platform adds to an entry it keeps, with the value it gives it. */
export const isFilledEntryField = (field: string, value: unknown): boolean =>
  field === 'archived' && value === false;
