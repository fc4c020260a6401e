import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { startDaemon, type RunningDaemon } from '../../../src/app/daemon.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { eventually } from '../../support/eventually.js';

const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
/** Nothing listens on the discard port: every request to the platform fails at once. */
const DEAD_PLATFORM = 'http://127.0.0.1:9/api';

let rig: AppRig;
let app: App;
let daemon: RunningDaemon;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  rig = appRig(DEAD_PLATFORM, 'B', '2026-03-01T08:00:00.000Z', {
    http: { enabled: true, port: 0, token: TOKEN },
  });
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
    },
  );
  app = await rig.open(logger);
  daemon = await startDaemon(app);
});
afterAll(async () => {
  await daemon.stop();
  await app.close();
  rig.cleanup();
});

async function readyz(token?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${daemon.url ?? ''}/readyz`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  return { status: response.status, text: await response.text() };
}

/**
 * /readyz once the platform probe has failed (it runs right after the start) and the ERP's has
 * ended too (on a busy machine its file takes a while): two answers in a row then agree.
 */
function platformFailing(): Promise<string> {
  return eventually(
    'the platform probe to fail',
    async () => {
      const { text } = await readyz(TOKEN);
      return text.includes('127.0.0.1:9') && !text.includes('not checked yet') && text;
    },
    10_000,
  );
}

describe('/readyz without the token', () => {
  it('says which checks fail in short words, with no file path or URL; the token and the log have the details', async () => {
    const detailed = await platformFailing();
    expect(detailed).toContain('ECONNREFUSED 127.0.0.1:9');
    const open = await readyz();
    expect(open.status).toBe(503);
    expect(open.text).not.toContain('127.0.0.1');
    expect(open.text).not.toContain('http');
    expect(open.text).not.toContain(rig.folder);
    expect(JSON.parse(open.text)).toMatchObject({
      ready: false,
      checks: { platform: { ok: false, problem: 'the platform does not answer as expected' } },
    });
    const wrong = await readyz('not-the-token');
    expect(wrong.text).toBe(open.text);
    // The daemon logs its readiness itself, with the details, whether or not anyone asks.
    const line = logged.find((entry) => String(entry.msg).startsWith('readiness: not ready: '));
    expect(line?.msg).toContain('platform: ');
    expect(line?.msg).toContain('127.0.0.1:9');
  });
});
