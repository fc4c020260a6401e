import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inboxCheck, outboxCheck } from '../../../src/check/erp.js';
import { checkRig, type CheckRig } from '../../support/check/checkRig.js';

let rig: CheckRig;
beforeEach(() => {
  rig = checkRig();
});
afterEach(() => rig.cleanup());

describe('erp.outbox and erp.inbox (file drop)', () => {
  it('pass for folders that take a file, and leave nothing behind', async () => {
    mkdirSync(rig.outbox, { recursive: true });
    mkdirSync(rig.inbox, { recursive: true });
    const outbox = await rig.run(outboxCheck);
    expect(outbox.status).toBe('pass');
    expect(outbox.message).toContain(
      `${rig.outbox} takes files (a hidden probe file written, renamed and removed)`,
    );
    expect(outbox.message).toContain('10.0 GiB free');
    await expect(rig.run(inboxCheck)).resolves.toMatchObject({ status: 'pass' });
    expect(readdirSync(rig.outbox)).toEqual([]);
    expect(readdirSync(rig.inbox)).toEqual([]);
  });

  it('warn for a folder that does not exist yet but can be made', async () => {
    const outcome = await rig.run(outboxCheck);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain(`${rig.outbox} does not exist yet`);
    expect(outcome.hint).toContain('the ERP');
  });

  it('fail for a path that is not a folder', async () => {
    mkdirSync(rig.inbox, { recursive: true });
    writeFileSync(rig.outbox, 'x');
    const outcome = await rig.run(outboxCheck);
    expect(outcome).toMatchObject({ status: 'fail' });
    expect(outcome.message).toContain('is not a folder');
  });

  it('fail when the folder cannot take a file, naming the folder and why', async () => {
    // A folder inside a file: whoever runs the test (root too), nothing can be written there.
    writeFileSync(`${rig.folder}/file`, 'x');
    const config = {
      erp: { adapter: 'file', file: { outbox: `${rig.folder}/file/outbox`, inbox: rig.inbox } },
    };
    const outcome = await outboxCheck.run(rig.context({}, config), new AbortController().signal);
    expect(outcome).toMatchObject({ status: 'fail' });
    expect(outcome.message).toContain('cannot be created');
  });

  it('fail on a full file system', async () => {
    mkdirSync(rig.outbox, { recursive: true });
    const outcome = await rig.run(outboxCheck, {
      statfs: () => Promise.resolve({ freeBytes: 10 * 1024 * 1024, totalBytes: 1e12 }),
    });
    expect(outcome).toMatchObject({ status: 'fail' });
    expect(outcome.message).toContain('10.0 MiB free');
  });
});
