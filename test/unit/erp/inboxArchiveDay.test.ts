import { readdir, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInbox, DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

describe('inbox archive date folders', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function archiveDays(timeZone: string): Promise<string[]> {
    // 23:30 UTC on 15 January is already 16 January in Berlin.
    const clock = new FakeClock('2026-01-15T23:30:00.000Z');
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, doneMarker: true, timeZone },
      { clock, kinds: KINDS, accept: new AcceptRecorder().accept },
    );
    await mkdir(join(dir, 'orderStatus'), { recursive: true });
    const body = JSON.stringify({ orderType: 'single', id: `o-${timeZone}`, status: 3 });
    await writeFile(join(dir, 'orderStatus', `${timeZone.replace('/', '-')}.json`), body);
    await writeFile(join(dir, 'orderStatus', `${timeZone.replace('/', '-')}.json.done`), '');
    await inbox.scanOnce();
    return readdir(join(dir, '.archive', 'orderStatus'));
  }

  it('are named by the day in the configured time zone', async () => {
    expect(await archiveDays('UTC')).toEqual(['2026-01-15']);
    expect(await archiveDays('Europe/Berlin')).toEqual(['2026-01-15', '2026-01-16']);
  });
});
