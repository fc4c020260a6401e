import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { systemClock } from '../../../src/shared/clock.js';
import { openStore, reducedRecord } from '../../../src/store/index.js';
import { runCli } from '../../support/cli.js';
import { cliFolder } from '../../support/cli/cliFolder.js';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const rig = useDaemonRig({ simulator: { seed: 5 } });
/** The same database, with the API key taken from HOMECARE_API_KEY as in a real deployment. */
let fromEnv = '';

/** Two passes: the second hands over the orders as the acknowledgements of the first left them. */
beforeAll(async () => {
  const { f } = rig();
  for (let pass = 0; pass < 2; pass += 1) {
    const result = await f.cli('sync');
    if (result.code !== 0) throw new Error(`sync failed:\n${result.stderr}`);
  }
  const config = parse(readFileSync(f.configPath, 'utf8')) as { platform: { apiKey: string } };
  config.platform.apiKey = '${HOMECARE_API_KEY}';
  fromEnv = join(f.folder, 'from-env.yaml');
  // 0600 like every config that holds a secret (the endpoint token here); else a warning.
  writeFileSync(fromEnv, stringify(config), { mode: 0o600 });
}, 60_000);

/** `homecare-sync <args> -c from-env.yaml` with nothing in the environment. */
const withoutKey = (...args: string[]) => runCli([...args, '-c', fromEnv], { cwd: rig().f.folder });

describe('commands that only read or change the database', () => {
  it.each(['status', 'queue list', 'queue list --dead', 'checkpoint list'])(
    '%s runs without HOMECARE_API_KEY',
    async (command) => {
      const result = await withoutKey(...command.split(' '));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
  );

  it('sync still asks for HOMECARE_API_KEY, which it sends', async () => {
    const result = await withoutKey('sync');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('environment variable HOMECARE_API_KEY is not set');
  });

  it('checkpoint list into a reader that stops early (| head) exits 0 without a crash', async () => {
    const { f } = rig();
    const result = await runCli(['checkpoint', 'list', '-c', f.configPath], {
      cwd: f.folder,
      closeStdout: true,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('help', () => {
  it('help run prints the help of run and exits 0', async () => {
    const result = await runCli(['help', 'run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: homecare-sync run');
  });

  it('a command group without its subcommand is a usage error (exit 2)', async () => {
    const result = await runCli(['queue']);
    expect(result.code).toBe(2);
  });

  it('sync says it is always one pass and --once is only accepted', async () => {
    const result = await runCli(['sync', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--once\s+accepted for compatibility/);
    expect(result.stdout).toContain('sync always runs exactly one pass');
  });
});

describe('redeliver <resource> <_id>', () => {
  it('hands a delivered order to the ERP again under the same name, without a second acknowledgement', async () => {
    const { f } = rig();
    const order = f.outboxFiles().find((name) => name.startsWith('singleOrder/'));
    if (order === undefined) throw new Error('no order in the outbox');
    const [, id] = /^singleOrder\/(.+?)_/.exec(order) ?? [];
    if (id === undefined) throw new Error(`no _id in ${order}`);
    const latest = f
      .outboxFiles()
      .filter((name) => name.startsWith(`singleOrder/${id}_`))
      .sort()
      .at(-1);
    if (latest === undefined) throw new Error('no latest version');
    // The ERP lost the file; a checkpoint reset would not bring it back (the ledger drops repeats).
    rmSync(join(f.outbox, latest));

    const redeliver = await withoutKey('redeliver', 'singleOrder', id);
    expect(redeliver.stderr).toBe('');
    expect(redeliver.code).toBe(0);
    expect(redeliver.stdout).toContain(`singleOrder ${id}`);
    expect(redeliver.stdout).toContain('goes to the ERP again');
    // The operator's action is kept, with who did it, and the trace shows it.
    const trace = await withoutKey('trace', id);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout).toMatch(
      new RegExp(`redeliver of singleOrder:${id} \\(.+\\) by ${userInfo().username} on `),
    );

    const sync = await f.cli('sync');
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toContain('1 handed to the ERP');
    // The deliver job alone: the acknowledgement of that version was queued once, long ago.
    expect(sync.stderr).toContain('queue ran 1,');
    expect(f.outboxFiles()).toContain(latest);
  });

  it('exits 1 naming the record when it was never pulled, and 2 on an unknown resource', async () => {
    const unknown = await withoutKey('redeliver', 'singleOrder', 'no-such-id');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no singleOrder no-such-id in the mirror');
    const wrong = await withoutKey('redeliver', 'orders', 'x');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('not a resource name');
  });

  it('refuses, naming the record and why, an order whose body retention reduced', async () => {
    const { f } = rig();
    const store = openStore({ path: f.database, clock: systemClock });
    let id: string;
    let jobs: number;
    try {
      const row = store.db
        .prepare("SELECT _id, json FROM mirror WHERE resource = 'singleOrder' LIMIT 1")
        .get() as { _id: string; json: string };
      id = row._id;
      // What retention leaves of an archived order past retention.endedRecords (housekeeping/retention/).
      const ended = JSON.stringify({ ...(JSON.parse(row.json) as object), archived: true });
      store.db
        .prepare("UPDATE mirror SET json = ? WHERE resource = 'singleOrder' AND _id = ?")
        .run(reducedRecord(ended, '2026-03-01T00:00:00.000Z'), id);
      jobs = store.db.prepare('SELECT count(*) FROM queue').pluck().get() as number;
    } finally {
      store.close();
    }

    const refused = await withoutKey('redeliver', 'singleOrder', id);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`singleOrder ${id} (`);
    expect(refused.stderr).toContain(
      'cannot be redelivered: since 2026-03-01T00:00:00.000Z homecare-sync keeps only its ids, stamps and status',
    );
    expect(refused.stderr).toContain('it was archived more than retention.endedRecords days');
    const after = openStore({ path: f.database, clock: systemClock });
    try {
      expect(after.db.prepare('SELECT count(*) FROM queue').pluck().get()).toBe(jobs);
    } finally {
      after.close();
    }
  });
});

describe('while the daemon runs', () => {
  it('checkpoint reset is refused; once the daemon stopped, the reset goes through', async () => {
    const daemon = rig().start();
    await daemon.waitForLog('homecare-sync started');

    const refused = await withoutKey('checkpoint', 'reset', 'singleOrder');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('checkpoint reset refused');
    expect(refused.stderr).toContain('stop it (SIGTERM), reset, then start it again');
    const list = await withoutKey('checkpoint', 'list', '--json');
    const kept = JSON.parse(list.stdout) as { resource: string; watermark: string | null }[];
    const orders = kept.filter((c) => c.resource === 'singleOrder');
    expect(orders.length).toBeGreaterThan(0);
    for (const checkpoint of orders) expect(checkpoint.watermark).not.toBeNull();

    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to exit after SIGTERM')).toBe(0);
    await daemon.waitForLog('homecare-sync stopped');

    const reset = await withoutKey('checkpoint', 'reset', 'singleOrder');
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
  }, 120_000);
});

describe('sync with the platform down', () => {
  it('tries the first list, then fails the others at once naming the reason', async () => {
    const down = cliFolder('http://127.0.0.1:1');
    try {
      const result = await down.cli('sync');
      expect(result.code).toBe(1);
      const failed = result.stderr.split('\n').filter((line) => line.startsWith('pull failed: '));
      expect(failed.length).toBeGreaterThan(2);
      const tried = failed.filter(
        (line) => !line.includes('not sent: the platform was unreachable'),
      );
      expect(tried).toHaveLength(1);
      expect(tried[0]).toContain('ECONNREFUSED');
    } finally {
      down.cleanup();
    }
  });
});
