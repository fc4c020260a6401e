import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { dir, load, problems } = useConfigLoader();

const withKeyFile = (file: string) =>
  `platform: { baseUrl: "https://p.example", apiKeyFile: "${file}", variant: A }\n`;
const KIB = 1024;

describe('secret files are regular files of at most 64 KiB', () => {
  it('refuses a secret file above 64 KiB, naming the key, and takes one of exactly 64 KiB', async () => {
    await dir.write('big.key', 'k'.repeat(64 * KIB + 1));
    expect(await problems(withKeyFile('big.key'))).toEqual([
      'platform.apiKey: cannot read platform.apiKeyFile big.key: the file is larger than 64 KiB; point platform.apiKeyFile at a file that holds only the secret',
    ]);
    await dir.write('big.key', 'k'.repeat(64 * KIB));
    expect((await load(withKeyFile('big.key'))).config.platform.apiKey).toHaveLength(64 * KIB);
  });

  it('refuses a directory as http.tokenFile, naming the key', async () => {
    await mkdir(join(dir.path(), 'tokens'));
    expect(await problems(`${MINIMAL}http: { tokenFile: tokens }\n`)).toEqual([
      'http.token: cannot read http.tokenFile tokens: that is a directory, not a file; point http.tokenFile at a file that holds only the secret',
    ]);
  });

  it('follows a symlink to a regular file, as Kubernetes mounts secrets', async () => {
    await dir.write('real.key', 'from-link\n');
    execFileSync('ln', ['-s', 'real.key', join(dir.path(), 'link.key')]);
    expect((await load(withKeyFile('link.key'))).config.platform.apiKey).toBe('from-link');
  });
});

describe('the config file and platform.caFile are regular files of at most 1 MiB', () => {
  it('takes a CA bundle of 220 KiB and refuses one above 1 MiB, naming platform.caFile', async () => {
    await dir.write('ca.pem', 'c'.repeat(220 * KIB));
    expect((await load(`${MINIMAL}  caFile: ca.pem\n`)).config.platform.caFile).toBe('ca.pem');
    await dir.write('ca.pem', 'c'.repeat(1024 * KIB + 1));
    expect(await problems(`${MINIMAL}  caFile: ca.pem\n`)).toEqual([
      'platform.caFile: ca.pem cannot be used: the file is larger than 1 MiB; give the path of a PEM file',
    ]);
  });

  it('refuses a FIFO as platform.caFile without blocking', async () => {
    execFileSync('mkfifo', [join(dir.path(), 'ca.fifo')]);
    expect(await problems(`${MINIMAL}  caFile: ca.fifo\n`)).toEqual([
      'platform.caFile: ca.fifo cannot be used: that is a FIFO (named pipe), not a file; give the path of a PEM file',
    ]);
  });

  it('refuses a config file above 1 MiB', async () => {
    expect(await problems(`${MINIMAL}# ${'x'.repeat(1024 * KIB)}\n`)).toEqual([
      'config.yaml: the file is larger than 1 MiB; name the YAML config file',
    ]);
  });
});
