import { describe, expect, it } from 'vitest';
import { contractFor } from '../../../src/contract/index.js';
import { pullTargets, referenceWaves, targetName } from '../../../src/pull/targets.js';

const names = (variant: 'A' | 'B' | 'C', settings = {}) =>
  pullTargets(contractFor(variant), settings).map(targetName);

describe('pull targets', () => {
  it('pull every status filter of the order and care lists', () => {
    const b = names('B');
    for (const status of ['created', 'transmitted', 'updated', 'archived']) {
      expect(b).toContain(`singleOrder?status=${status}`);
      expect(b).toContain(`directOrder?status=${status}`);
    }
    expect(b).toContain('integratedCare?status=deactivated');
  });

  it('follow the variant: article status in B, users status in C, contracts in A', () => {
    expect(names('B')).toContain('article?status=updated');
    expect(names('A')).toContain('article');
    expect(names('C')).toContain('users?status=active');
    expect(names('A')).toContain('users');
    expect(names('A')).toEqual(
      expect.arrayContaining(['contractArticleGroup', 'insuranceContract', 'patientHistory']),
    );
    expect(names('C')).not.toContain('patientHistory');
    expect(names('B')).toContain('productGroup');
    expect(names('A')).not.toContain('erpOrder');
  });

  it('pull archived attachments separately where the list offers archivedAfter', () => {
    const attachments = pullTargets(contractFor('B')).filter((t) => t.resource === 'attachment');
    expect(attachments).toEqual([
      { resource: 'attachment', filter: '', timeParam: 'createdAfter' },
      { resource: 'attachment', filter: 'archived', timeParam: 'archivedAfter' },
    ]);
  });

  it('window master data by updatedAfter, documents by createdAfter, regions not at all', () => {
    const all = pullTargets(contractFor('B'));
    expect(all.find((t) => t.resource === 'doctor')?.timeParam).toBe('updatedAfter');
    expect(all.find((t) => t.resource === 'document')?.timeParam).toBe('createdAfter');
    expect(all.find((t) => t.resource === 'region')).toEqual({
      resource: 'region',
      filter: '',
      readAlone: true,
    });
  });

  it('know which lists a hand-over can do without: patients and articles are read alone, care arrangements not', () => {
    for (const variant of ['A', 'B', 'C'] as const) {
      const alone = (resource: string) =>
        pullTargets(contractFor(variant))
          .filter((t) => t.resource === resource)
          .map((t) => t.readAlone === true);
      expect(alone('patient')).toEqual([true]);
      expect(new Set(alone('article'))).toEqual(new Set([true]));
      expect(new Set(alone('integratedCare'))).toEqual(new Set([false]));
    }
  });

  // Spec document 2: "`GET /patient`: list; query parameters: not shown." — the same for the
  // ERP order, product group and contract lists, whose updatedAfter is our guess.
  it('mark updatedAfter as guessed where the spec shows no parameters for the list', () => {
    const guessed = (variant: 'A' | 'B') =>
      pullTargets(contractFor(variant))
        .filter((t) => t.timeParamGuessed === true)
        .map((t) => t.resource);
    expect(guessed('B')).toEqual(['patient', 'erpOrder', 'productGroup']);
    expect(guessed('A')).toEqual(['patient', 'contractArticleGroup', 'insuranceContract']);
  });

  it('leave out disabled resources and unwanted statuses', () => {
    const chosen = names('B', {
      singleOrder: { enabled: true, statuses: ['created', 'updated'] },
      doctor: { enabled: false },
    });
    expect(chosen.filter((n) => n.startsWith('singleOrder'))).toEqual([
      'singleOrder?status=created',
      'singleOrder?status=updated',
    ]);
    expect(chosen).not.toContain('doctor');
  });

  it('pull what an order refers to before the order, the rest in the contract order', () => {
    for (const variant of ['A', 'B', 'C'] as const) {
      const resources = [...new Set(names(variant).map((name) => name.split('?')[0]))];
      const at = (resource: string) => resources.indexOf(resource);
      for (const order of ['singleOrder', 'directOrder', 'integratedCare']) {
        expect(at('patient'), variant).toBeLessThan(at(order));
        expect(at('article'), variant).toBeLessThan(at(order));
      }
      expect(at('integratedCare'), variant).toBeLessThan(at('singleOrder'));
      expect(resources.slice(0, 2), variant).toEqual(['patient', 'patientNote']);
      expect(resources.at(-1), variant).toBe('document');
    }
  });
});

describe('referenceWaves', () => {
  it('puts side by side what refers to nothing not yet pulled, and each order after its references', () => {
    expect(
      referenceWaves(['patient', 'article', 'integratedCare', 'singleOrder', 'directOrder']),
    ).toEqual([['patient', 'article'], ['integratedCare', 'directOrder'], ['singleOrder']]);
  });

  it('ignores references to resources not pulled', () => {
    expect(referenceWaves(['singleOrder', 'region'])).toEqual([['singleOrder', 'region']]);
    expect(referenceWaves(['integratedCare', 'singleOrder'])).toEqual([
      ['integratedCare'],
      ['singleOrder'],
    ]);
  });
});
