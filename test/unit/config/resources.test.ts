import { describe, expect, it } from 'vitest';
import {
  defaultSchedule,
  effectiveResourceSettings,
  loadConfig,
  type Config,
} from '../../../src/config/index.js';
import { contractFor, type Variant } from '../../../src/contract/index.js';
import { useTempDir } from '../../support/config/tempDir.js';

const dir = useTempDir();

async function configFor(variant: Variant, resourcesYaml = ''): Promise<Config> {
  await dir.write(
    'config.yaml',
    `platform: { baseUrl: "https://p.example", apiKey: k, variant: ${variant} }\n${resourcesYaml}`,
  );
  return loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() }).config;
}

function settingsOf(config: Config) {
  const all = effectiveResourceSettings(config, contractFor(config.platform.variant));
  return new Map(all.map((s) => [s.resource, s]));
}

describe('defaultSchedule', () => {
  it('pulls orders every minute, their dependencies every five minutes, the rest hourly', () => {
    expect(defaultSchedule('singleOrder')).toBe('*/1 * * * *');
    expect(defaultSchedule('directOrder')).toBe('*/1 * * * *');
    for (const resource of ['patient', 'patientNote', 'integratedCare', 'erpOrder'] as const) {
      expect(defaultSchedule(resource)).toBe('*/5 * * * *');
    }
    expect(defaultSchedule('article')).toBe('0 * * * *');
    expect(defaultSchedule('region')).toBe('0 * * * *');
  });
});

describe('effectiveResourceSettings', () => {
  it('covers exactly the lists the variant offers', async () => {
    const a = settingsOf(await configFor('A'));
    const b = settingsOf(await configFor('B'));
    expect(a.has('erpOrder')).toBe(false);
    expect(b.has('erpOrder')).toBe(true);
    expect(a.has('contractArticleGroup')).toBe(true);
    expect(b.has('contractArticleGroup')).toBe(false);
    expect(a.has('device')).toBe(false);
  });

  it('fills defaults: enabled, the default schedule, every status filter the list takes', async () => {
    const b = settingsOf(await configFor('B'));
    expect(b.get('singleOrder')).toEqual({
      resource: 'singleOrder',
      enabled: true,
      schedule: '*/1 * * * *',
      statuses: ['created', 'transmitted', 'updated', 'archived'],
    });
    expect(b.get('patient')).toEqual({
      resource: 'patient',
      enabled: true,
      schedule: '*/5 * * * *',
      statuses: [],
    });
  });

  it('gives article status filters only in B and users status filters only in C', async () => {
    const a = settingsOf(await configFor('A'));
    const b = settingsOf(await configFor('B'));
    const c = settingsOf(await configFor('C'));
    expect(a.get('article')?.statuses).toEqual([]);
    expect(b.get('article')?.statuses).toEqual(['created', 'updated', 'archived']);
    expect(c.get('article')?.statuses).toEqual([]);
    expect(b.get('users')?.statuses).toEqual([]);
    expect(c.get('users')?.statuses).toEqual(['active', 'archived']);
  });

  it('takes the configured schedule, enabled flag and statuses over the defaults', async () => {
    const c = settingsOf(
      await configFor(
        'C',
        `sync:
  resources:
    directOrder: { schedule: "*/3 * * * *", statuses: [created, archived] }
    region: { enabled: false }
`,
      ),
    );
    expect(c.get('directOrder')).toEqual({
      resource: 'directOrder',
      enabled: true,
      schedule: '*/3 * * * *',
      statuses: ['created', 'archived'],
    });
    expect(c.get('region')).toMatchObject({ enabled: false, schedule: '0 * * * *' });
  });
});
