import { connect, type Socket } from 'node:net';

/** What came back on one connection: the status line's code and everything read until close. */
export interface RawAnswer {
  status: number | undefined;
  text: string;
}

const statusOf = (text: string) => {
  const code = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  return code === undefined ? undefined : Number(code);
};

/**
 * Sends `head` and `body` as they are on a new loopback connection, with no client library in
 * between to normalise the request line or the headers, and resolves with all that came back
 * once the server closed the connection (requests here say `Connection: close`).
 */
export function rawRequest(
  port: number,
  head: string,
  body: Buffer | string = '',
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error) => (text === '' ? reject(error) : undefined));
    socket.on('close', () => resolve({ status: statusOf(text), text }));
    socket.write(head);
    socket.write(body);
  });
}

/** A request's head: the request line as given, the headers, `Connection: close`. */
export function requestHead(
  line: string,
  headers: Record<string, string | readonly string[]> = {},
): string {
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    (typeof value === 'string' ? [value] : value).map((one) => `${name}: ${one}`),
  );
  return [line, 'Host: 127.0.0.1', ...lines, 'Connection: close', '', ''].join('\r\n');
}

/** A POST's head with a JSON body's length and type. */
export function postHead(
  target: string,
  body: Buffer | string,
  headers: Record<string, string | readonly string[]> = {},
): string {
  return requestHead(`POST ${target} HTTP/1.1`, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  });
}
