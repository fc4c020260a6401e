import { REDACTED } from './sensitiveKeys.js';

/**
 * A JSON string in text: a key when a colon follows it (group 1 empty), else a value. A value
 * cut off at the end of the text (an excerpt) is taken to the end.
 */
const jsonString = /"(?:[^"\\]|\\.)*"(?=\s*:)|("(?:[^"\\]|\\.)*(?:"|$))/g;

/** The platform's record ids: what logs and answers name records by, never personal. */
const uuid = /^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/i;

const MASKED_TEXT = `${REDACTED.slice(0, -1)}:`;

/**
 * The other side's own words about a record (a platform's error body, an ERP's answer), masked
 * to what carries no personal value. Such a text is free: its format is not part of the
 * contract, and it may quote a record in any form ("note for Flora Kettenis (born 1946-08-30)
 * refused"), so no list of fields or values can find what is personal in it. What stays is
 * its structure: a JSON text keeps its field names, numbers, booleans and nulls, and the ids
 * (UUIDs) it names, which say which field and record were refused; every other string becomes
 * `[redacted]`. Text that is not JSON keeps only its length. The whole text is where the
 * database keeps it (a dead letter's answer), shown by `--show-personal`, recorded as a look.
 */
export function maskAnswer(text: string): string {
  const start = text.trimStart()[0];
  // Empty, or masked already (a line logged twice, an alert of a masked text).
  if (start === undefined || text.startsWith(MASKED_TEXT)) return text;
  if (start !== '{' && start !== '[' && start !== '"') {
    return `${MASKED_TEXT} ${[...text].length} characters of text]`;
  }
  return text.replace(jsonString, (match, value: string | undefined) =>
    value === undefined || value === '""' || uuid.test(value) ? match : `"${REDACTED}"`,
  );
}
