import { describe, expect, it } from 'vitest';
import { proxyRoute, shownProxy } from '../../../src/platform/index.js';

const https = new URL('https://api.platform.example/v1');
const http = new URL('http://api.platform.example:8080/v1');

describe('the proxy the platform client goes through, by the environment', () => {
  it('HTTPS_PROXY for https, HTTP_PROXY for http, and for https when HTTPS_PROXY is unset', () => {
    const env = { HTTPS_PROXY: 'http://secure:3128', HTTP_PROXY: 'http://plain:3128' };
    expect(proxyRoute(https, env)).toMatchObject({ via: 'proxy', variable: 'HTTPS_PROXY' });
    expect(proxyRoute(http, env)).toMatchObject({ via: 'proxy', variable: 'HTTP_PROXY' });
    expect(proxyRoute(https, { http_proxy: 'http://plain:3128' })).toMatchObject({
      via: 'proxy',
      variable: 'HTTP_PROXY',
    });
    expect(proxyRoute(http, { HTTPS_PROXY: 'http://secure:3128' })).toEqual({
      via: 'direct',
      reason: 'HTTP_PROXY is not set',
    });
  });

  it('goes direct where NO_PROXY covers the host: exactly, as a parent domain, by port, or *', () => {
    const proxied = { HTTPS_PROXY: 'http://p:3128' };
    expect(proxyRoute(https, { ...proxied, NO_PROXY: 'platform.example' })).toEqual({
      via: 'direct',
      reason: 'NO_PROXY (platform.example) covers api.platform.example',
    });
    expect(proxyRoute(https, { ...proxied, no_proxy: '.example' }).via).toBe('direct');
    expect(proxyRoute(https, { ...proxied, NO_PROXY: 'api.platform.example:8443' }).via).toBe(
      'proxy',
    );
    expect(proxyRoute(https, { ...proxied, NO_PROXY: 'api.platform.example:443' }).via).toBe(
      'direct',
    );
    expect(proxyRoute(https, { ...proxied, NO_PROXY: '*' }).via).toBe('direct');
    expect(proxyRoute(https, { ...proxied, NO_PROXY: 'other.example' }).via).toBe('proxy');
  });

  it('is shown without the credentials it carries', () => {
    expect(shownProxy(new URL('http://user:s3cret@proxy.local:3128'))).toBe(
      'http://proxy.local:3128',
    );
  });
});
