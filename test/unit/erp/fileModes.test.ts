import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { erpSchema } from '../../../src/config/erpSchema.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import { createInbox, DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Every file below `dir`, as paths. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('files holding patient data are not readable by everyone', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const clock = new FakeClock('2026-01-15T10:00:00.000Z');
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  it('writes outbox files and .done markers 0640 by default, or with erp.file.fileMode', async () => {
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: join(dir, 'a'), doneMarker: true },
      { clock },
    );
    await adapter.deliver([singleOrder()], 1);
    const written = await filesBelow(join(dir, 'a'));
    expect(written).toHaveLength(2);
    for (const file of written) expect(await modeOf(file)).toBe(0o640);

    const strict = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: join(dir, 'b'), fileMode: 0o600 },
      { clock },
    );
    await strict.deliver([singleOrder()], 1);
    for (const file of await filesBelow(join(dir, 'b'))) expect(await modeOf(file)).toBe(0o600);
  });

  it('archives and rejects inbox files, and writes reports, with the file mode', async () => {
    const recorder = new AcceptRecorder();
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: 0 },
      { clock, kinds: KINDS, accept: recorder.accept },
    );
    await mkdir(join(dir, 'patient'), { recursive: true });
    await writeFile(join(dir, 'patient', 'good.json'), '{"customerId": "K-1"}', { mode: 0o644 });
    await writeFile(join(dir, 'patient', 'bad.json'), '{"customerId": ', { mode: 0o644 });
    await inbox.scanOnce();
    expect((await inbox.scanOnce()).counts).toMatchObject({ accepted: 1, rejected: 1 });
    const kept = [
      ...(await filesBelow(join(dir, '.archive'))),
      ...(await filesBelow(join(dir, '.error'))),
    ];
    expect(kept).toHaveLength(3);
    for (const file of kept) expect(await modeOf(file), file).toBe(0o640);
  });

  it('takes erp.file.fileMode as a quoted octal string the owner can read and write', () => {
    const parse = (fileMode: unknown) => erpSchema.safeParse({ file: { fileMode } });
    expect(parse(undefined).data?.file.fileMode).toBe('0640');
    expect(parse('0600').data?.file.fileMode).toBe('0600');
    expect(parse(640).error?.issues[0]?.message).toContain('quoted string');
    expect(parse('0400').error?.issues[0]?.message).toContain('owner needs read and write');
    expect(parse('0999').success).toBe(false);
  });
});
