import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { startDaemon, type RunningDaemon } from '../../../src/app/daemon.js';
import { QUIET_MS } from '../../../src/http/refusals.js';
import { appRig, registryOf, type AppRig } from '../../support/appRig.js';
import { eventually } from '../../support/eventually.js';
import { postHead, rawRequest, requestHead } from '../../support/rawHttp.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const STATUS = JSON.stringify({ orderType: 'single', id: 'o-forged', erpOrderNumber: 'FORGED' });

let sim: TestSimulator;
let rig: AppRig;
let app: App;
let daemon: RunningDaemon;
let port: number;
const logged: Array<Record<string, unknown>> = [];
const logText: string[] = [];

beforeAll(async () => {
  sim = await startTestSimulator();
  rig = appRig(sim.url, 'B', '2026-03-01T08:00:00.000Z', {
    http: { enabled: true, port: 0, token: TOKEN, headersTimeoutMs: 1_000 },
  });
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        logText.push(line);
        logged.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  app = await rig.open(logger);
  daemon = await startDaemon(app);
  port = Number(new URL(daemon.url ?? '').port);
});
afterAll(async () => {
  await daemon.stop();
  await app.close();
  await sim.close();
  rig.cleanup();
});

/** Messages the daemon stored from the ERP, whatever became of them. */
const storedMessages = () =>
  (app.store.db.prepare('SELECT count(*) AS n FROM inbox_messages').get() as { n: number }).n;

const refusalLines = () => logged.filter((line) => typeof line.status === 'number');

describe('the ERP door: access by the matched route', () => {
  it('stores nothing sent without the token, however the path is spelled', async () => {
    const targets = [
      '/erp/orderStatus',
      '/%65rp/orderStatus',
      '/erp/%6FrderStatus',
      '/%65%72%70/orderStatus',
      '/%2565rp/orderStatus',
      '/ERP/orderStatus',
      '/Erp/OrderStatus',
      '//erp/orderStatus',
      '/erp//orderStatus',
      '/./erp/orderStatus',
      '/erp/./orderStatus',
      '/x/../erp/orderStatus',
      '/erp/orderStatus;x=1',
      '/erp;x=1/orderStatus',
      '/erp/orderStatus/',
      '/erp/orderStatus?kind=orderStatus',
      '/erp%2forderStatus',
      '/erp/orderStatus%00',
      `http://127.0.0.1:${port}/erp/orderStatus`,
      'https://evil.example/erp/orderStatus',
      'HTTP://EVIL.EXAMPLE/%65rp/orderStatus',
      'http://127.0.0.1/healthz/../erp/orderStatus',
    ];
    for (const target of targets) {
      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, TOKEN]) {
        const headers = authorization === undefined ? {} : { Authorization: authorization };
        const answer = await rawRequest(port, postHead(target, STATUS, headers), STATUS);
        expect([401, 400], `${target} with ${authorization ?? 'no token'}`).toContain(
          answer.status,
        );
      }
    }
    expect(storedMessages()).toBe(0);
  });

  it('matches an absolute-form target by its path, and takes the scheme name in any case', async () => {
    const body = JSON.stringify({ orderType: 'single', id: 'o-absolute', erpOrderNumber: 'A-1' });
    const absolute = await rawRequest(
      port,
      postHead(`http://127.0.0.1:${port}/erp/orderStatus`, body, {
        Authorization: `bearer ${TOKEN}`,
      }),
      body,
    );
    expect(absolute.status).toBe(202);
    const upper = await rawRequest(
      port,
      postHead('/erp/orderStatus', body.replace('A-1', 'A-2'), {
        Authorization: `BEARER ${TOKEN}`,
      }),
      body.replace('A-1', 'A-2'),
    );
    expect(upper.status).toBe(202);
  });

  it('keeps /healthz, /readyz and /metrics public and everything else behind the token', async () => {
    for (const path of ['/healthz', '/readyz', '/readyz/inbound', '/metrics']) {
      const answer = await rawRequest(port, requestHead(`GET ${path} HTTP/1.1`));
      expect([200, 503], path).toContain(answer.status);
    }
    for (const path of ['/nowhere', '/erp', '/erp/', '/healthz/x', '/__sim/state']) {
      expect((await rawRequest(port, requestHead(`GET ${path} HTTP/1.1`))).status, path).toBe(401);
    }
    const withToken = requestHead('GET /nowhere HTTP/1.1', { Authorization: `Bearer ${TOKEN}` });
    expect((await rawRequest(port, withToken)).status).toBe(404);
  });

  it('answers 401 before "100 Continue" without the token, and 100 then 202 with it', async () => {
    const body = JSON.stringify({ orderType: 'single', id: 'o-continue', erpOrderNumber: 'C-1' });
    const refused = await rawRequest(
      port,
      postHead('/erp/orderStatus', body, { Expect: '100-continue' }),
    );
    expect(refused.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(refused.text).not.toContain('100 Continue');
    const taken = await continued(body);
    expect(taken).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /);
  });
});

/** A POST that sends its body only after the server said `100 Continue`. */
function continued(body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8').on('error', reject);
    socket.on('data', (chunk: string) => {
      if (text === '' && chunk.startsWith('HTTP/1.1 100')) socket.write(body);
      text += chunk;
    });
    socket.on('close', () => resolve(text));
    socket.write(
      postHead('/erp/orderStatus', body, {
        Expect: '100-continue',
        Authorization: `Bearer ${TOKEN}`,
      }),
    );
  });
}

describe('the ERP door: bytes, keys and refusals', () => {
  const post = (body: Buffer | string, headers: Record<string, string | string[]> = {}) =>
    rawRequest(
      port,
      postHead('/erp/orderStatus', body, { Authorization: `Bearer ${TOKEN}`, ...headers }),
      body,
    );

  it('refuses a body that is not valid UTF-8 with the byte offset, and another charset or type with 415', async () => {
    const before = storedMessages();
    const head = Buffer.from('{"orderType":"single","id":"o-1","erpOrderNumber":"M');
    const bad = Buffer.concat([head, Buffer.from([0xfc]), Buffer.from('ller"}')]);
    const invalid = await post(bad);
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain(`not valid UTF-8 (first bad byte at offset ${head.length})`);
    const latin1 = await post(STATUS, { 'Content-Type': 'application/json; charset=iso-8859-1' });
    expect(latin1.status).toBe(415);
    expect(latin1.text).toContain('charset=iso-8859-1');
    expect((await post(STATUS, { 'Content-Type': 'text/plain' })).status).toBe(415);
    const utf8 = await post(STATUS.replace('FORGED', 'U-1'), {
      'Content-Type': 'application/json; charset=UTF-8',
    });
    expect(utf8.status).toBe(202);
    expect(storedMessages()).toBe(before + 1);
  });

  it('refuses an empty Idempotency-Key and more than one with 400', async () => {
    const before = storedMessages();
    expect((await post(STATUS, { 'Idempotency-Key': '' })).status).toBe(400);
    expect((await post(STATUS, { 'Idempotency-Key': ['k-1', 'k-2'] })).status).toBe(400);
    expect((await post(STATUS, { 'Idempotency-Key': 'k'.repeat(201) })).status).toBe(400);
    expect(storedMessages()).toBe(before);
  });

  it('refuses fields the contract does not define, non-finite numbers and hostile shapes, naming the field', async () => {
    const before = storedMessages();
    const unknown = await post(
      '{"orderType":"single","id":"o-1","erpOrdernumber":"E-1","constructor":1}',
    );
    expect(unknown.status).toBe(400);
    const { problems } = JSON.parse(unknown.text.slice(unknown.text.indexOf('{'))) as {
      problems: string[];
    };
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^erpOrdernumber: unknown field \(did you mean "erpOrderNumber"\?\)/),
        expect.stringMatching(/^constructor: unknown field/),
      ]),
    );
    const huge = await post(`{"orderType":"single","id":"o-1","status":3,"x":1e400}`);
    expect(huge.status).toBe(400);
    const wide = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`f${i}`, 0]));
    const hostile = await post(JSON.stringify({ orderType: 'single', id: 'o-1', ...wide }));
    expect(hostile.status).toBe(400);
    expect(hostile.text).toContain('more than 256 fields in one object');
    expect(hostile.text.length).toBeLessThan(1_000);
    expect(storedMessages()).toBe(before);
  });

  it('refuses a key twice, a __proto__ key, a number beyond a double and a compressed body, each with its reason', async () => {
    const before = storedMessages();
    const twice = await post('{"orderType":"single","id":"o-1","status":3,"status":9}');
    expect(twice.status).toBe(400);
    expect(twice.text).toContain(
      'the field status is there twice; which one is meant cannot be told: send each field once',
    );
    const proto = await post('{"orderType":"single","id":"o-1","__proto__":{"status":9}}');
    expect(proto.status).toBe(400);
    expect(proto.text).toContain(
      "the key __proto__ is refused: no message of the contract has it, and JavaScript takes it for the object's prototype",
    );
    const digits = await post('{"orderType":"single","id":"o-1","status":3.0000000000000000001}');
    expect(digits.status).toBe(400);
    expect(digits.text).toContain(
      'status: 3.0000000000000000001 has more digits than a JSON number keeps exactly',
    );
    const nul = await post('{"orderType":"single","id":"o-1","erpOrderNumber":"VK-\\u0000E1"}');
    expect(nul.status).toBe(400);
    expect(nul.text).toContain('erpOrderNumber: the text holds the control character U+0000');
    const gzip = await post(gzipSync(STATUS), { 'Content-Encoding': 'gzip' });
    expect(gzip.status).toBe(415);
    expect(gzip.text).toContain(
      'the body is sent with Content-Encoding: gzip; send it uncompressed (no Content-Encoding, or identity)',
    );
    expect(storedMessages()).toBe(before);
    const plain = await post(STATUS.replace('FORGED', 'I-1'), { 'Content-Encoding': 'identity' });
    expect(plain.status).toBe(202);
    expect(storedMessages()).toBe(before + 1);
  });

  it('takes the same message under one Idempotency-Key as a repeat, whatever its key order and spacing', async () => {
    const key = { 'Idempotency-Key': 'door-repeat-1' };
    const first = await post('{"orderType":"single","id":"o-r","erpOrderNumber":"R-1"}', key);
    const again = await post(
      '{ "erpOrderNumber": "R-1",\n  "id": "o-r", "orderType": "single" }',
      key,
    );
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.text).toContain('"repeat":true');
    const other = await post('{"orderType":"single","id":"o-r","erpOrderNumber":"R-2"}', key);
    expect(other.status).toBe(409);
  });

  it('logs refusals of one reason as a burst: one line at once, one with the count once quiet; counts each and never logs the token', async () => {
    const lines = () =>
      refusalLines().filter(
        (line) => line.reason === 'no valid token' && line.route === '/erp/:kind',
      );
    const seen = lines().length;
    for (let i = 0; i < 3; i += 1) {
      await rawRequest(
        port,
        postHead('/erp/patient', '{}', { Authorization: 'Bearer not-it' }),
        '{}',
      );
    }
    expect(lines().length).toBeLessThanOrEqual(seen + 1);
    expect(lines().at(-1)).toMatchObject({ level: 40, status: 401, client: '127.0.0.1' });
    rig.clock.advance(QUIET_MS);
    const over = await eventually('the line that ends the burst', () =>
      lines().find((line) => line.level === 30),
    );
    expect(over).toMatchObject({ status: 401, route: '/erp/:kind' });
    expect(over.count).toBeGreaterThanOrEqual(3);
    const metrics = await registryOf(app).getSingleMetricAsString(
      'homecare_sync_http_refused_total',
    );
    expect(metrics).toMatch(/status="401",route="\/erp\/:kind"\} (\d{2,})/);
    expect(metrics).toMatch(/status="415",route="\/erp\/:kind"\} [1-9]/);
    expect(logText.join('\n')).not.toContain(TOKEN);
    expect(logText.join('\n')).not.toContain('not-it');
  });
});

/** A connection that sends a request's headers a line at a time and never finishes them. */
function slowHeaders(everyMs: number): {
  socket: Socket;
  answer: Promise<string>;
  linesSent: () => number;
} {
  const socket = connect({ host: '127.0.0.1', port });
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  socket.write('POST /erp/orderStatus HTTP/1.1\r\n');
  let line = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(`X-Slow-${(line += 1)}: still coming\r\n`);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
  return { socket, answer, linesSent: () => line };
}

describe('the ERP door under slow clients', () => {
  it('takes a message with the token while 100 connections dribble their headers, and ends those with 408', async () => {
    const slow = Array.from({ length: 100 }, () => slowHeaders(200));
    await eventually(
      'the 100 slow connections to dribble',
      () => slow.every(({ linesSent }) => linesSent() > 0),
      10_000,
    );
    const body = JSON.stringify({ orderType: 'single', id: 'o-slow', erpOrderNumber: 'S-1' });
    const answer = await rawRequest(
      port,
      postHead('/erp/orderStatus', body, { Authorization: `Bearer ${TOKEN}` }),
      body,
    );
    expect(answer.status).toBe(202);
    // http.headersTimeoutMs is 1 s here: none of them holds its connection for long.
    const ended = await Promise.all(slow.map(({ answer }) => answer));
    expect(ended.every((text) => text.startsWith('HTTP/1.1 408'))).toBe(true);
  });
});
