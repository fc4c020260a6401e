import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFor, VARIANTS, type Variant } from '../../../src/contract/index.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

/**
 * The spec's "Methods per variant" table and endpoint sections, written out once by hand as an
 * independent oracle: `METHOD path`, `{id}` for single-item paths.
 */
const MASTER = ['doctor', 'payer', 'hospital', 'nursingHome', 'nursingService', 'pharmacy'];
const COMMON = [
  'GET /patient',
  'GET /patient/{id}',
  'POST /patient',
  'GET /patientNote',
  'POST /patientNote',
  'PATCH /patientNote/{id}',
  'GET /singleOrder',
  'PATCH /singleOrder/{id}',
  'GET /directOrder',
  'PATCH /directOrder/{id}',
  'GET /integratedCare',
  'POST /erpOrder',
  'PUT /erpOrder/{id}',
  'GET /article',
  'GET /article/{id}',
  'POST /article',
  'PUT /article/{id}',
  ...MASTER.flatMap((r) => [`GET /${r}`, `GET /${r}/{id}`]),
  'GET /region',
  'GET /region/{id}',
  'GET /users',
  'GET /users/{id}',
  'GET /postalCode',
  'GET /postalCode/{id}',
  'GET /attachment',
  'POST /device',
  'PUT /device/{id}',
  'GET /document',
  'GET /document/{id}',
];
const ORACLE: Record<Variant, string[]> = {
  A: [
    ...COMMON,
    'PUT /patient/{id}',
    'GET /patientHistory',
    'POST /integratedCare',
    'PATCH /integratedCare/{id}',
    'PATCH /article/{id}',
    'GET /contractArticleGroup',
    'POST /contractArticleGroup',
    'PUT /contractArticleGroup/{id}',
    'GET /insuranceContract',
    'POST /insuranceContract',
    'PUT /insuranceContract/{id}',
  ],
  B: [
    ...COMMON,
    'PATCH /patient/{id}',
    'GET /patientHistory',
    'POST /integratedCare',
    'PATCH /integratedCare/{id}',
    'GET /erpOrder',
    'GET /erpOrder/{id}',
    'POST /attachment',
    'GET /device/{id}',
    'GET /productGroup',
    'GET /productGroup/{id}',
    'POST /productGroup',
    'PATCH /productGroup/{id}',
  ],
  C: [
    ...COMMON,
    'PUT /patient/{id}',
    'GET /patient/customerMapping',
    'GET /erpOrder',
    'GET /erpOrder/{id}',
    'GET /attachment/{id}',
  ],
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Every path any variant has, for the requests a variant must refuse. */
const ALL_PATHS = [
  ...new Set(VARIANTS.flatMap((v) => ORACLE[v].map((e) => e.split(' ')[1] ?? ''))),
];

const concrete = (path: string): string => path.replace('{id}', 'no-such-id');

describe.each(VARIANTS)('variant %s', (variant) => {
  let sim: TestSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ variant });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('the contract lists exactly the methods of the spec table', () => {
    const derived = contractFor(variant).operations.map((o) => `${o.method} ${o.pathTemplate}`);
    expect([...new Set(derived)].sort()).toEqual([...ORACLE[variant]].sort());
  });

  it('answers every listed method (never 404 for the path, never 405)', async () => {
    for (const entry of ORACLE[variant]) {
      const [method = '', path = ''] = entry.split(' ');
      const body = method === 'GET' ? undefined : {};
      const answer = await api(sim, method, concrete(path), { body });
      expect(answer.status, entry).not.toBe(405);
      expect((answer.json as { error?: string }).error, entry).not.toBe('unknown_path');
    }
  });

  it('refuses every unlisted method with 404 or 405', async () => {
    for (const path of ALL_PATHS) {
      // In A and B /patient/customerMapping is simply GET /patient/{id} of an unknown id.
      if (variant !== 'C' && path === '/patient/customerMapping') continue;
      for (const method of METHODS) {
        if (ORACLE[variant].includes(`${method} ${path}`)) continue;
        // PUT /device takes its id as the query parameter `id` too (spec document 2, Device).
        if (`${method} ${path}` === 'PUT /device') continue;
        const listedAsItem = ORACLE[variant].includes(`${method} /patient/{id}`);
        if (path === '/patient/customerMapping' && listedAsItem) continue;
        const answer = await api(sim, method, concrete(path));
        expect([404, 405], `${method} ${path}`).toContain(answer.status);
        if (answer.status === 404) {
          expect((answer.json as { error?: string }).error, `${method} ${path}`).toBe(
            'unknown_path',
          );
        } else {
          expect(answer.headers.get('allow'), `${method} ${path}`).toBeTruthy();
        }
      }
    }
  });

  it('answers PUT, PATCH and DELETE on /attachment with 405 and an Allow header', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await api(sim, method, '/attachment');
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toContain('GET');
    }
  });
});
