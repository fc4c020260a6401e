import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'homecare-sync-cli-mapping-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('config check: the mappings', () => {
  it('lists the problems of both directions by path, the inbox’s against the kinds', async () => {
    await writeFile(
      join(dir, 'mapping.yaml'),
      `platform: { baseUrl: https://platform.example/api, apiKey: key-123456789, variant: B }
erp:
  file:
    format: csv
    valueTables: { status: { 4: Versendet } }
    mapping:
      singleOrder:
        fields: { Beleg: _id, Kunde: patientCustomerld }
    inboxMapping:
      orderStatus:
        format: csv
        fields: { id: Beleg, status: { from: Status, table: statu } }
`,
    );
    const result = await runCli(['config', 'check', '-c', 'mapping.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'config mapping.yaml has 2 problem(s):',
      expect.stringMatching(
        /^ {2}erp\.file\.mapping\.singleOrder\.fields\.Kunde\.from: singleOrder: the record has no field patientCustomerld \(did you mean patientCustomerId\?\)/,
      ) as string,
      '  erp.file.inboxMapping.orderStatus.fields.status.table: erp.file.valueTables has no table statu (did you mean status?); tables: status',
    ]);
  });

  it('refuses a path through a prototype and a width on an id (issue 36), naming each path', async () => {
    await writeFile(
      join(dir, 'hostile.yaml'),
      `platform: { baseUrl: https://platform.example/api, apiKey: key-123456789, variant: B }
erp:
  file:
    format: json
    mapping:
      singleOrder:
        fields:
          __proto__.polluted: patient.lastName
          Beleg: { from: _id, width: 8 }
`,
    );
    const result = await runCli(['config', 'check', '-c', 'hostile.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'config hostile.yaml has 2 problem(s):',
      '  erp.file.mapping.singleOrder.fields.__proto__.polluted: no part of a path may be __proto__, constructor or prototype (names JavaScript gives every object); rename it',
      '  erp.file.mapping.singleOrder.fields.Beleg.width: _id is an identifier: a width would pad it into another one (and a longer one is refused, never cut); remove width',
    ]);
  });
});
