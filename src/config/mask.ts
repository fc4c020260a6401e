import type { Config } from './schema.js';
import { secretHolder, SECRET_LOCATIONS } from './secrets.js';

export const MASK = '***';

function maskUrlPassword(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password === '') return url;
  parsed.password = MASK;
  return parsed.toString();
}

/**
 * The config with every secret replaced by "***": the API key, tokens and passwords (also when
 * read from a `*File`, whose path stays visible), a password inside a URL, and the console's
 * password hashes. For printing.
 */
export function maskSecrets(config: Config): Config {
  const copy = structuredClone(config);
  for (const location of SECRET_LOCATIONS) {
    const key = location.at(-1) ?? '';
    const holder = secretHolder(copy, location);
    if (holder?.[key] !== undefined) holder[key] = MASK;
  }
  // Hashes, not passwords; still nothing a printed config should carry.
  for (const user of Object.values(copy.console.users)) user.passwordHash = MASK;
  copy.platform.baseUrl = maskUrlPassword(copy.platform.baseUrl);
  if (copy.erp.rest?.baseUrl !== undefined) {
    copy.erp.rest.baseUrl = maskUrlPassword(copy.erp.rest.baseUrl);
  }
  return copy;
}
