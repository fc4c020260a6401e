import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { consoleRequest, logIn, type Answer } from '../../support/console/consoleClient.js';
import {
  ENDPOINT_TOKEN,
  OPERATOR_TOKEN,
  READ_ONLY_TOKEN,
  USERS,
  useConsoleDaemon,
} from '../../support/console/consoleRig.js';

/**
 * Who may reach the console and do what (issue 40, item 5), against the real daemon: logins and
 * their cookie, roles, the same-origin rule for changes, the headers of every answer, the
 * rate limit of logins, loopback only unless console.remote.
 */
const rig = useConsoleDaemon({ http: { host: '0.0.0.0' } });
const url = () => rig().url.replace('0.0.0.0', '127.0.0.1');

const asAlice = async () => {
  const { cookie } = await logIn(url(), 'alice', USERS.alice.password);
  if (cookie === undefined) throw new Error('alice could not log in');
  return cookie;
};

function expectSafeHeaders(answer: Answer): void {
  expect(answer.headers['content-security-policy']).toBe(
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

describe('the console’s doors', () => {
  it('refuses an unauthenticated visit: a page sends to the login, a change gets 401', async () => {
    const page = await consoleRequest(url(), '/console/dead');
    expect(page.status).toBe(303);
    expect(page.headers['location']).toBe('/console/login?next=%2Fconsole%2Fdead');
    expectSafeHeaders(page);
    const change = await consoleRequest(url(), '/console/pauses/pause', {}, { direction: 'pull' });
    expect(change.status).toBe(401);
    expect(change.body).not.toContain('paused');
  });

  it('logs in with a session cookie only the console gets back, and answers no-store with a strict CSP', async () => {
    const { answer, cookie } = await logIn(url(), 'alice', USERS.alice.password);
    expect(answer.status).toBe(303);
    const set = String(answer.headers['set-cookie']);
    expect(set).toMatch(
      /^homecare_sync_console=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=28800$/,
    );
    const home = await consoleRequest(url(), '/console', { cookie });
    expect(home.status).toBe(200);
    expectSafeHeaders(home);
    expect(home.body).toContain('alice (operator)');
    expect(home.body).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);

    const out = await consoleRequest(url(), '/console/logout', { cookie }, {});
    expect(out.status).toBe(303);
    expect((await consoleRequest(url(), '/console', { cookie })).status).toBe(303);
  });

  it('refuses a change from another site, and one that proves no origin, even with a valid session', async () => {
    const cookie = await asAlice();
    const form = { direction: 'pull', target: '' };
    for (const sent of [
      { cookie, site: 'cross-site' as const },
      { cookie, site: 'none' as const },
      { cookie, origin: 'https://evil.example' },
    ]) {
      const refused = await consoleRequest(url(), '/console/pauses/pause', sent, form);
      expect(refused.status, JSON.stringify(sent)).toBe(403);
    }
    const pauses = await consoleRequest(url(), '/console/pauses', { cookie });
    expect(pauses.body).not.toContain('paused since');
    // The same change from the console's own page goes through (and is undone).
    const host = new URL(url()).host;
    const done = await consoleRequest(
      url(),
      '/console/pauses/pause',
      { cookie, origin: `http://${host}` },
      form,
    );
    expect(done.status).toBe(200);
    expect(done.body).toContain('every pull: paused.');
    await consoleRequest(url(), '/console/pauses/resume', { cookie }, form);
  });

  it('shows a read-only user no buttons and refuses its changes with 403', async () => {
    const { cookie } = await logIn(url(), 'bob', USERS.bob.password);
    const pauses = await consoleRequest(url(), '/console/pauses', { cookie });
    expect(pauses.status).toBe(200);
    expect(pauses.body).toContain('bob (read-only)');
    expect(pauses.body).not.toMatch(/<button[^>]*>\s*(Pause|Resume)/);
    const refused = await consoleRequest(
      url(),
      '/console/pauses/pause',
      { cookie },
      { direction: 'pull' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('read-only');
  });

  it('opens for a console token without a session; the endpoint’s token opens none of it, nor the console’s the ERP’s door', async () => {
    expect((await consoleRequest(url(), '/console', { token: READ_ONLY_TOKEN })).status).toBe(200);
    const act = await consoleRequest(
      url(),
      '/console/pauses/pause',
      { token: OPERATOR_TOKEN, site: 'none' },
      { direction: 'push', target: 'orderStatus' },
    );
    expect(act.status).toBe(200);
    await consoleRequest(
      url(),
      '/console/pauses/resume',
      { token: OPERATOR_TOKEN, site: 'none' },
      { direction: 'push', target: 'orderStatus' },
    );
    expect((await consoleRequest(url(), '/console', { token: ENDPOINT_TOKEN })).status).toBe(303);
    const door = await consoleRequest(url(), '/erp/orderStatus', { token: OPERATOR_TOKEN }, {});
    expect(door.status).toBe(401);
  });

  it('refuses logins after five failures from one address or for one user, saying when to try again', async () => {
    const from = '127.0.0.2';
    for (let n = 0; n < 5; n += 1) {
      const wrong = await logIn(url(), 'alice', 'not her password', { from });
      expect(wrong.answer.status).toBe(401);
    }
    const right = await logIn(url(), 'alice', USERS.alice.password, { from });
    expect(right.answer.status).toBe(429);
    expect(Number(right.answer.headers['retry-after'])).toBeGreaterThan(800);
    expect(right.cookie).toBeUndefined();
    // Alice is held back from every address now; another user from another address is not.
    expect(
      (await logIn(url(), 'alice', USERS.alice.password, { from: '127.0.0.3' })).answer.status,
    ).toBe(429);
    expect(
      (await logIn(url(), 'bob', USERS.bob.password, { from: '127.0.0.3' })).answer.status,
    ).toBe(303);
  });

  const outside = Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

  it.runIf(outside !== undefined)(
    'refuses a client from another machine (console.remote is off)',
    async () => {
      const port = new URL(rig().url).port;
      const answer = await consoleRequest(`http://${outside}:${port}`, '/console/login');
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('console.remote is off');
      expectSafeHeaders(answer);
    },
  );
});
