import { describe, expect, it } from 'vitest';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { load, problems } = useConfigLoader();

describe('schema problems', () => {
  it('names an unknown key and lists the valid ones', async () => {
    const found = await problems(`${MINIMAL}  timeout: 5\n`);
    expect(found).toEqual([
      expect.stringMatching(
        /^platform\.timeout: unknown key \(did you mean timeoutMs\?\); valid keys here: baseUrl, apiKey,/,
      ),
    ]);
  });

  it('suggests the closest known key at the same level for a misspelt one, and none for a far one', async () => {
    const found = await problems(
      `${MINIMAL}sync: { overlapSecond: 60, resources: { singelOrder: {} } }
erp: { file: { outbx: ./out, colour: red } }
`,
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^sync\.resources\.singelOrder: unknown key \(did you mean singleOrder\?\); /,
      ),
      expect.stringMatching(
        /^sync\.overlapSecond: unknown key \(did you mean overlapSeconds\?\); /,
      ),
      expect.stringMatching(/^erp\.file\.outbx: unknown key \(did you mean outbox\?\); /),
      expect.stringMatching(/^erp\.file\.colour: unknown key; valid keys here: outbox, inbox,/),
    ]);
  });

  it('says what type was expected and what was found', async () => {
    const found = await problems(`${MINIMAL}  concurrency: many\nretry: { maxAttempts: [1] }\n`);
    expect(found).toEqual([
      'platform.concurrency: expected number, got "many"',
      'retry.maxAttempts: expected number, got a list',
    ]);
  });

  it('lists all three mistakes of one file at once', async () => {
    const found = await problems(`
platform:
  baseUrl: ftp://platform.example
  apiKey: k
  variant: D
storage: { path: ./x.db, size: 3 }
`);
    expect(found).toEqual([
      'platform.baseUrl: expected an http:// or https:// URL, got "ftp://platform.example"',
      'platform.variant: expected A, B or C, got "D"',
      expect.stringMatching(/^storage\.size: unknown key/),
    ]);
  });

  it('asks for a tracking link with {shipmentId}, over http or https', async () => {
    const found = await problems(
      `${MINIMAL}erp:\n  file: { openTransTrackingLink: 'https://t.example/track' }\n`,
    );
    expect(found).toEqual([
      'erp.file.openTransTrackingLink: must contain {shipmentId}, where the SHIPMENT_ID of the dispatch notification goes',
    ]);
    const scheme = await problems(
      `${MINIMAL}erp:\n  file: { openTransTrackingLink: 'ftp://t.example/{shipmentId}' }\n`,
    );
    expect(scheme).toEqual([
      expect.stringMatching(/^erp\.file\.openTransTrackingLink: expected an http/),
    ]);
  });

  it('requires the platform keys', async () => {
    const found = await problems('platform: { variant: B }\nlog: { level: info }\n');
    expect(found).toEqual([
      'platform.baseUrl: required',
      'platform.apiKey: required: set platform.apiKey, or platform.apiKeyFile to read it from a file',
    ]);
  });

  it('refuses a bad cron expression with the reason', async () => {
    const found = await problems(
      `${MINIMAL}sync:\n  resources:\n    article: { schedule: "61 * * * *" }\n`,
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^sync\.resources\.article\.schedule: "61 \* \* \* \*" is not a valid cron expression \(61 is a invalid expression for minute\)/,
      ),
    ]);
  });

  it.each([
    ['*/61 * * * *', /\*\/61 in the minute field steps past the field's range \(0-59\)/],
    ['0 */24 * * *', /\*\/24 in the hour field steps past the field's range \(0-23\)/],
    ['0 0 1 1-12/12 *', /1-12\/12 in the month field/],
    ['*/90 * * * * *', /\*\/90 in the second field/],
  ])(
    'refuses %s: node-cron takes a step beyond the field as its first value only',
    async (schedule, reason) => {
      const found = await problems(
        `${MINIMAL}sync:\n  resources:\n    article: { schedule: "${schedule}" }\n`,
      );
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^sync\.resources\.article\.schedule: ".*" is not a valid cron/);
      expect(found[0]).toMatch(reason);
    },
  );

  it('takes steps within the field, with and without seconds, and nicknames', async () => {
    const loaded = await load(
      `${MINIMAL}sync:\n  reconcile: { schedule: "@daily" }\n  resources:\n    article: { schedule: "*/59 */23 */30 */11 */6" }\n    patient: { schedule: "*/30 */5 * * * *" }\n`,
    );
    expect(loaded.config.sync.resources.article?.schedule).toBe('*/59 */23 */30 */11 */6');
  });

  it('refuses an unknown resource name, listing the valid ones', async () => {
    const found = await problems(`${MINIMAL}sync:\n  resources:\n    orders: { enabled: true }\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^sync\.resources\.orders: unknown key; valid keys here: patient, /);
    expect(found[0]).toContain('singleOrder');
  });

  it('refuses a status the resource has no filter for', async () => {
    const found = await problems(
      `${MINIMAL}sync:\n  resources:\n    singleOrder: { statuses: [created, shipped] }\n    patient: { statuses: [created] }\n`,
    );
    expect(found).toHaveLength(2);
    expect(found).toContain(
      'sync.resources.singleOrder.statuses[1]: expected created, transmitted, updated or archived, got "shipped"',
    );
    expect(found).toContainEqual(
      expect.stringMatching(/^sync\.resources\.patient\.statuses: patient has no status filter/),
    );
  });

  it('refuses a resource the variant does not list, and statuses it does not filter by', async () => {
    const found = await problems(`
platform: { baseUrl: "https://p.example", apiKey: k, variant: A }
sync:
  resources:
    erpOrder: { schedule: "*/5 * * * *" }
    article: { statuses: [created] }
    productGroup: { enabled: false }
`);
    expect(found).toEqual([
      'sync.resources.erpOrder: variant A offers no list of erpOrder (only variant B, C does); remove it or set enabled: false',
      'sync.resources.article.statuses: variant A lists article without a status filter; remove statuses',
    ]);
  });

  it('asks for everything the REST adapter needs at once', async () => {
    const found = await problems(
      `${MINIMAL}erp:\n  adapter: rest\n  rest: { auth: { type: header, token: t } }\n`,
    );
    expect(found).toEqual([
      'erp.rest.auth.header: required for auth type header: set header',
      'erp.rest.baseUrl: required when erp.adapter is rest: the URL the ERP takes records at',
      expect.stringMatching(/^http\.token: required when erp\.adapter is rest/),
    ]);
  });

  it('asks for the HTTP token the ERP reports back with', async () => {
    const found = await problems(
      `${MINIMAL}erp:\n  adapter: rest\n  rest: { baseUrl: "http://erp.local" }\n`,
    );
    expect(found).toEqual([
      expect.stringMatching(/^http\.token: required when erp\.adapter is rest/),
    ]);
  });

  it('checks that caFile is a file', async () => {
    const found = await problems(`${MINIMAL}  caFile: ./ca.pem\n`);
    expect(found).toEqual(['platform.caFile: ./ca.pem is not a file; give the path of a PEM file']);
  });
});
