import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFolder, type CliFolder } from '../../support/cli/cliFolder.js';
import {
  eventually,
  killIfRunning,
  startDaemonProcess,
  withinBound,
  type DaemonProcess,
} from '../../support/cli/daemonProcess.js';

/** Nothing listens on the discard port: the platform is unreachable, its alert fires. */
const DEAD_PLATFORM = 'http://127.0.0.1:9/api';
/** The webhook's time for one send, headers and body. */
const TIMEOUT_MS = 2_000;

interface Try {
  headers: IncomingHttpHeaders;
  openedAt: number;
  closedAt?: number;
}

/**
 * A webhook receiver that answers 200 and then trickles its body, a byte every second: never
 * quiet for long enough to trip a time-out per pause, never done.
 */
async function tricklingReceiver() {
  const tries: Try[] = [];
  const server: Server = createServer((request, response) => {
    const seen: Try = { headers: request.headers, openedAt: performance.now() };
    tries.push(seen);
    request.socket.on('close', () => (seen.closedAt = performance.now()));
    request.resume();
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
    const trickle = setInterval(() => response.write('.'), 1_000);
    response.on('close', () => clearInterval(trickle));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { tries, server, port };
}

let receiver: Awaited<ReturnType<typeof tricklingReceiver>>;
let f: CliFolder;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  receiver = await tricklingReceiver();
  // The login in the URL, its password percent-encoded as URLs want it.
  const url = `http://alerts-bot:s%3Acret@127.0.0.1:${receiver.port}/hook`;
  f = cliFolder(DEAD_PLATFORM, {
    http: { enabled: false },
    alerts: { webhook: { url, timeoutMs: TIMEOUT_MS }, checkSeconds: 1 },
  });
});
afterAll(async () => {
  await killIfRunning(daemon);
  receiver.server.closeAllConnections();
  receiver.server.close();
  f.cleanup();
});

describe('alerts that cannot block (issue 37.5)', () => {
  it('a webhook trickling its answer: each send ends at its deadline, says so once, sends the login as Basic auth, and stop ends at once', async () => {
    daemon = startDaemonProcess(f.configPath, f.folder);
    await daemon.waitForLog('homecare-sync started');
    await eventually('two tries of the alert', () => receiver.tries.length >= 2);
    const [first] = receiver.tries;
    const basic = Buffer.from('alerts-bot:s:cret').toString('base64');
    expect(first?.headers.authorization).toBe(`Basic ${basic}`);
    // The first try was cut at its deadline, although the receiver kept sending.
    const closedAt = await eventually('the first try cut', () => first?.closedAt);
    expect(closedAt - (first?.openedAt ?? 0)).toBeLessThan(TIMEOUT_MS + 1_500);
    const failing = daemon
      .lines()
      .filter((line) => String(line.msg).startsWith('alerts: webhook http://127.0.0.1'));
    expect(failing.map((line) => line.level)).toEqual(['warn']);
    expect(JSON.stringify(daemon.lines())).not.toContain('s%3Acret');

    const stopping = performance.now();
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop', 10_000)).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(5_000);
    await eventually('every socket of the receiver closed', () =>
      receiver.tries.every((each) => each.closedAt !== undefined),
    );
  }, 60_000);
});
