import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { eventually, withinBound, type DaemonProcess } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { postHead, requestHead } from '../../support/rawHttp.js';

const TOKEN = 'refusal-token-61f0c9d2a7b3';
const HEADERS_TIMEOUT_MS = 500;

const rig = useDaemonRig({
  simulator: { seed: 6 },
  config: {
    http: {
      enabled: true,
      port: 0,
      token: TOKEN,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: 2_000,
    },
  },
});

/** Writes `bytes` on a new connection; resolves with all that came back once it closed. */
function exchange(port: number, bytes: string, keepOpenMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error) => (text === '' ? reject(error) : undefined));
    socket.on('close', () => resolve(text));
    socket.write(bytes);
    if (keepOpenMs === 0) return;
    // A client that sends part of its headers and then nothing: the server must end it.
    setTimeout(() => socket.destroy(), keepOpenMs);
  });
}

const statuses = (text: string): number[] =>
  [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));

const refusalLines = (daemon: DaemonProcess, pattern: RegExp) =>
  daemon.lines().filter((line) => pattern.test(String(line.msg)));

const NOTE = JSON.stringify({ patientCustomerId: 'K-10042', noteText: 'pipelined', status: 1 });

/** The keep-alive head of a note's POST, with the token when given. */
const noteHead = (token?: string) =>
  postHead(
    '/erp/patientNote',
    NOTE,
    token === undefined ? {} : { authorization: `Bearer ${token}` },
  ).replace('Connection: close\r\n', '');

describe('the endpoint after a refusal and before its routes (issue 37.7)', () => {
  let daemon: DaemonProcess;
  let port: number;
  let metrics: () => Promise<string>;

  it('closes the connection after a refusal: a request pipelined behind a 401 is neither answered nor stored', async () => {
    daemon = rig().start({ clock: true });
    const started = await daemon.waitForLog('homecare-sync started');
    const url = String(started['url']);
    port = Number(new URL(url).port);
    metrics = async () => (await fetch(`${url}/metrics`)).text();
    const answer = await exchange(port, noteHead() + NOTE + noteHead(TOKEN) + NOTE);
    expect(statuses(answer)).toEqual([401]);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    const counted = await metrics();
    expect(counted).toContain(
      'homecare_sync_http_refused_total{status="401",route="/erp/:kind"} 1',
    );
    expect(counted).not.toMatch(/homecare_sync_inbound_messages_total\{[^}]*source="http"/);
  });

  it('logs and counts every refusal the HTTP parser makes, one line per kind', async () => {
    const refusals: [string, string, number, number][] = [
      [
        'Content-Length with Transfer-Encoding',
        requestHead('POST /erp/patientNote HTTP/1.1', {
          'Content-Length': '2',
          'Transfer-Encoding': 'chunked',
        }) + '0\r\n\r\n',
        400,
        0,
      ],
      [
        'two Content-Lengths',
        requestHead('POST /erp/patientNote HTTP/1.1', { 'Content-Length': ['2', '3'] }) + '{}',
        400,
        0,
      ],
      ['no Host', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 0],
      [
        'headers too large',
        requestHead('GET /healthz HTTP/1.1', { 'X-Filler': 'x'.repeat(20_000) }),
        431,
        0,
      ],
      ['slow headers', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 408, 5_000],
      ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405, 0],
    ];
    for (const [what, bytes, status, keepOpenMs] of refusals) {
      expect(statuses(await exchange(port, bytes, keepOpenMs)), what).toEqual([status]);
    }
    const parserLines = await eventually('a line for each', () => {
      const lines = refusalLines(daemon, /^http \d{3} refused/).filter(
        (line) => line['route'] === 'parser',
      );
      return lines.length >= refusals.length && lines;
    });
    expect(parserLines.map((line) => [line.level, line['status']])).toEqual([
      ['warn', 400],
      ['warn', 400],
      ['warn', 400],
      ['warn', 431],
      ['warn', 408],
      ['warn', 405],
    ]);
    const counted = await metrics();
    expect(counted).toContain('homecare_sync_http_refused_total{status="400",route="parser"} 3');
    expect(counted).toContain('homecare_sync_http_refused_total{status="431",route="parser"} 1');
    expect(counted).toContain('homecare_sync_http_refused_total{status="408",route="parser"} 1');
    expect(counted).toContain('homecare_sync_http_refused_total{status="405",route="parser"} 1');
  }, 30_000);

  it('a burst of 404s is one warning at once and one line with their count when it is over', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (let n = 0; n < 50; n++) {
      const answer = await exchange(port, requestHead(`GET /nothing-here/${n} HTTP/1.1`, auth));
      expect(statuses(answer)).toEqual([404]);
    }
    const burst = /^http 404 refused: no such route/;
    // The daemon's stdout comes through a pipe: its line may still be on the way.
    await eventually('the warning', () => refusalLines(daemon, burst).length > 0);
    expect(refusalLines(daemon, burst).map((line) => line.level)).toEqual(['warn']);
    // Quiet for a while on the daemon's clock: the burst is over.
    await daemon.advanceClock(60_000);
    const over = await eventually('the line that ends the burst', () =>
      refusalLines(daemon, burst).find((line) => line.level === 'info'),
    );
    expect(over['count']).toBe(50);
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
    expect(refusalLines(daemon, burst)).toHaveLength(2);
  }, 30_000);
});
