import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startTestSimulator, type TestSimulator } from '../simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from '../cli/cliFolder.js';
import { killIfRunning, startDaemonProcess, type DaemonProcess } from '../cli/daemonProcess.js';

/** The endpoint's own bearer token (the ERP's door), which opens no console page. */
export const ENDPOINT_TOKEN = 'endpoint-token-5c1e9a7f33d2';
export const OPERATOR_TOKEN = 'console-operator-8e2b4d61a9f0';
export const READ_ONLY_TOKEN = 'console-readonly-3f7a0c52e6b1';

/** The console's users in the tests: name → password and role. */
export const USERS = {
  alice: { password: 'alice-has-a-long-password', role: 'operator' },
  bob: { password: 'bob-has-a-long-password', role: 'readOnly' },
} as const;

/**
 * A password hash as `homecare-sync console password` makes one, at the cheapest cost the config
 * takes (ln=10), so that a test's logins take milliseconds.
 */
export function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=10,r=8,p=1$${b64(salt)}$${b64(key)}`;
}

export interface ConsoleRig {
  sim: TestSimulator;
  f: CliFolder;
  daemon: DaemonProcess;
  /** The endpoint's address, `http://127.0.0.1:<port>`. */
  url: string;
}

export interface ConsoleRigOptions {
  /** More `console` settings beside enabled, the users and the tokens. */
  console?: Record<string, unknown>;
  /** More `http` settings beside the port and the endpoint's token. */
  http?: Record<string, unknown>;
  /** More `erp.file` settings beside the folders (relative to the daemon's folder). */
  erpFile?: Record<string, unknown>;
  /** Before the daemon starts: faults to set on the simulator, say. */
  before?: (sim: TestSimulator) => Promise<void>;
}

/**
 * The real daemon (`homecare-sync run`, as built) with its console on, against the simulator,
 * on SQLite in a temp folder: one per test file, started before its tests and killed after.
 */
export function useConsoleDaemon(options: ConsoleRigOptions = {}): () => ConsoleRig {
  let rig: ConsoleRig | undefined;
  beforeAll(async () => {
    const sim = await startTestSimulator({ keys: SIM_KEYS, seed: 5 });
    await options.before?.(sim);
    const users = Object.fromEntries(
      Object.entries(USERS).map(([name, user]) => [
        name,
        { role: user.role, passwordHash: cheapHash(user.password) },
      ]),
    );
    const f = cliFolder(sim.url, {
      http: { host: '127.0.0.1', port: 0, token: ENDPOINT_TOKEN, ...options.http },
      queue: { pollIntervalMs: 100 },
      erp: {
        adapter: 'file',
        file: { outbox: 'erp/outbox', inbox: 'erp/inbox', ...options.erpFile },
      },
      console: {
        enabled: true,
        users,
        operatorToken: OPERATOR_TOKEN,
        readOnlyToken: READ_ONLY_TOKEN,
        ...options.console,
      },
    });
    const daemon = startDaemonProcess(f.configPath, f.folder);
    const started = await daemon.waitForLog('homecare-sync started');
    rig = { sim, f, daemon, url: String(started['url']) };
  }, 60_000);
  afterAll(async () => {
    await killIfRunning(rig?.daemon);
    await rig?.sim.close();
    rig?.f.cleanup();
  });
  return () => {
    if (rig === undefined) throw new Error('the console daemon is not started: call inside a test');
    return rig;
  };
}
