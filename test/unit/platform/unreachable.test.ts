import { describe, expect, it } from 'vitest';
import { bodyTimedOut, cannotConnect } from '../../../src/platform/unreachable.js';

describe('what counts as an unreachable platform', () => {
  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ])('%s: no connection could be made', (code) => {
    expect(cannotConnect(code, 'connect failed')).toBe(true);
  });

  it('a proxy that refuses the tunnel', () => {
    const message = 'Proxy response (502) !== 200 when HTTP Tunneling';
    expect(cannotConnect('UND_ERR_ABORTED', message)).toBe(true);
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])(
    '%s: the connection stood, so it is one request’s failure',
    (code) => {
      expect(cannotConnect(code, 'other side closed')).toBe(false);
    },
  );

  it('tells our own body time-out from a cut connection', () => {
    expect(bodyTimedOut({ code: 'UND_ERR_BODY_TIMEOUT' })).toBe(true);
    expect(bodyTimedOut({ code: 'ECONNRESET' })).toBe(false);
    expect(bodyTimedOut(undefined)).toBe(false);
  });
});
