/** First of the upper- and lower-case spellings; '' rather than undefined, so undici never falls back to process.env. */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string {
  return env[name] ?? env[name.toLowerCase()] ?? '';
}

/** How requests to one URL leave: through a proxy (named by the variable that set it), or not. */
export type ProxyRoute =
  | { via: 'proxy'; proxy: URL; variable: 'HTTPS_PROXY' | 'HTTP_PROXY' }
  | { via: 'direct'; reason: string };

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** The NO_PROXY entry that covers `host`:`port`, as undici's EnvHttpProxyAgent reads it. */
function bypassedBy(noProxy: string, host: string, port: number): string | undefined {
  if (noProxy.trim() === '*') return '*';
  for (const entry of noProxy.split(/[,\s]/).filter((e) => e !== '')) {
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed?.[2] === undefined ? 0 : Number(parsed[2]);
    if (entryPort !== 0 && entryPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return entry;
  }
  return undefined;
}

/**
 * Whether the platform client's dispatcher (dispatcher.ts, undici's EnvHttpProxyAgent) sends
 * requests to `target` through a proxy, by the same rules: HTTPS_PROXY for https (else
 * HTTP_PROXY), HTTP_PROXY for http, unless NO_PROXY covers the host.
 */
export function proxyRoute(
  target: URL,
  env: Readonly<Record<string, string | undefined>>,
): ProxyRoute {
  const https = target.protocol === 'https:';
  const variable =
    https && envValue(env, 'HTTPS_PROXY') !== ''
      ? 'HTTPS_PROXY'
      : envValue(env, 'HTTP_PROXY') !== ''
        ? 'HTTP_PROXY'
        : undefined;
  if (variable === undefined) {
    return {
      via: 'direct',
      reason: https ? 'HTTPS_PROXY and HTTP_PROXY are not set' : 'HTTP_PROXY is not set',
    };
  }
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  const entry = bypassedBy(envValue(env, 'NO_PROXY'), host, port);
  if (entry !== undefined) return { via: 'direct', reason: `NO_PROXY (${entry}) covers ${host}` };
  return { via: 'proxy', proxy: new URL(envValue(env, variable)), variable };
}

/** A proxy's address as it may be shown: without the user and password it may carry. */
export function shownProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
