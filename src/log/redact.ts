import { labelFileNames } from './fileLabel.js';
import { maskPersonal } from './personal.js';
import { scrubText } from './scrubText.js';

/**
 * Redacts one serialized log line: the ERP's file names it names reduced to their labels
 * (labelFileNames), then masked as every output is (maskPersonal), the configured `secrets`
 * (those that cannot be part of words: normaliseSecrets) replaced wherever they stand. Lines are
 * JSON, as pino writes them; should one not parse, the text scrubber still removes `"key": value`
 * pairs and secrets from it.
 */
export function redactLine(line: string, secrets: readonly string[]): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return scrubText(line, secrets);
  }
  const ending = line.endsWith('\n') ? '\n' : '';
  const named =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? labelFileNames(parsed as Record<string, unknown>)
      : parsed;
  return JSON.stringify(maskPersonal(named, secrets)) + ending;
}
