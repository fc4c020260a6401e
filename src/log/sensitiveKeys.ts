import { PERSONAL_FIELDS } from '../contract/personalFields.js';

export const REDACTED = '[redacted]';

const personalKeys = new Set<string>(PERSONAL_FIELDS.map((field) => field.toLowerCase()));

/**
 * Key endings that mark a credential, in any case and any spelling the headers and configs use:
 * `apiKey`, `service-api-key`, `sim-control-token`, `Authorization`, `erpPassword`, `set-cookie`.
 * A key that merely points at a secret (`apiKeyFile`, `tokenFile`) is a path and stays visible.
 */
const secretKeyEndings = [
  'apikey',
  'api-key',
  'api_key',
  'token',
  'password',
  'passwd',
  'secret',
  'authorization',
  'cookie',
  'credentials',
];

export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  return secretKeyEndings.some((ending) => lower.endsWith(ending));
}

/** True for keys whose values never reach a log line: credentials and personal fields. */
export function isSensitiveKey(key: string): boolean {
  return isSecretKey(key) || personalKeys.has(key.toLowerCase());
}

/**
 * The same keys as a regular expression source (use with the `i` flag), for finding them in
 * free text. Credential endings may follow any prefix; personal fields match whole.
 */
export const sensitiveKeySource = `(?:[\\w-]*(?:${secretKeyEndings.join('|')})|${[...personalKeys].join('|')})`;
