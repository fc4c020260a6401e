import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user the client logged in as; undefined without a login. */
  user: string | undefined;
  subject: string;
  text: string;
}

export interface SmtpReceiver {
  /** `smtp://[user:pass@]127.0.0.1:<port>`. */
  url: string;
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words of a header, as nodemailer writes non-ASCII. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : quotedPrintable(text.replace(/_/g, ' ')),
    );
}

function quotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`)
    .replace(/%(?![0-9A-F]{2})/gi, '%25');
  return decodeURIComponent(bytes);
}

/** A single-part text mail as nodemailer writes it: its subject and its decoded text. */
function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? quotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { subject: decodeWords(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

/**
 * A real SMTP server on loopback (the `smtp-server` package, plain text, no STARTTLS) that keeps
 * every mail it is given. With `login`, it takes only that user and password. `port` 0: a free
 * one; a given port lets a test start it where a client already tries to reach it.
 */
export async function smtpReceiver(
  options: { port?: number; login?: { user: string; pass: string } } = {},
): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const { login } = options;
  const server = new SMTPServer({
    disabledCommands: login === undefined ? ['STARTTLS', 'AUTH'] : ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: login === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === login?.user && auth.password === login?.pass;
      callback(ok ? null : new Error('wrong login'), ok ? { user: auth.username } : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        mails.push({
          from: envelope.mailFrom === false ? '' : envelope.mailFrom.address,
          to: envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          ...parse(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const credentials = login === undefined ? '' : `${login.user}:${encodeURIComponent(login.pass)}@`;
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
