import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import type { OutboxFs } from '../../../src/erp/outbound/file/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const NAME = '6f1c2b9e-2d3a-4c55-9a1e-0f7d2b3c4d5e_2026-01-15T08-00-00.000Z';

describe('file adapter: one file per record version', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const clock = new FakeClock();
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  const open = (extra: Partial<typeof DEFAULT_FILE_ADAPTER_OPTIONS> = {}, fs?: OutboxFs) =>
    createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, ...extra },
      fs ? { clock, fs } : { clock },
    );

  it('writes <outbox>/<resource>/<_id>_<version>.json that parses back to the record', async () => {
    const adapter = await open();
    const order = singleOrder();
    expect(await adapter.deliver([order], 1)).toEqual([{ status: 'delivered' }]);
    const text = await readFile(join(dir, 'singleOrder', `${NAME}.json`), 'utf8');
    expect(JSON.parse(text)).toEqual(order.record);
    expect(await readdir(join(dir, 'singleOrder'))).toEqual([`${NAME}.json`]);
  });

  it('writes the same version once, however often it is handed over', async () => {
    const adapter = await open();
    await adapter.deliver([singleOrder()], 1);
    const again = await (await open()).deliver([singleOrder()], 2);
    expect(again).toEqual([{ status: 'delivered' }]);
    expect(await readdir(join(dir, 'singleOrder'))).toEqual([`${NAME}.json`]);
  });

  it('rejects other content under an existing name and leaves the file unchanged', async () => {
    const adapter = await open();
    await adapter.deliver([singleOrder()], 1);
    const path = join(dir, 'singleOrder', `${NAME}.json`);
    const before = await readFile(path, 'utf8');
    const [outcome] = await adapter.deliver([singleOrder({ annotation: 'changed' })], 2);
    expect(outcome?.status).toBe('rejected');
    expect(outcome?.status === 'rejected' && outcome.reason).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('removes temp files a crash left behind when it opens', async () => {
    await mkdir(join(dir, 'singleOrder'), { recursive: true });
    const stale = `.${NAME}.json.tmp-0123456789ab`;
    await writeFile(join(dir, 'singleOrder', stale), '{"half');
    await writeFile(join(dir, 'singleOrder', 'erp-own-file.txt'), 'keep');
    await open();
    expect(await readdir(join(dir, 'singleOrder'))).toEqual(['erp-own-file.txt']);
  });

  it('writes the .done marker after the data file, and for companions too', async () => {
    const adapter = await open({ doneMarker: true });
    const order = {
      ...singleOrder(),
      files: [{ suffix: 'pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.7') }],
    };
    await adapter.deliver([order], 1);
    expect((await readdir(join(dir, 'singleOrder'))).sort()).toEqual([
      `${NAME}.json`,
      `${NAME}.json.done`,
      `${NAME}.pdf`,
      `${NAME}.pdf.done`,
    ]);
    expect(await readFile(join(dir, 'singleOrder', `${NAME}.pdf`), 'utf8')).toBe('%PDF-1.7');
    expect(await readFile(join(dir, 'singleOrder', `${NAME}.json.done`), 'utf8')).toBe('');
  });

  it('keeps a companion whose suffix equals the record extension apart from the record', async () => {
    const adapter = await open({ format: 'xml' });
    const xml = Buffer.from('<document/>');
    const doc = {
      ...singleOrder(),
      files: [{ suffix: 'xml', contentType: 'text/xml', data: xml }],
    };
    await adapter.deliver([doc], 1);
    const names = (await readdir(join(dir, 'singleOrder'))).sort();
    expect(names).toEqual([`${NAME}.file.xml`, `${NAME}.xml`]);
  });

  it('cannot be made to write outside the resource folder', async () => {
    const adapter = await open();
    const evil = singleOrder({ _id: '../../../escaped', timestamp: '/etc/passwd' });
    const outcomes = await adapter.deliver(
      [{ ...evil, id: '../../../escaped', version: '/etc/passwd' }],
      1,
    );
    expect(outcomes).toEqual([{ status: 'delivered' }]);
    expect(await readdir(dir)).toEqual(['singleOrder']);
    const [name] = await readdir(join(dir, 'singleOrder'));
    expect(name).toBe('~2E.~2F..~2F..~2Fescaped_~2Fetc~2Fpasswd.json');
    expect(name?.startsWith('.')).toBe(false);
  });

  it('keeps ids apart that differ only in characters a file name cannot hold', async () => {
    const adapter = await open();
    const a = singleOrder({ note: 'a' });
    const b = singleOrder({ note: 'b' });
    const outcomes = await adapter.deliver(
      [
        { ...a, id: 'x/y', version: 'v' },
        { ...b, id: 'x:y', version: 'v' },
      ],
      1,
    );
    expect(outcomes).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
    expect(await readdir(join(dir, 'singleOrder'))).toHaveLength(2);
  });

  it('answers retry when the disk is full, and leaves neither file nor temp file', async () => {
    const full: OutboxFs = {
      ...nodeFs,
      open: async (...args: Parameters<typeof nodeFs.open>) => {
        if (String(args[1]) === 'wx') {
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        }
        return nodeFs.open(...args);
      },
    };
    const adapter = await open({}, full);
    const [outcome] = await adapter.deliver([singleOrder()], 1);
    expect(outcome?.status).toBe('retry');
    expect(outcome?.status === 'retry' && outcome.reason).toContain('ENOSPC');
    expect(await readdir(join(dir, 'singleOrder'))).toEqual([]);
    expect(await (await open()).deliver([singleOrder()], 1)).toEqual([{ status: 'delivered' }]);
  });
});

describe('file adapter: ndjson, one file per run', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  it('writes one line per record into <resource>_<runId>.ndjson, once per run', async () => {
    const options = { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, format: 'ndjson' as const };
    const adapter = await createFileAdapter(options, { clock: new FakeClock() });
    const first = singleOrder();
    const second = singleOrder({ _id: 'second', timestamp: '2026-01-15T09:00:00.000Z' });
    const batch = [first, { ...second, id: 'second', version: '2026-01-15T09:00:00.000Z' }];
    expect(await adapter.deliver(batch, 7)).toEqual([
      { status: 'delivered' },
      { status: 'delivered' },
    ]);
    expect(await adapter.deliver(batch, 7)).toHaveLength(2);
    expect(await readdir(join(dir, 'singleOrder'))).toEqual(['singleOrder_0000000007.ndjson']);
    const text = await readFile(join(dir, 'singleOrder', 'singleOrder_0000000007.ndjson'), 'utf8');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([first.record, second.record]);
    const [changed] = await adapter.deliver([singleOrder({ annotation: 'x' })], 7);
    expect(changed?.status).toBe('rejected');
  });

  it('writes companions beside the run file, and waits with the whole run when one cannot be written', async () => {
    const options = { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, format: 'ndjson' as const };
    let full = true;
    const fs: OutboxFs = {
      ...nodeFs,
      open: async (...args: Parameters<typeof nodeFs.open>) => {
        if (full && String(args[0]).includes('.pdf.tmp-')) {
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        }
        return nodeFs.open(...args);
      },
    };
    const adapter = await createFileAdapter(options, { clock: new FakeClock(), fs });
    const pdf = { suffix: 'pdf', contentType: 'application/pdf', data: Buffer.from('%PDF') };
    const batch = [{ ...singleOrder(), files: [pdf] }];
    expect((await adapter.deliver(batch, 8))[0]?.status).toBe('retry');
    expect(await readdir(join(dir, 'singleOrder'))).toEqual([]);
    full = false;
    expect(await adapter.deliver(batch, 8)).toEqual([{ status: 'delivered' }]);
    expect((await readdir(join(dir, 'singleOrder'))).sort()).toEqual([
      `${NAME}.pdf`,
      'singleOrder_0000000008.ndjson',
    ]);
  });
});
