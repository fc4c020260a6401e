import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileLabel } from '../../../src/log/index.js';
import type { CliResult } from '../../support/cli.js';
import { eventually, withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { webhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';

/**
 * Issue 38, done when: the byte scan of `forget` reaches the log the daemon wrote, its alerts
 * and metrics, and every output of the operator's tools. A patient is pulled, the platform
 * refuses our write about her with an answer quoting her, the ERP names a refused file after
 * her; then every tool looks, and `forget` erases her.
 */
const WENDELGARD = {
  customerId: 'K-1946',
  firstName: 'Wendelgard',
  lastName: 'Quirrenbach',
  birthday: '1931-04-17',
  address: 'Ulmenhofweg 71c',
  phone: '+49 30 5550146',
  regionId: 'r-1',
  careGivers: [],
};
const ANSWER = `note for Wendelgard Quirrenbach (born 1931-04-17, Ulmenhofweg 71c) refused`;
const UPDATE_FILE = 'Quirrenbach_1931-04-17_update.json';
const BAD_FILE = 'Quirrenbach_Wendelgard_1931-04-17_Ulmenhofweg71c.json';
const SEEDED = ['Wendelgard', 'Quirrenbach', '1931-04-17', 'Ulmenhofweg', '5550146', '5550999'];
const TOKEN = 'endpoint-token-4e8a21c07b';

const seededIn = (text: string) => SEEDED.filter((value) => text.includes(value));
const bytesOf = (file: string) =>
  fs.existsSync(file) ? fs.readFileSync(file).toString('utf8') : '';

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await webhookReceiver();
  return () => void hook.server.close();
});
const rig = useDaemonRig({
  config: () => ({
    http: { enabled: true, host: '127.0.0.1', port: 0, token: TOKEN },
    erp: {
      adapter: 'file',
      file: { outbox: './erp/outbox', inbox: './erp/inbox', scanIntervalMs: 200, minFileAgeMs: 0 },
    },
    alerts: { webhook: { url: hook.url, format: 'generic' }, checkSeconds: 1 },
  }),
});

/** Every output of the tools an operator looks with, masked (no --show-personal). */
async function looks(patientId: string, deadJob: number): Promise<CliResult[]> {
  const { f } = rig();
  const bad = path.join(f.folder, 'erp', 'inbox', '.error', 'patient', BAD_FILE);
  const runs = [
    ['queue', 'list', '--dead'],
    ['queue', 'list', '--dead', '--json'],
    ['queue', 'show', String(deadJob)],
    ['queue', 'show', String(deadJob), '--json'],
    ['status'],
    ['status', '--json'],
    ['trace', WENDELGARD.customerId],
    ['trace', fileLabel(UPDATE_FILE), '--json'],
    ['mapping', 'preview', 'patient', patientId],
    ...(fs.existsSync(bad) ? [['inbox', 'check', bad]] : []),
  ];
  const results: CliResult[] = [];
  for (const args of runs) results.push(await f.cli(...args));
  return results;
}

const shown = (results: readonly CliResult[]) =>
  results.map((r) => `${r.stdout}\n${r.stderr}`).join('\n');

describe('forget, and every place a patient could be', () => {
  it('no log line, alert, metric or output of the tools holds her; forget leaves no byte of her', async () => {
    const { sim, f } = rig();
    const created = await sim.control.createRecord('patient', WENDELGARD);
    const patientId = String(created._id);
    for (const method of ['PATCH', 'PUT']) {
      await sim.control.setFault({
        path: '/patient/',
        method,
        errorStatus: 422,
        errorBody: ANSWER,
      });
    }
    // A copy a killed dry run left: the daemon removes it at its start.
    fs.mkdirSync(path.dirname(f.database), { recursive: true });
    const stale = path.join(path.dirname(f.database), '.dry-run-999999999-x1');
    fs.mkdirSync(stale);
    fs.writeFileSync(path.join(stale, 'sync.db'), JSON.stringify(WENDELGARD));

    const daemon = rig().start();
    const started = await daemon.waitForLog('homecare-sync started');
    expect(fs.existsSync(stale)).toBe(false);
    await eventually('her hand-over to the ERP', () =>
      f.outboxFiles().some((file) => file.startsWith(`patient/${patientId}_`)),
    );
    const inbox = path.join(f.folder, 'erp', 'inbox', 'patient');
    fs.mkdirSync(inbox, { recursive: true });
    fs.writeFileSync(
      path.join(inbox, UPDATE_FILE),
      JSON.stringify({ customerId: WENDELGARD.customerId, phone: '+49 30 5550999' }),
    );
    fs.writeFileSync(
      path.join(inbox, BAD_FILE),
      `{ "lastName": Quirrenbach, "firstName": "Wendelgard" }`,
    );

    const deadJob = await eventually('the refused write in the dead letters', async () => {
      const listed = await f.cli('queue', 'list', '--dead', '--json');
      const jobs = JSON.parse(listed.stdout || '[]') as { id: number; kind: string }[];
      return jobs.find((job) => job.kind === 'patient')?.id;
    });
    await eventually('the alert on the refused file', () =>
      hook.bodies.some((body) => body['alert'] === 'inboxRejected'),
    );
    const metrics = await (await fetch(`${String(started['url'])}/metrics`)).text();
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);

    // What left the machine, or may: the log, the alerts, the metrics.
    expect(seededIn(daemon.stdout() + daemon.stderr())).toEqual([]);
    expect(daemon.stdout()).toContain(fileLabel(BAD_FILE));
    expect(seededIn(JSON.stringify(hook.bodies))).toEqual([]);
    expect(seededIn(metrics)).toEqual([]);
    // The tools, before and after forget.
    const before = await looks(patientId, deadJob);
    // Each tool found what it looks for (inbox check: the refused file, exit 1).
    expect(before.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(seededIn(shown(before))).toEqual([]);
    // She was there to be masked: the platform's answer, in the log and the dead letter.
    const logged = daemon
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"bodyExcerpt"'))
      .map((line) => JSON.parse(line) as { err?: { bodyExcerpt?: string } });
    expect(logged.map((line) => line.err?.bodyExcerpt)).toContain('"[redacted]"');
    const revealed = await f.cli('queue', 'show', String(deadJob), '--show-personal');
    expect(revealed.stdout).toContain(ANSWER);

    expect((await f.cli('backup', 'b-1.db')).code).toBe(0);
    const forgot = await f.cli('forget', 'patient', WENDELGARD.customerId, '--force');
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(seededIn(forgot.stdout + forgot.stderr)).toEqual([]);
    const after = await looks(patientId, deadJob);
    expect(seededIn(shown(after))).toEqual([]);

    // Every byte of every copy the daemon holds (the ERP's own outbox copy stays, as documented).
    const files = [f.database, `${f.database}-wal`, path.join(f.folder, 'b-1.db')];
    const inboxRoot = path.join(f.folder, 'erp', 'inbox');
    for (const entry of fs.readdirSync(inboxRoot, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(path.join(entry.parentPath, entry.name));
    }
    for (const file of files) expect(seededIn(bytesOf(file)), file).toEqual([]);
    // Some twenty command runs after the daemon's: more than the default bound on a busy machine.
  }, 120_000);
});
