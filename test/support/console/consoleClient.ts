import { request, type IncomingHttpHeaders } from 'node:http';

/** One answer of the console, its body as text. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How a request proves it comes from the console's own pages, as a browser would. */
export type Site = 'same-origin' | 'cross-site' | 'none';

export interface Sent {
  cookie?: string | undefined;
  token?: string;
  /** `Sec-Fetch-Site`; `none` sends neither it nor Origin (a client that proves nothing). */
  site?: Site;
  /** Origin instead of Sec-Fetch-Site (a browser that sends no Sec-Fetch-*). */
  origin?: string;
  /** The address the request comes from (a loopback one other than 127.0.0.1, say). */
  from?: string;
}

/** One request by node:http, which can send from a given local address. */
function send(
  target: URL,
  options: { method: string; headers: Record<string, string>; body?: string; from?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      target,
      {
        method: options.method,
        headers: options.headers,
        ...(options.from === undefined ? {} : { localAddress: options.from }),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** GET, or POST of a form, to the console at `url` (the endpoint's address), no redirect followed. */
export function consoleRequest(
  url: string,
  path: string,
  sent: Sent = {},
  form?: Record<string, string>,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (sent.cookie !== undefined) headers['cookie'] = sent.cookie;
  if (sent.token !== undefined) headers['authorization'] = `Bearer ${sent.token}`;
  const site = sent.site ?? (sent.origin === undefined ? 'same-origin' : undefined);
  if (site !== undefined && site !== 'none') headers['sec-fetch-site'] = site;
  if (sent.origin !== undefined) headers['origin'] = sent.origin;
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return send(new URL(`${url}${path}`), {
    method: form === undefined ? 'GET' : 'POST',
    headers,
    ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
    ...(sent.from === undefined ? {} : { from: sent.from }),
  });
}

/** The session cookie a login answered with (`name=value`), or undefined. */
export function sessionOf(answer: Answer): string | undefined {
  const set = answer.headers['set-cookie'];
  const line = Array.isArray(set) ? set[0] : set;
  return line?.split(';')[0];
}

/** Logs in as `user`; the session cookie to send, or why not. */
export async function logIn(
  url: string,
  user: string,
  password: string,
  sent: Sent = {},
): Promise<{ answer: Answer; cookie: string | undefined }> {
  const answer = await consoleRequest(url, '/console/login', sent, {
    user,
    password,
    next: '/console',
  });
  return { answer, cookie: sessionOf(answer) };
}
