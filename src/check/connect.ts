import { request } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';

/** Where a socket goes: a host and port, within a time, ending when `signal` aborts. */
export interface Target {
  host: string;
  port: number;
  timeoutMs: number;
  signal: AbortSignal;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'ERROR';
}

/** An error with the system-style code of a socket failure (not one of our error codes). */
function withCode(message: string, code: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** An error whose message starts with its code, as the checks print it. */
function failure(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  return Object.assign(new Error(message.startsWith(code) ? message : `${code}: ${message}`), {
    code,
  });
}

/** A TCP connection to the target: resolves once it stands, rejects with the system's code. */
export function connectTcp(target: Target): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: target.host, port: target.port, timeout: target.timeoutMs });
    const stop = () => socket.destroy(new Error('the check ran out of time'));
    target.signal.addEventListener('abort', stop, { once: true });
    socket.once('connect', () => {
      socket.setTimeout(0);
      target.signal.removeEventListener('abort', stop);
      resolve(socket);
    });
    socket.once('timeout', () =>
      socket.destroy(withCode('the connection was not made in time', 'ETIMEDOUT')),
    );
    socket.once('error', (error) => reject(failure(error)));
  });
}

/**
 * A tunnel to `host`:`port` through an HTTP proxy (CONNECT), as undici opens it for an https
 * request; the proxy's user and password go in `Proxy-Authorization`.
 */
export function tunnel(proxy: URL, host: string, port: number, target: Target): Promise<Socket> {
  const credentials =
    proxy.username === ''
      ? {}
      : {
          'proxy-authorization': `Basic ${Buffer.from(
            `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`,
          ).toString('base64')}`,
        };
  return new Promise((resolve, reject) => {
    const asked = request({
      host: target.host,
      port: target.port,
      method: 'CONNECT',
      path: `${host}:${port}`,
      headers: { host: `${host}:${port}`, ...credentials },
      timeout: target.timeoutMs,
      signal: target.signal,
    });
    asked.once('connect', (answer, socket) => {
      if (answer.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`the proxy refused the tunnel: HTTP ${answer.statusCode ?? 0}`));
    });
    asked.once('timeout', () =>
      asked.destroy(withCode('the proxy did not answer in time', 'ETIMEDOUT')),
    );
    asked.once('error', (error) => reject(failure(error)));
    asked.end();
  });
}

/** The certificate a TLS handshake over `socket` (or a new connection) showed, once trusted. */
export function handshake(
  target: Target,
  options: { servername?: string; ca?: string[]; socket?: Socket },
): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const secure: TLSSocket = tlsConnect({
      host: target.host,
      port: target.port,
      timeout: target.timeoutMs,
      ...(options.socket === undefined ? {} : { socket: options.socket }),
      ...(options.servername === undefined ? {} : { servername: options.servername }),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    const stop = () => secure.destroy(new Error('the check ran out of time'));
    target.signal.addEventListener('abort', stop, { once: true });
    secure.once('secureConnect', () => {
      target.signal.removeEventListener('abort', stop);
      const certificate = secure.getPeerCertificate();
      secure.end();
      resolve(certificate);
    });
    secure.once('timeout', () =>
      secure.destroy(withCode('the handshake did not end in time', 'ETIMEDOUT')),
    );
    secure.once('error', (error) => reject(failure(error)));
  });
}
