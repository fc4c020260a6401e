import { isIP } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { proxyRoute, readCa, shownProxy } from '../platform/index.js';
import { errorMessage } from '../shared/errors.js';
import { connectTcp, handshake, tunnel, type Target } from './connect.js';
import type { CheckContext } from './context.js';
import type { CheckDefinition } from './runner.js';
import { systemLookup } from './system.js';
import { fail, pass, skip, warn, type Outcome } from './verdict.js';
import { DAY_MS } from '../shared/clock.js';

/** A certificate that expires within this many days is warned about. */
export const CERTIFICATE_WARN_DAYS = 14;

/** The platform's host (IPv6 without brackets) and port, as connections take them. */
function endpointOf(context: CheckContext): { host: string; port: number; https: boolean } {
  const url = new URL(context.config.platform.baseUrl);
  const https = url.protocol === 'https:';
  const port = Number(url.port) || (https ? 443 : 80);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, https };
}

function routeOf(context: CheckContext) {
  return proxyRoute(new URL(context.config.platform.baseUrl), context.deps.env);
}

function target(context: CheckContext, host: string, port: number, signal: AbortSignal): Target {
  return { host, port, timeoutMs: context.deps.limitMs, signal };
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** platform.proxy: the proxy the environment names for the platform takes connections. */
async function proxyOutcome(context: CheckContext, signal: AbortSignal): Promise<Outcome> {
  const route = routeOf(context);
  if (route.via === 'direct') return skip(`no proxy: ${route.reason}`);
  const shown = shownProxy(route.proxy);
  const port = Number(route.proxy.port) || (route.proxy.protocol === 'https:' ? 443 : 80);
  try {
    (await connectTcp(target(context, route.proxy.hostname, port, signal))).destroy();
  } catch (error) {
    return fail(
      `the proxy ${shown} (from ${route.variable}) cannot be reached: ${errorMessage(error)}`,
      `check ${route.variable}, or set NO_PROXY to the platform's host if it is reached directly`,
    );
  }
  return pass(
    `requests to the platform go through the proxy ${shown} (from ${route.variable}); it takes connections`,
  );
}

/** platform.dns: the platform's host name resolves here (not asked where a proxy resolves it). */
async function dnsOutcome(context: CheckContext): Promise<Outcome> {
  const { host } = endpointOf(context);
  if (isIP(host) !== 0) return skip(`${host} is an address: nothing to resolve`);
  if (routeOf(context).via === 'proxy') return skip(`the proxy resolves ${host}`);
  const lookup = context.deps.lookup ?? systemLookup;
  try {
    const addresses = await lookup(host);
    return pass(`${host} resolves to ${addresses.map((a) => a.address).join(', ')}`);
  } catch (error) {
    return fail(
      `${host} does not resolve: ${errorMessage(error)}`,
      "check the host in platform.baseUrl, and this machine's DNS (/etc/resolv.conf, the container's network)",
    );
  }
}

/** platform.tcp: the platform's port takes a connection. */
async function tcpOutcome(context: CheckContext, signal: AbortSignal): Promise<Outcome> {
  const { host, port } = endpointOf(context);
  if (routeOf(context).via === 'proxy')
    return skip('requests go through the proxy (platform.proxy)');
  const started = context.deps.clock.now().getTime();
  try {
    (await connectTcp(target(context, host, port, signal))).destroy();
  } catch (error) {
    return fail(
      `nothing takes connections at ${host}:${port}: ${errorMessage(error)}`,
      'check the port in platform.baseUrl, that the platform is up, and that no firewall is in between',
    );
  }
  const ms = context.deps.clock.now().getTime() - started;
  return pass(`${host}:${port} takes connections (${ms} ms)`);
}

/** Who a certificate names, for a message. */
function nameOf(part: PeerCertificate['subject'] | undefined): string {
  for (const value of [part?.CN, part?.O]) {
    const name = Array.isArray(value) ? value[0] : value;
    if (name !== undefined && name !== '') return name;
  }
  return 'an unnamed party';
}

/** The verdict on a trusted certificate: its expiry against `now`. */
export function certificateOutcome(certificate: PeerCertificate, now: Date): Outcome {
  const validTo = new Date(certificate.valid_to);
  const days = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  const who = `the certificate of ${nameOf(certificate.subject)} (issued by ${nameOf(certificate.issuer)})`;
  const until = `valid until ${validTo.toISOString()}`;
  if (validTo.getTime() <= now.getTime()) {
    return fail(
      `${who} expired at ${validTo.toISOString()}`,
      'the platform operator must renew it',
    );
  }
  if (days < CERTIFICATE_WARN_DAYS) {
    return warn(
      `${who} expires in ${days} day${days === 1 ? '' : 's'} (${until})`,
      'tell the platform operator: once it expires, no request gets through',
    );
  }
  return pass(`${who} is trusted, ${until} (${days} days)`);
}

/** The proxy would not reach the platform: not the platform's certificate's fault. */
class TunnelError extends Error {}

function handshakeFailure(context: CheckContext, error: unknown): Outcome {
  const text = errorMessage(error);
  if (error instanceof TunnelError) {
    return fail(
      text,
      'ask who runs the proxy to let it through to the platform (CONNECT to its https port)',
    );
  }
  const { caFile } = context.config.platform;
  if (/CERT_HAS_EXPIRED/.test(text)) {
    return fail(
      `the platform's certificate has expired (${text})`,
      'the platform operator must renew it',
    );
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_|ALTNAME|HOSTNAME/.test(text)) {
    return fail(
      `the platform's certificate is not trusted: ${text}`,
      caFile === undefined
        ? 'set platform.caFile to the PEM file of the CA that signed it (a private or company CA)'
        : `platform.caFile (${caFile}) does not hold the CA that signed it, or the certificate does not name this host: ask the platform operator for the right CA`,
    );
  }
  return fail(
    `the TLS handshake failed: ${text}`,
    'check that platform.baseUrl names the https port of the platform',
  );
}

/** platform.tls: the handshake (through the proxy's tunnel where one is used) and the certificate. */
async function tlsOutcome(context: CheckContext, signal: AbortSignal): Promise<Outcome> {
  const { host, port, https } = endpointOf(context);
  if (!https) {
    if (isLoopback(host)) return skip(`http to ${host}: no TLS on this machine's own loopback`);
    return warn(
      `platform.baseUrl is http: the API key and the patients' data cross the network unencrypted`,
      'use the https address of the platform',
    );
  }
  const { caFile } = context.config.platform;
  const route = routeOf(context);
  try {
    const ca = caFile === undefined ? undefined : readCa(caFile);
    let socket;
    if (route.via === 'proxy') {
      if (route.proxy.protocol !== 'http:') {
        return skip(
          `a TLS proxy (${shownProxy(route.proxy)}) is not probed here; platform.key goes the way the daemon goes`,
        );
      }
      const proxyPort = Number(route.proxy.port) || 80;
      const via = target(context, route.proxy.hostname, proxyPort, signal);
      socket = await tunnel(route.proxy, host, port, via).catch((error: unknown) => {
        throw new TunnelError(
          `the proxy ${shownProxy(route.proxy)} did not open a tunnel to ${host}:${port}: ${errorMessage(error)}`,
        );
      });
    }
    const certificate = await handshake(target(context, host, port, signal), {
      ...(isIP(host) === 0 ? { servername: host } : {}),
      ...(ca === undefined ? {} : { ca }),
      ...(socket === undefined ? {} : { socket }),
    });
    return certificateOutcome(certificate, context.deps.clock.now());
  } catch (error) {
    return handshakeFailure(context, error);
  }
}

export const proxyCheck: CheckDefinition<CheckContext> = {
  id: 'platform.proxy',
  run: proxyOutcome,
};
export const dnsCheck: CheckDefinition<CheckContext> = { id: 'platform.dns', run: dnsOutcome };
export const tcpCheck: CheckDefinition<CheckContext> = {
  id: 'platform.tcp',
  needs: ['platform.dns'],
  run: tcpOutcome,
};
export const tlsCheck: CheckDefinition<CheckContext> = {
  id: 'platform.tls',
  needs: ['platform.tcp', 'platform.proxy'],
  run: tlsOutcome,
};
