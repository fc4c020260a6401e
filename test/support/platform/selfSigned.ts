import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate with its key, and the PEM file that is both: what `platform.caFile` names. */
export interface SelfSigned {
  key: Buffer;
  cert: Buffer;
  /** The certificate's PEM file, its own CA. */
  caFile: string;
}

/**
 * A self-signed certificate for 127.0.0.1, valid for `days`, written into `folder` as
 * `<name>.key` and `<name>.pem` (by openssl): it stands in for a private platform CA.
 */
export function selfSigned(folder: string, name: string, days: number): SelfSigned {
  const keyFile = join(folder, `${name}.key`);
  const caFile = join(folder, `${name}.pem`);
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', String(days)],
      ...['-keyout', keyFile, '-out', caFile],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(caFile), caFile };
}
