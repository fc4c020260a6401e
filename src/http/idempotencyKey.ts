/** Longer keys are no key an ERP makes (a UUID is 36 characters); they only cost storage. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export type KeyHeader = { ok: true; key: string | undefined } | { ok: false; problem: string };

/**
 * The `Idempotency-Key` of a request, from each header line as sent. Node joins repeated lines
 * into one value, which would make two keys a third; an empty key would make every keyless
 * retry of the ERP the same message. Both are refused.
 */
export function idempotencyKeyOf(lines: readonly string[] | undefined): KeyHeader {
  if (lines === undefined || lines.length === 0) return { ok: true, key: undefined };
  if (lines.length > 1) {
    return { ok: false, problem: `send one Idempotency-Key header, not ${lines.length}` };
  }
  const key = (lines[0] ?? '').trim();
  if (key === '')
    return { ok: false, problem: 'the Idempotency-Key header is empty; send a key, or no header' };
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return {
      ok: false,
      problem: `the Idempotency-Key has ${key.length} characters; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are taken`,
    };
  }
  return { ok: true, key };
}
