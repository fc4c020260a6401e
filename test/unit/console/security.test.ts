import { describe, expect, it } from 'vitest';
import { html, recordHref } from '../../../src/console/html.js';
import { LoginLimit } from '../../../src/console/loginLimit.js';
import { isLoopback, isSameOrigin } from '../../../src/console/security.js';

describe('console pages: every value escaped', () => {
  it('escapes text from the platform, the ERP or a request, and keeps HTML made with html', () => {
    const name = '<script>alert("x")</script> & \'quoted\'';
    const made = html`<p title="${name}">${name}${html`<b>${name}</b>`}${[1, ' and ', name]}</p>`;
    expect(made.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;' +
        '<b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</b>' +
        '1 and &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>',
    );
    expect(html`${undefined}${null}${false}`.text).toBe('');
  });

  it('puts an id with slashes and query characters into one path segment', () => {
    expect(recordHref('patientHistory', 'p-1/h?x=1#y', { by: 'salesId', key: 'a&b' })).toBe(
      '/console/record/patientHistory/p-1%2Fh%3Fx%3D1%23y?by=salesId&key=a%26b',
    );
  });
});

describe('who the console answers', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.4.5.6', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.7', false],
    ['::ffff:10.0.0.7', false],
    ['fe80::1', false],
    ['127.0.0.1.evil', false],
    [undefined, false],
  ])('%s is loopback: %s', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });

  it('takes a change from the same origin only, by Sec-Fetch-Site or else by Origin', () => {
    const host = '127.0.0.1:9464';
    expect(isSameOrigin({ host, origin: undefined, secFetchSite: 'same-origin' })).toBe(true);
    expect(isSameOrigin({ host, origin: `http://${host}`, secFetchSite: 'same-site' })).toBe(false);
    expect(isSameOrigin({ host, origin: undefined, secFetchSite: 'cross-site' })).toBe(false);
    expect(isSameOrigin({ host, origin: undefined, secFetchSite: 'none' })).toBe(false);
    expect(isSameOrigin({ host, origin: `http://${host}`, secFetchSite: undefined })).toBe(true);
    expect(isSameOrigin({ host, origin: 'http://127.0.0.1:9465', secFetchSite: undefined })).toBe(
      false,
    );
    expect(isSameOrigin({ host, origin: 'null', secFetchSite: undefined })).toBe(false);
    expect(isSameOrigin({ host, origin: undefined, secFetchSite: undefined })).toBe(false);
  });
});

describe('failed logins', () => {
  it('refuses after the attempts within the window, until the oldest failure leaves it', () => {
    const limit = new LoginLimit(3, 60_000);
    const keys = ['address:10.0.0.7', 'user:alice'];
    for (const at of [0, 10_000, 20_000]) {
      expect(limit.waitMs(keys, at)).toBe(0);
      limit.failed(keys, at);
    }
    expect(limit.waitMs(keys, 30_000)).toBe(30_000);
    expect(limit.waitMs(['user:alice'], 30_000)).toBe(30_000);
    expect(limit.waitMs(['address:10.0.0.8', 'user:bob'], 30_000)).toBe(0);
    expect(limit.waitMs(keys, 60_000)).toBe(0);
  });

  it('forgets the failures of a key that logged in, and the oldest keys past its bound', () => {
    const limit = new LoginLimit(1, 60_000, 2);
    limit.failed(['user:alice'], 0);
    limit.succeeded(['user:alice']);
    expect(limit.waitMs(['user:alice'], 1)).toBe(0);
    limit.failed(['a'], 0);
    limit.failed(['b'], 0);
    limit.failed(['c'], 0);
    expect(limit.waitMs(['a'], 1)).toBe(0);
    expect(limit.waitMs(['c'], 1)).toBe(59_999);
  });
});
