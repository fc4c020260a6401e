import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { InboxMessage } from '../../../src/erp/adapter.js';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type FileResult,
  type InboxOptions,
} from '../../../src/erp/inbound/index.js';
import { FakeClock } from '../fakeClock.js';
import { KINDS } from '../inboxKinds.js';
import { AcceptRecorder, tempFolder } from './fileDropSupport.js';

/** What `<file>.error.json` says, as the tests read it. */
export interface InboxReport {
  reason: string;
  problems: {
    line?: number;
    row?: number;
    column?: string;
    element?: string;
    path?: string;
    message: string;
  }[];
}

/**
 * The real inbox over a fresh folder per test: `scan` drops a file into a kind's folder and
 * scans twice (the second look takes it), `report` reads what a refusal wrote, `taken` the
 * messages handed over so far in the test.
 */
export function useInboxRig() {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let recorder = new AcceptRecorder();
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    recorder = new AcceptRecorder();
  });
  afterEach(() => cleanup());
  return {
    scan: async (
      kind: string,
      name: string,
      content: string | Buffer,
      options: Partial<InboxOptions> = {},
    ): Promise<FileResult[]> => {
      const inbox = createInbox(
        { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: 0, ...options },
        { clock: new FakeClock('2026-03-03T15:00:00.000Z'), kinds: KINDS, accept: recorder.accept },
      );
      await mkdir(join(dir, kind), { recursive: true });
      await writeFile(join(dir, kind, name), content);
      await inbox.scanOnce();
      return (await inbox.scanOnce()).files;
    },
    report: async (kind: string, name: string): Promise<InboxReport> => {
      const text = await readFile(join(dir, '.error', kind, `${name}.error.json`), 'utf8');
      return JSON.parse(text) as InboxReport;
    },
    taken: (): InboxMessage[] => recorder.messages,
  };
}
