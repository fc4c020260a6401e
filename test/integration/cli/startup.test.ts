import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeLock } from '../../../src/store/index.js';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

let occupied: Server;
let port = 0;

beforeAll(async () => {
  occupied = createServer();
  await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
  const address = occupied.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise<void>((resolve) => occupied.close(() => resolve()));
});

// After the hooks above: the config names the port they occupied.
const rig = useDaemonRig({
  simulator: { seed: 23 },
  config: () => ({
    http: { enabled: true, host: '127.0.0.1', port, token: 'startup-token-3a9e51c7' },
  }),
});

describe('run: the endpoint port is in use', () => {
  it('exits 1 naming http.port, having started nothing and released the database', async () => {
    const { sim, f, start } = rig();
    const daemon = start();
    expect(await withinBound(daemon.exited, 'run to exit')).toBe(1);
    expect(daemon.stderr()).toBe(
      `the HTTP endpoint cannot listen on 127.0.0.1:${port}:\n` +
        `  http.port: port ${port} on 127.0.0.1 is in use by another program; choose another http.port (or http.host), or set http.enabled: false\n`,
    );
    expect(daemon.stdout()).not.toContain('"homecare-sync started"');
    expect(daemon.stdout()).not.toContain('"pull finished"');
    expect((await sim.control.requests()).length).toBe(0);

    const lock = takeLock(f.database, { pid: process.pid, host: 'test', since: 'now' });
    expect('held' in lock).toBe(true);
    if ('held' in lock) lock.held.release();
  });
});
