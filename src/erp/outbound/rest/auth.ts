import type { RestAuth } from './options.js';

/** The header that carries the credentials; none when the ERP needs none. */
export function authHeaders(auth: RestAuth | undefined): Record<string, string> {
  if (auth === undefined) return {};
  switch (auth.type) {
    case 'bearer':
      return { authorization: `Bearer ${auth.token}` };
    case 'basic':
      return { authorization: `Basic ${basicCredentials(auth.username, auth.password)}` };
    case 'header':
      return { [auth.header.toLowerCase()]: auth.value };
  }
}

function basicCredentials(username: string, password: string): string {
  return Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

/** Every form in which a credential could come back to us (an ERP echoing its request). */
export function secretsOf(auth: RestAuth | undefined): string[] {
  if (auth === undefined) return [];
  switch (auth.type) {
    case 'bearer':
      return [auth.token];
    case 'basic':
      return [auth.password, basicCredentials(auth.username, auth.password)];
    case 'header':
      return [auth.value];
  }
}

/** Longest first, so a secret that contains another is hidden whole. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  const ordered = secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return ordered.reduce((result, secret) => result.split(secret).join('***'), text);
}
