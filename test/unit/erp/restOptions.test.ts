import { describe, expect, it } from 'vitest';
import { checkRestOptions, type RestAdapterOptions } from '../../../src/erp/outbound/rest/index.js';
import { expandUrl, targetOf } from '../../../src/erp/outbound/rest/urls.js';
import { SetupError } from '../../../src/shared/errors.js';

const values = { resource: 'singleOrder', _id: 'a/b c?', version: '2026-01-15T08:00:00.000Z' };

describe('expandUrl', () => {
  it('appends a relative template to the base URL with exactly one slash', () => {
    for (const [base, template] of [
      ['http://erp.local/api', '{resource}'],
      ['http://erp.local/api/', '/{resource}'],
    ] as const) {
      expect(expandUrl(base, template, values).href).toBe('http://erp.local/api/singleOrder');
    }
  });

  it('URL-encodes every placeholder, so an id stays one path segment', () => {
    const url = expandUrl('http://erp.local/api', '{resource}/{_id}?v={version}', values);
    expect(url.pathname).toBe('/api/singleOrder/a%2Fb%20c%3F');
    expect(url.searchParams.get('v')).toBe(values.version);
  });

  it('uses an absolute template as it is', () => {
    const url = expandUrl('http://erp.local/api', 'https://other.local/in/{_id}', values);
    expect(url.href).toBe('https://other.local/in/a%2Fb%20c%3F');
  });
});

describe('targetOf', () => {
  it('POSTs to the collection and PUTs to the record by default', () => {
    const options: RestAdapterOptions = {
      baseUrl: 'http://erp.local',
      resources: { article: { method: 'PUT' } },
    };
    expect(targetOf(options, 'singleOrder')).toEqual({
      method: 'POST',
      template: '{resource}',
    });
    expect(targetOf(options, 'article')).toEqual({
      method: 'PUT',
      template: '{resource}/{_id}',
    });
  });
});

describe('checkRestOptions', () => {
  it('accepts a minimal configuration', () => {
    expect(() => checkRestOptions({ baseUrl: 'https://erp.local/api' })).not.toThrow();
  });

  it('lists every problem by configuration path, without the secret', () => {
    let caught: unknown;
    try {
      checkRestOptions({
        baseUrl: 'erp.local',
        timeoutMs: 0,
        auth: { type: 'header', header: 'Idempotency-Key', value: 'hidden-value' },
        resources: {
          article: { url: '{resource}/{id}' },
          // A method the types forbid, as a hand-written config could still bring it.
          patient: { method: 'PATCH' as never },
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SetupError);
    const problems = (caught as SetupError).problems;
    expect(problems).toEqual([
      'erp.rest.baseUrl: expected an http:// or https:// URL, got "erp.local"',
      'erp.rest.auth.header: Idempotency-Key is set by the adapter itself',
      'erp.rest.timeoutMs: expected a whole number of milliseconds above 0',
      'erp.rest.resources.article.url: unknown placeholder {id}; use {resource}, {_id}, {version}',
      'erp.rest.resources.patient.method: PATCH is not one of POST, PUT',
    ]);
    expect((caught as SetupError).message).not.toContain('hidden-value');
  });

  it('refuses a template that does not make an http URL', () => {
    expect(() =>
      checkRestOptions({
        baseUrl: 'http://erp.local',
        resources: { article: { url: 'ftp://erp.local/{resource}' } },
      }),
    ).toThrow(/erp\.rest\.resources\.article\.url/);
  });
});
