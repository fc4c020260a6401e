import { describe, expect, it } from 'vitest';
import { ALL_CHECK_IDS, selectChecks } from '../../../src/check/select.js';

const IDS = ['platform.dns', 'platform.key', 'read.singleOrder', 'read.article', 'erp.outbox'];

describe('--only and --skip', () => {
  it('select every check without either', () => {
    expect(selectChecks(IDS, [], [])).toEqual({ ids: IDS, problems: [] });
  });

  it('take check ids and their groups, comma separated or repeated', () => {
    expect(selectChecks(IDS, ['read', 'platform.key'], []).ids).toEqual([
      'platform.key',
      'read.singleOrder',
      'read.article',
    ]);
    expect(selectChecks(IDS, [], ['platform', 'read.article']).ids).toEqual([
      'read.singleOrder',
      'erp.outbox',
    ]);
    expect(selectChecks(IDS, ['read,erp'], ['read.article']).ids).toEqual([
      'read.singleOrder',
      'erp.outbox',
    ]);
  });

  it('name an unknown check, with the one it may have meant', () => {
    const { problems } = selectChecks(IDS, ['read.singelOrder'], ['platfrom']);
    expect(problems).toEqual([
      '--only: no check "read.singelOrder" (did you mean read.singleOrder?)',
      '--skip: no check "platfrom" (did you mean platform?)',
    ]);
  });

  it('accept a check of another config (erp.rest with the file adapter), so one script serves every installation', () => {
    expect(ALL_CHECK_IDS).toContain('erp.rest');
    expect(ALL_CHECK_IDS).toContain('read.productGroup');
    expect(selectChecks(IDS, [], ['erp.rest']).problems).toEqual([]);
  });
});
