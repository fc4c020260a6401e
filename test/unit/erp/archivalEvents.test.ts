import * as nodeFs from 'node:fs/promises';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { goneReason } from '../../../src/contract/index.js';
import type { ArchivalEvent, OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
  type OutboxFs,
} from '../../../src/erp/outbound/file/index.js';
import { createRestAdapter } from '../../../src/erp/outbound/rest/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const ID = '6f1c2b9e-2d3a-4c55-9a1e-0f7d2b3c4d5e';
const STAMP = '2026-01-15T09:30:00.000Z';
const NAME = `${ID}_2026-01-15T09-30-00.000Z.archived.json`;

function archival(overrides: Partial<ArchivalEvent> = {}): OutboundRecord {
  const event: ArchivalEvent = {
    event: 'archived',
    reason: 'archived',
    resource: 'singleOrder',
    _id: ID,
    version: STAMP,
    archivedAt: STAMP,
    detectedAt: '2026-01-15T09:31:00.000Z',
    ...overrides,
  };
  const { resource, _id: id, version } = event;
  return { resource, id, version, record: { ...event }, archival: event };
}

describe('goneReason: where the contract keeps "archived"', () => {
  it('reads archived, an attachment metadata.archived, and an order in Deleted', () => {
    expect(goneReason('patient', { archived: true })).toBe('archived');
    expect(goneReason('patient', { archived: false })).toBeUndefined();
    expect(goneReason('attachment', { archived: true })).toBeUndefined();
    expect(goneReason('attachment', { metadata: { archived: true } })).toBe('archived');
    expect(goneReason('singleOrder', { status: -1, archived: false })).toBe('deleted');
    expect(goneReason('directOrder', { status: -1, archived: true })).toBe('archived');
    expect(goneReason('article', { status: -1 })).toBeUndefined();
  });
});

describe('file adapter: archival events', () => {
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
  const eventFolder = () => join(dir, 'archived', 'singleOrder');

  it.each(['json', 'csv', 'ndjson', 'xml'] as const)(
    'format %s: writes <outbox>/archived/<resource>/<_id>_<version>.archived.json, JSON, once',
    async (format) => {
      const adapter = await open({ format });
      expect(await adapter.deliver([archival()], 1)).toEqual([{ status: 'delivered' }]);
      expect(await adapter.deliver([archival()], 2)).toEqual([{ status: 'delivered' }]);
      expect(await readdir(eventFolder())).toEqual([NAME]);
      const text = await readFile(join(eventFolder(), NAME), 'utf8');
      expect(JSON.parse(text)).toEqual(archival().archival);
      // Never beside the records: a resource folder's import would take it for a record.
      await expect(readdir(join(dir, 'singleOrder'))).rejects.toThrow(/ENOENT/);
    },
  );

  it('writes the done marker after the event, and never overwrites another content', async () => {
    const adapter = await open({ doneMarker: true });
    await adapter.deliver([archival()], 1);
    expect(await readdir(eventFolder())).toEqual([NAME, `${NAME}.done`]);
    const [outcome] = await adapter.deliver([archival({ reason: 'deleted' })], 2);
    expect(outcome?.status).toBe('rejected');
    expect(JSON.parse(await readFile(join(eventFolder(), NAME), 'utf8'))).toMatchObject({
      reason: 'archived',
    });
  });

  it('holds an event back while the version beside it in the hand-over must be retried', async () => {
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const failingOrders: OutboxFs = {
      ...nodeFs,
      open: (...args: Parameters<typeof nodeFs.open>) =>
        String(args[0]).includes(`${join(dir, 'singleOrder')}/.`)
          ? Promise.reject(full)
          : nodeFs.open(...args),
    };
    const adapter = await open({}, failingOrders);
    const version = singleOrder({ timestamp: STAMP, archived: true });
    const outcomes = await adapter.deliver([version, archival()], 1);
    expect(outcomes.map((o) => o.status)).toEqual(['retry', 'retry']);
    await expect(readdir(eventFolder())).rejects.toThrow(/ENOENT/);
  });
});

describe('REST adapter: archival events', () => {
  it('refuses an archival URL with an unknown placeholder at start-up, naming the key', () => {
    expect(() =>
      createRestAdapter(
        {
          baseUrl: 'http://erp.local/api',
          resources: { singleOrder: { archived: { url: 'gone/{id}' } } },
        },
        { clock: new FakeClock() },
      ),
    ).toThrow(/erp\.rest\.resources\.singleOrder\.archived\.url: unknown placeholder \{id\}/);
  });
});
