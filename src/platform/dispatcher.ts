import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { errorMessage, SetupError } from '../shared/errors.js';
import { envValue } from './proxyRoute.js';

export interface DispatcherOptions {
  concurrency: number;
  timeoutMs: number;
  /** A PEM file with extra CAs (a company proxy or a private platform CA), trusted besides the public roots. */
  caFile?: string;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY come from; the composition root passes process.env. */
  env: Readonly<Record<string, string | undefined>>;
}

/** The public roots and the PEM of `caFile`: what the platform's certificate is checked against. */
export function readCa(caFile: string): string[] {
  try {
    return [...rootCertificates, readFileSync(caFile, 'utf8')];
  } catch (error) {
    throw new SetupError(`platform.caFile ${caFile} cannot be read: ${errorMessage(error)}`, [
      `platform.caFile: ${errorMessage(error)}; give the path of a PEM file readable by the daemon`,
    ]);
  }
}

/**
 * One keep-alive dispatcher for every platform request: at most `concurrency` sockets per
 * origin, time-outs for the headers and for each pause in the body, proxies from the given env.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const ca = options.caFile === undefined ? undefined : readCa(options.caFile);
  const tls = ca === undefined ? {} : { ca };
  return new EnvHttpProxyAgent({
    connections: options.concurrency,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs, ...tls },
    requestTls: { timeout: options.timeoutMs, ...tls },
    proxyTls: { timeout: options.timeoutMs, ...tls },
    httpProxy: envValue(options.env, 'HTTP_PROXY'),
    httpsProxy: envValue(options.env, 'HTTPS_PROXY'),
    noProxy: envValue(options.env, 'NO_PROXY'),
  });
}
