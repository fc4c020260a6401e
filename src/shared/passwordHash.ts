import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords kept as scrypt hashes in the PHC string format (`$scrypt$ln=15,r=8,p=1$<salt>$<hash>`,
 * base64 without padding): the console's users in the config, made by `homecare-sync console
 * password`. scrypt is Node's own (node:crypto), slow by design and memory-hard.
 */

const PHC =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{43,})$/;

/** The cost of a new hash: 2^15 rounds of 8 blocks, 32 MiB and about 0.1 s to check. */
const NEW = { ln: 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** The most a hash from the config may ask for, so a typo cannot take a gigabyte per login. */
const MAX = { ln: 17, r: 16, p: 4 };

export interface PasswordHash {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** The hash a config holds, or why it is not one this daemon checks. */
export function parsePasswordHash(text: string): PasswordHash | { problem: string } {
  const match = PHC.exec(text);
  if (match === null) {
    return {
      problem:
        'not a password hash as `homecare-sync console password` makes it ($scrypt$ln=15,r=8,p=1$…$…)',
    };
  }
  const [ln, r, p] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (ln < 10 || ln > MAX.ln || r < 1 || r > MAX.r || p < 1 || p > MAX.p) {
    return {
      problem: `scrypt's cost must be ln 10 to ${MAX.ln}, r 1 to ${MAX.r}, p 1 to ${MAX.p}: make the hash again with \`homecare-sync console password\``,
    };
  }
  const salt = Buffer.from(match[4] ?? '', 'base64');
  const key = Buffer.from(match[5] ?? '', 'base64');
  return { ln, r, p, salt, key };
}

function derive(password: string, hash: Omit<PasswordHash, 'key'>, bytes: number) {
  const N = 2 ** hash.ln;
  const maxmem = 256 * N * hash.r * hash.p;
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize('NFC'),
      hash.salt,
      bytes,
      { N, r: hash.r, p: hash.p, maxmem },
      (error, key) => (error === null ? resolve(key) : reject(error)),
    ),
  );
}

/** A new hash of `password`, with a salt of its own. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, { ...NEW, salt }, KEY_BYTES);
  return `$scrypt$ln=${NEW.ln},r=${NEW.r},p=${NEW.p}$${b64(salt)}$${b64(key)}`;
}

/** Whether `password` is the one `hash` was made of; the comparison takes the same time either way. */
export async function passwordMatches(password: string, hash: PasswordHash): Promise<boolean> {
  const key = await derive(password, hash, hash.key.length);
  return timingSafeEqual(key, hash.key);
}
