import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, getJob } from '../../../src/queue/index.js';
import { PermanentError } from '../../../src/shared/errors.js';
import { runCli } from '../../support/cli.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

let h: QueueHarness;
let config = '';
let deadPatient = 0;
let pendingStatus = 0;

/** A patient update the platform refused (dead), and an order status change still pending. */
beforeAll(async () => {
  h = queueHarness();
  config = join(h.folder, 'config.yaml');
  writeFileSync(
    config,
    `platform:\n  baseUrl: https://platform.example/api\n  apiKey: key-123\n  variant: B\n` +
      `storage:\n  path: ${join(h.folder, 'homecare-sync.db')}\n`,
    { mode: 0o600 },
  );
  deadPatient = enqueue(h.store, {
    kind: 'patient',
    entityKey: 'patient:p-1',
    payload: { _id: 'p-1', customerId: 'K-4711', lastName: 'Mustermann', birthday: '1941-03-02' },
  }).id;
  await h
    .worker({
      patient: () =>
        Promise.reject(
          new PermanentError(
            'PUT /patient/{id} (patient p-1) answered HTTP 422; check the record',
            { status: 422, bodyExcerpt: '{"error":"customerId taken"}' },
          ),
        ),
    })
    .runUntilEmpty();
  pendingStatus = enqueue(h.store, {
    kind: 'orderStatus',
    entityKey: 'singleOrder:o-1',
    payload: { orderType: 'single', id: 'o-1', status: 'transmitted' },
  }).id;
});
afterAll(async () => {
  await h.cleanup();
});

const queue = (...args: string[]) => runCli(['queue', ...args, '-c', config], { cwd: h.folder });

describe('queue CLI', () => {
  it('list prints one line per job with state, tries and last error', async () => {
    const result = await queue('list');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^ID\s+KIND\s+ENTITY KEY\s+STATE\s+TRIES\s+NEXT ATTEMPT\s+LAST ERROR$/,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^${deadPatient}\\s+patient\\s+patient:p-1\\s+dead\\s+1\\s+-\\s+PUT /patient/\\{id\\}`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${pendingStatus}\\s+orderStatus\\s+singleOrder:o-1\\s+pending\\s+0\\s+2026-`),
    );
    expect(lines).toHaveLength(3);
  });

  it('list --limit lists the oldest jobs only and says on stderr how many more there are', async () => {
    const result = await queue('list', '--limit', '1');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${deadPatient}\\s+patient`));
    expect(result.stderr).toBe('1 more job(s) not listed, 2 in all; --limit <n> lists more\n');
    expect((await queue('list', '--limit', '0')).code).toBe(2);
  });

  it('list --dead --json prints only the dead letters as JSON', async () => {
    const result = await queue('list', '--dead', '--json');
    expect(result.code).toBe(0);
    const jobs = JSON.parse(result.stdout) as { id: number; status: string; lastStatus: number }[];
    expect(jobs.map((job) => [job.id, job.status, job.lastStatus])).toEqual([
      [deadPatient, 'dead', 422],
    ]);
  });

  it('show prints the job with its dead letters and masks personal fields in the payload', async () => {
    const result = await queue('show', String(deadPatient));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`job ${deadPatient}\n`);
    expect(result.stdout).toContain('"customerId": "K-4711"');
    expect(result.stdout).toContain('"lastName": "[redacted]"');
    expect(result.stdout).toContain('"birthday": "[redacted]"');
    expect(result.stdout).not.toContain('Mustermann');
    expect(result.stdout).not.toContain('1941');
    expect(result.stdout).toMatch(
      /HTTP 422 \(open\)\n\s+reason: PUT \/patient\/\{id\} \(patient p-1\)/,
    );
    // The platform's answer by its structure: its words may quote the patient.
    expect(result.stdout).toContain('answer: {"error":"[redacted]"}');
    const shown = await queue('show', String(deadPatient), '--show-personal');
    expect(shown.stdout).toContain('answer: {"error":"customerId taken"}');
    expect(shown.stdout).toContain('Mustermann');
  });

  it('an unknown id exits 1 with a message saying where the ids are', async () => {
    const result = await queue('show', '999');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'no job 999 in the queue; `homecare-sync queue list` shows the ids\n',
    );
  });

  it('drop refuses a pending job with exit 1 and leaves it', async () => {
    const result = await queue('drop', String(pendingStatus));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot be dropped while it may still run');
    expect(states(h.store)[pendingStatus]).toBe('pending');
  });

  it('retry puts the dead job back; drop resolves it once it is dead again', async () => {
    const retried = await queue('retry', String(deadPatient));
    expect(retried.stderr).toBe('');
    expect(retried.code).toBe(0);
    expect(getJob(h.store, deadPatient)).toMatchObject({ state: 'pending', attempts: 0 });

    h.store.db.prepare("UPDATE queue SET state = 'dead' WHERE id = ?").run(deadPatient);
    h.store.db
      .prepare("INSERT INTO dead_letters (job_id, reason, dead_at) VALUES (?, 'again', ?)")
      .run(deadPatient, h.clock.now().toISOString());
    const dropped = await queue('drop', String(deadPatient));
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toContain(`job ${deadPatient} dropped`);
    expect(getJob(h.store, deadPatient)?.deadLetters.map((l) => l.resolution)).toEqual([
      'retried',
      'dropped',
    ]);
  });

  it('retry needs an id or --all-dead (usage, exit 2); --all-dead says when there is nothing', async () => {
    const neither = await queue('retry');
    expect(neither.code).toBe(2);
    const all = await queue('retry', '--all-dead');
    expect(all.code).toBe(0);
    expect(all.stdout).toBe('no dead letters to retry\n');
  });

  it('drop --all-dead --kind gives up the dead letters of one kind only, each kept as an operator action', async () => {
    const refuse = () => Promise.reject(new PermanentError('answered HTTP 400', { status: 400 }));
    const dead = ['d-1', 'd-2'].map(
      (id) =>
        enqueue(h.store, { kind: 'device', entityKey: `device:${id}`, payload: { _id: id } }).id,
    );
    const note = enqueue(h.store, {
      kind: 'patientNote',
      entityKey: 'patientNote:n-1',
      payload: {},
    }).id;
    await h.worker({ device: refuse, patientNote: refuse }).runUntilEmpty();

    const kindAlone = await queue('drop', '--kind', 'device');
    expect(kindAlone.code).toBe(2);
    expect(kindAlone.stderr).toContain('--kind goes with --all-dead');
    const dropped = await queue('drop', '--all-dead', '--kind', 'device');
    expect(dropped.stderr).toBe('');
    expect(dropped.stdout).toBe(`2 dead letter(s) dropped: ${dead.join(', ')}\n`);
    expect(dead.map((id) => getJob(h.store, id)?.status)).toEqual(['dropped', 'dropped']);
    expect(getJob(h.store, note)?.status).toBe('dead');
    expect(getJob(h.store, dead[0] ?? 0)?.operatorActions).toMatchObject([
      { action: 'drop', detail: '--all-dead --kind device' },
    ]);
  });

  it('a broken config exits 1 listing the problem', async () => {
    const result = await runCli(['queue', 'list', '-c', 'missing.yaml'], { cwd: h.folder });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('missing.yaml');
  });
});
