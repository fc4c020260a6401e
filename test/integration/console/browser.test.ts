import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, seriousAxeFindings, watchedPage } from '../../support/console/browser.js';
import { ENDPOINT_TOKEN, USERS, useConsoleDaemon } from '../../support/console/consoleRig.js';
import { eventually } from '../../support/eventually.js';

/**
 * The console in a real browser (issue 40, "Done when"): Debian's Chromium against the real
 * daemon, the simulator and SQLite. The daemon starts while the platform refuses every
 * acknowledgement (HTTP 400), so the queue holds dead letters of two kinds; the ERP then sends
 * an order status, a device and an inbox file, so every kind of key names a record.
 * CONSOLE_SCREENSHOTS=<folder> also saves a screenshot of each kind of page (the README's are
 * made so, into docs/images/).
 */
const rig = useConsoleDaemon({
  console: { bulkLimit: 1 },
  erpFile: { doneMarker: true, scanIntervalMs: 200 },
  before: async (sim) => {
    for (const path of ['/singleOrder/', '/directOrder/']) {
      await sim.control.setFault({ method: 'PATCH', path, errorStatus: 400 });
    }
  },
});

const SALES_ID = 'SO-BROWSER-1';
const ERP_ORDER_NUMBER = 'AB-BROWSER-1';
const REQUEST_KEY = 'erp-request-browser-1';
const SERIAL_NUMBER = 'SN-BROWSER-1';
const INBOX_FILE = 'Rueckmeldung-browser.json';

/** The daemon's database, read beside it as `status` reads it. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Sqlite(rig().f.database, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const deadOf = (kind: string) =>
  query<{ id: number }>(
    `SELECT q.id FROM queue q JOIN dead_letters d ON d.job_id = q.id
     WHERE q.kind = ? AND d.resolved_at IS NULL ORDER BY q.id`,
    kind,
  ).map((row) => row.id);

const jobState = (id: number) =>
  query<{ state: string }>('SELECT state FROM queue WHERE id = ?', id)[0]?.state;

async function erpSends(kind: string, body: unknown, key?: string): Promise<void> {
  const answer = await fetch(`${rig().url}/erp/${kind}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ENDPOINT_TOKEN}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.text()).toBe(202);
}

/** What each kind of key names, found once the daemon settled. */
interface Keys {
  order: string;
  otherOrder: string;
  patient: { id: string; customerId: string };
  article: { id: string; customerNumber: string };
  outboxFile: string;
  statusJob: number;
}

let keys: Keys;
let browser: Browser;
const problems: string[] = [];
/** The kinds of page the tests saw, each scanned by axe when first seen. */
const seen = new Set<string>();
const findings: string[] = [];

async function settle(): Promise<Keys> {
  await eventually('dead acknowledgements of both kinds', () =>
    deadOf('ack.singleOrder').length >= 3 && deadOf('ack.directOrder').length >= 2
      ? true
      : undefined,
  );
  await rig().sim.control.clearFaults();
  const [order, otherOrder] = query<{ _id: string }>(
    `SELECT _id FROM mirror WHERE resource = 'singleOrder' AND json ->> '$.status' = 1
     ORDER BY _id LIMIT 2`,
  ).map((row) => row._id);
  const [patient] = query<{ id: string; customerId: string }>(
    `SELECT _id AS id, customer_id AS customerId FROM mirror
     WHERE resource = 'patient' AND customer_id IS NOT NULL ORDER BY _id LIMIT 1`,
  );
  const [article] = query<{ id: string; customerNumber: string }>(
    `SELECT _id AS id, customer_number AS customerNumber FROM mirror
     WHERE resource = 'article' AND customer_number IS NOT NULL ORDER BY _id LIMIT 1`,
  );
  if (order === undefined || otherOrder === undefined || !patient || !article) {
    throw new Error('the seed lacks a transmitted order, a patient or an article with ERP keys');
  }
  await erpSends(
    'orderStatus',
    {
      orderType: 'single',
      id: order,
      status: 3,
      salesId: SALES_ID,
      erpOrderNumber: ERP_ORDER_NUMBER,
      trackingInfo: [{ trackingCode: 'PK-BROWSER-1' }],
    },
    REQUEST_KEY,
  );
  await erpSends('device', {
    serialNumber: SERIAL_NUMBER,
    description: 'Pumpe',
    patientCustomerId: patient.customerId,
  });
  const inbox = join(rig().f.folder, 'erp', 'inbox', 'orderStatus');
  mkdirSync(inbox, { recursive: true });
  writeFileSync(
    join(inbox, INBOX_FILE),
    JSON.stringify({ orderType: 'single', id: otherOrder, status: 3 }),
  );
  writeFileSync(join(inbox, `${INBOX_FILE}.done`), '');
  const statusJob = await eventually(
    'the order status written',
    () =>
      query<{ id: number }>(
        `SELECT id FROM queue WHERE kind = 'orderStatus' AND entity_key = ? AND state = 'done'`,
        `singleOrder:${order}`,
      )[0]?.id,
  );
  await eventually(
    'the inbox file read',
    () => query<{ id: number }>('SELECT id FROM inbox_messages WHERE name = ?', INBOX_FILE)[0],
  );
  await eventually(
    'the device queued',
    () =>
      query<{ id: number }>(
        'SELECT id FROM queue WHERE entity_key = ?',
        `device:${SERIAL_NUMBER}`,
      )[0],
  );
  const outbox = readdirSync(join(rig().f.folder, 'erp', 'outbox', 'singleOrder'));
  const outboxFile = outbox.find((name) => name.startsWith(`${order}_`));
  if (outboxFile === undefined) throw new Error(`no outbox file of ${order}`);
  return { order, otherOrder, patient, article, outboxFile, statusJob };
}

beforeAll(async () => {
  [keys, browser] = await Promise.all([settle(), launchChromium()]);
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

/** A context logged in as `user` (its own cookies), with a watched page on the health page. */
async function loggedIn(
  user: keyof typeof USERS,
  watched: string[] = problems,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await watchedPage(context, watched);
  await page.goto(`${rig().url}/console`);
  await page.getByLabel('User', { exact: true }).fill(user);
  await page.getByLabel(/^Password/).fill(USERS[user].password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${rig().url}/console`);
  return { context, page };
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
/** The first page of each kind: axe's serious findings kept, a screenshot when asked for. */
async function scan(kind: string, page: Page): Promise<void> {
  if (seen.has(kind)) return;
  seen.add(kind);
  findings.push(...(await seriousAxeFindings(page)).map((line) => `${kind}: ${line}`));
  const folder = process.env['CONSOLE_SCREENSHOTS'];
  if (folder !== undefined) {
    const file = join(folder, `console-${kind.replace(' ', '-')}.png`);
    await page.screenshot({ path: file });
  }
}

async function search(page: Page, key: string): Promise<void> {
  const box = page.getByRole('searchbox').first();
  await box.fill(key);
  await box.press('Enter');
  await page.waitForLoadState();
}

describe('the console in a browser', () => {
  it('refuses an unauthenticated visit: the login page, nothing of the page asked for', async () => {
    const context = await browser.newContext();
    const page = await watchedPage(context, problems);
    const answer = await page.goto(`${rig().url}/console/dead`);
    expect(page.url()).toBe(`${rig().url}/console/login?next=%2Fconsole%2Fdead`);
    expect(answer?.status()).toBe(200);
    expect(await heading(page)).toBe('Log in');
    expect(await page.content()).not.toContain('ack.singleOrder');
    await scan('login', page);
    await context.close();
  });

  it('finds a record by every kind of key and opens its story, saying which key matched', async () => {
    const { context, page } = await loggedIn('alice');
    await scan('health', page);
    const cases: [string, string, string][] = [
      [keys.order, 'platform _id', `singleOrder/${keys.order}`],
      [SALES_ID, 'salesId', `singleOrder/${keys.order}`],
      [ERP_ORDER_NUMBER, 'erpOrderNumber', `singleOrder/${keys.order}`],
      [keys.patient.customerId, 'customerId', `patient/${keys.patient.id}`],
      [keys.article.customerNumber, 'customerNumber', `article/${keys.article.id}`],
      [SERIAL_NUMBER, 'serialNumber', 'device/'],
      [INBOX_FILE, 'inbox file', `singleOrder/${keys.otherOrder}`],
      [REQUEST_KEY, 'ERP request key', `singleOrder/${keys.order}`],
      [keys.outboxFile, 'outbox file', `singleOrder/${keys.order}`],
      [String(keys.statusJob), 'job id', `singleOrder/${keys.order}`],
    ];
    for (const [key, kind, record] of cases) {
      await search(page, key);
      expect(decodeURIComponent(page.url()), key).toContain(`/console/record/${record}`);
      await expect(page.getByText(`Found by ${kind} “${key}”.`).count(), key).resolves.toBe(1);
    }
    // The story of the order: what the ERP got, what the push-back wrote, the ERP's message.
    await search(page, SALES_ID);
    await scan('story', page);
    const story = await page.locator('main').textContent();
    expect(story).toContain(`handed version`);
    expect(story).toContain(`to the ERP as singleOrder/${keys.outboxFile}`);
    expect(story).toMatch(
      new RegExp(
        `orderStatus done \\(status 3, salesId ${SALES_ID}, erpOrderNumber ${ERP_ORDER_NUMBER}, tracking PK-BROWSER-1\\)`,
      ),
    );
    expect(story).toContain('ERP orderStatus request');
    // The ERP's file name is masked by its label until an operator asks, and the look is kept.
    await search(page, INBOX_FILE);
    expect(await page.locator('main table').textContent()).not.toContain(INBOX_FILE);
    await page.getByRole('button', { name: 'Show personal values' }).click();
    expect(await page.locator('main table').textContent()).toContain(
      `ERP orderStatus file ${INBOX_FILE} received`,
    );
    expect(
      query(
        `SELECT os_user, host FROM operator_actions WHERE action = 'showPersonal' AND subject = ?`,
        `singleOrder:${keys.otherOrder}`,
      ),
    ).toEqual([{ os_user: 'console:alice', host: '127.0.0.1' }]);
    // By the start of a key: the list says so, and each entry opens the story.
    await search(page, 'SO-BROWS');
    expect(await page.getByRole('status').textContent()).toContain(
      'No key is “SO-BROWS”; these start with it',
    );
    await scan('search', page);
    await page.getByRole('link', { name: `singleOrder ${keys.order}` }).click();
    expect(decodeURIComponent(page.url())).toContain(`/console/record/singleOrder/${keys.order}`);
    await context.close();
  });

  it('retries one dead letter and drops another, each kept with who did it', async () => {
    const { context, page } = await loggedIn('alice');
    const [retried, dropped] = deadOf('ack.singleOrder');
    if (retried === undefined || dropped === undefined) throw new Error('too few dead letters');
    await page.goto(`${rig().url}/console/dead?kind=ack.singleOrder`);
    await scan('dead letters', page);
    await page.getByRole('button', { name: `Retry job ${retried}` }).click();
    expect(await page.getByRole('status').textContent()).toContain(
      `Job ${retried} is pending again`,
    );
    await scan('result', page);
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('button', { name: `Drop job ${dropped}` }).click();
    expect(await page.getByRole('status').textContent()).toContain(`Job ${dropped} dropped`);
    await eventually(
      'the retried acknowledgement done',
      () => jobState(retried) === 'done' || undefined,
    );
    expect(deadOf('ack.singleOrder')).not.toContain(dropped);
    const audit = query<{ action: string; os_user: string; host: string }>(
      `SELECT action, os_user, host FROM operator_actions WHERE subject IN (?, ?) ORDER BY id`,
      `job:${retried}`,
      `job:${dropped}`,
    );
    expect(audit).toEqual([
      { action: 'retry', os_user: 'console:alice', host: '127.0.0.1' },
      { action: 'drop', os_user: 'console:alice', host: '127.0.0.1' },
    ]);
    await context.close();
  });

  it('retries all of a kind, told the count and the cap first, and drops all of another', async () => {
    const { context, page } = await loggedIn('alice');
    // Seed 5 has two created direct orders: with a cap of one, one is taken and one is left.
    const direct = deadOf('ack.directOrder');
    expect(direct).toHaveLength(2);
    await page.goto(`${rig().url}/console/dead?kind=ack.directOrder`);
    await page
      .getByRole('link', { name: `Retry all ${direct.length} of kind ack.directOrder…` })
      .click();
    await scan('confirm', page);
    expect(await page.getByRole('status').textContent()).toBe(
      `1 open dead letter of kind ack.directOrder will be put back in the queue. 1 more matches; at most 1 is taken at once (console.bulkLimit).`,
    );
    await page.getByRole('button', { name: 'Retry this one' }).click();
    const done = await page.locator('main').textContent();
    expect(done).toContain('1 dead letter is pending again.');
    expect(done).toContain('1 more was beyond the cap: act again to take it.');
    await eventually('the one retried', () => jobState(direct[0] ?? 0) === 'done' || undefined);
    expect(deadOf('ack.directOrder')).toEqual(direct.slice(1));

    // All of a kind, a cap's worth at a time: each round drops the oldest, until none is left.
    for (let left = deadOf('ack.singleOrder').length; left > 0; left -= 1) {
      await page.goto(`${rig().url}/console/dead?kind=ack.singleOrder`);
      await page.getByRole('link', { name: `Drop all ${left} of kind ack.singleOrder…` }).click();
      await page.getByRole('button', { name: 'Drop this one' }).click();
      expect(await page.locator('main').textContent()).toContain('1 dead letter is dropped.');
    }
    await page.goto(`${rig().url}/console/dead?kind=ack.singleOrder`);
    expect(await page.getByRole('status').textContent()).toBe('No open dead letters.');
    expect(deadOf('ack.singleOrder')).toEqual([]);
    await context.close();
  });

  it('pauses and resumes the pulls of a resource', async () => {
    const { context, page } = await loggedIn('alice');
    await page.getByRole('link', { name: 'Pauses' }).click();
    await scan('pauses', page);
    await page.getByRole('button', { name: 'Pause the pulls of patient', exact: true }).click();
    expect(await page.getByRole('status').textContent()).toBe('the pulls of patient: paused.');
    expect(query('SELECT target FROM pauses WHERE resumed_at IS NULL')).toEqual([
      { target: 'patient' },
    ]);
    // The health page says so on the resource's lists.
    await page.getByRole('link', { name: 'Health' }).click();
    const patient = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'patient', exact: true }) });
    expect(await patient.textContent()).toMatch(/since \d{4}-\d\d-\d\dT/);
    await page.getByRole('link', { name: 'Pauses' }).click();
    await page.getByRole('button', { name: 'Resume the pulls of patient', exact: true }).click();
    expect(await page.getByRole('status').textContent()).toBe('the pulls of patient: resumed.');
    expect(query('SELECT target FROM pauses WHERE resumed_at IS NULL')).toEqual([]);
    await context.close();
  });

  it('shows a read-only user no button and refuses its change with 403', async () => {
    const { context, page } = await loggedIn('bob');
    const actions = /^(Retry|Drop|Pause|Resume) |^Show personal values$|^Hand it to the ERP/;
    for (const path of [
      '/console/dead',
      '/console/pauses',
      `/console/record/singleOrder/${keys.order}`,
    ]) {
      await page.goto(`${rig().url}${path}`);
      expect(await page.getByRole('button', { name: actions }).count(), path).toBe(0);
      expect(await page.getByRole('link', { name: actions }).count(), path).toBe(0);
    }
    const refused = await context.request.post(`${rig().url}/console/pauses/pause`, {
      form: { direction: 'pull', target: 'patient' },
      headers: { origin: rig().url },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    expect(query('SELECT target FROM pauses WHERE resumed_at IS NULL')).toEqual([]);
    await context.close();
  });

  it('refuses a change a page of another site sends, even to a logged-in operator', async () => {
    // The refusal is this test's point: its 403 in the browser's console is no problem.
    const { context, page } = await loggedIn('alice', []);
    await context.route('http://evil.example/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<form method="post" action="${rig().url}/console/pauses/pause">
          <input name="direction" value="pull"><button>Win a prize</button></form>`,
      }),
    );
    await page.goto('http://evil.example/');
    const [answer] = await Promise.all([
      page.waitForResponse(`${rig().url}/console/pauses/pause`),
      page.getByRole('button', { name: 'Win a prize' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    expect(query('SELECT target FROM pauses WHERE resumed_at IS NULL')).toEqual([]);
    await context.close();
  });

  it('showed no console error or CSP refusal on any page, and axe found nothing serious', () => {
    expect([...seen].sort()).toEqual(
      ['confirm', 'dead letters', 'health', 'login', 'pauses', 'result', 'search', 'story'].sort(),
    );
    expect(findings).toEqual([]);
    expect(problems).toEqual([]);
  });
});
