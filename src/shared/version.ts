import { readFileSync } from 'node:fs';

/** This package's version, from package.json (src/ and dist/ both sit one folder below it). */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const { version } = JSON.parse(text) as { version?: unknown };
  return typeof version === 'string' ? version : 'unknown';
}
