import * as nodeFs from 'node:fs/promises';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import type { OutboxFs } from '../../../src/erp/outbound/file/index.js';
import { createOutboxWriter } from '../../../src/erp/outbound/file/outboxWriter.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const VERSION = '2026-01-15T08-00-00.000Z';
const order = (n: number): OutboundRecord => ({
  ...singleOrder({ _id: `order-${n}` }),
  id: `order-${n}`,
});
const fileOf = (n: number) => `order-${n}_${VERSION}.json`;

describe('file adapter: the writes on the outbox writer thread', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const clock = new FakeClock();
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  it('fails only the record whose file cannot be put in place, naming that file', async () => {
    // A folder where the record's file belongs: the writer thread cannot read or replace it.
    const blocked = join(dir, 'singleOrder', fileOf(2));
    await mkdir(blocked, { recursive: true });
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir },
      { clock },
    );
    const outcomes = await adapter.deliver([0, 1, 2, 3].map(order), 1);
    expect(outcomes.map((o) => o.status)).toEqual(['delivered', 'delivered', 'retry', 'delivered']);
    expect(outcomes[2]?.status === 'retry' && outcomes[2].reason).toContain(blocked);
    expect((await readdir(join(dir, 'singleOrder'))).sort()).toEqual(
      [0, 1, 2, 3].map(fileOf).sort(),
    );
  });

  it('names the file when the disk fills up while it is written', async () => {
    // A real full disk fails the write, whose error names no file.
    const full: OutboxFs = {
      ...nodeFs,
      open: async (...args: Parameters<typeof nodeFs.open>) => {
        const handle = await nodeFs.open(...args);
        if (String(args[1]) === 'wx') {
          handle.writeFile = () =>
            Promise.reject(
              Object.assign(new Error('ENOSPC: no space left on device, write'), {
                code: 'ENOSPC',
              }),
            );
        }
        return handle;
      },
    };
    const options = { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir };
    const adapter = await createFileAdapter(options, { clock, fs: full });
    const [outcome] = await adapter.deliver([order(1)], 1);
    expect(outcome?.status).toBe('retry');
    expect(outcome?.status === 'retry' && outcome.reason).toContain(
      join(dir, 'singleOrder', fileOf(1)),
    );
    expect(outcome?.status === 'retry' && outcome.reason).toContain('ENOSPC');
    expect(await readdir(join(dir, 'singleOrder'))).toEqual([]);
  });

  it('answers retry for the files under way when the thread stops, and starts a new one', async () => {
    let started = 0;
    const dying = () => {
      started += 1;
      const code =
        "require('node:worker_threads').parentPort.once('message', () => process.exit(3))";
      return new Worker(code, { eval: true });
    };
    const writer = createOutboxWriter(dying);
    writer.start();
    expect(started).toBe(1);
    const request = {
      dir,
      doneMarker: false,
      fileMode: 0o640,
      files: [{ name: 'a.json', data: new Uint8Array([1]) }],
    };
    const [placement] = await writer.place(request);
    expect(placement?.status).toBe('retry');
    expect(placement?.status === 'retry' && placement.reason).toContain('exit code 3');
    await writer.place(request);
    expect(started).toBe(2);
    expect(await readdir(dir)).toEqual([]);
  });
});
