import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { FORCE_EXIT_MS } from '../../../src/cli/commands/run.js';
import { loadConfig } from '../../../src/config/index.js';
import { Metrics } from '../../../src/http/metrics.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DEPLOY = join(ROOT, 'deploy');
const read = (path: string) => readFileSync(join(DEPLOY, path), 'utf8');
/** The placeholder base of every runbook_url; the operator replaces it (docs/operations.md). */
const RUNBOOK_BASE = 'https://homecare-sync.invalid/docs/';
/** Metrics Prometheus makes itself rather than reading them from the daemon. */
const FROM_PROMETHEUS = new Set(['up']);
const SERIES_SUFFIXES = ['', '_bucket', '_sum', '_count'];

type Manifest = { kind: string; metadata: { name: string } } & Record<string, unknown>;
const manifests = readdirSync(join(DEPLOY, 'kubernetes'))
  .filter((name) => name !== 'kustomization.yaml')
  .flatMap((name) =>
    parseAllDocuments(read(`kubernetes/${name}`)).map((d) => d.toJS() as Manifest),
  );
const manifest = (kind: string) => {
  const found = manifests.find((m) => m.kind === kind);
  if (!found) throw new Error(`no ${kind} in deploy/kubernetes`);
  return found;
};

interface Deployment {
  spec: {
    replicas: number;
    strategy: { type: string };
    template: {
      spec: {
        terminationGracePeriodSeconds: number;
        containers: {
          env: { name: string; value: string }[];
          ports: { name: string; containerPort: number }[];
          volumeMounts: { name: string; mountPath: string }[];
          [probe: string]: unknown;
        }[];
        volumes: {
          name: string;
          configMap?: { name: string };
          secret?: { secretName: string };
          persistentVolumeClaim?: { claimName: string };
        }[];
      };
    };
  };
}

/** The names of the metrics a PromQL expression reads. */
function metricsIn(expr: string): string[] {
  const selected = [...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g)].map((m) => m[1]);
  const bare = [...expr.matchAll(/\bhomecare_sync_[a-zA-Z0-9_:]*/g)].map((m) => m[0]);
  return [...new Set([...selected, ...bare])].filter((name): name is string => !!name);
}

/**
 * The set operators (`and`, `or`, `unless`) of a PromQL expression that name no labels to match
 * on, each with what follows it. Operators inside `{...}` or strings cannot occur in our rules
 * (their label values are plain words), so a word-level look suffices.
 */
function unmatchedSetOperators(expr: string): string[] {
  const flat = expr.replace(/\s+/g, ' ');
  return [...flat.matchAll(/\b(and|or|unless) (?!(?:on|ignoring) ?\()([^ ]+(?: [^ ]+){0,2})/g)].map(
    (m) => `${m[1] ?? ''} ${m[2] ?? ''}`,
  );
}

/** Every series name the daemon's /metrics can carry, read from the metrics module itself. */
async function exposedNames(): Promise<Set<string>> {
  const metrics = new Metrics(
    { version: '0.0.0', variant: 'B' },
    { queueByState: () => ({}), deadLetters: () => 0, undelivered: () => 0 },
  );
  const names = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);
  return new Set(names.flatMap((name) => SERIES_SUFFIXES.map((suffix) => name + suffix)));
}

function unknownMetrics(exprs: string[], exposed: Set<string>): string[] {
  return exprs
    .flatMap(metricsIn)
    .filter((name) => !exposed.has(name) && !FROM_PROMETHEUS.has(name));
}

describe('deploy/kubernetes', () => {
  const deployment = manifest('Deployment') as unknown as Deployment;
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  if (!container) throw new Error('the Deployment has no container');

  it('runs one replica, replaced by Recreate (one writer per database)', () => {
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe('Recreate');
  });

  it("gives a stop more time than the daemon's own stop limit", () => {
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(FORCE_EXIT_MS);
  });

  it('never lets a platform outage restart the pod or take it out of the Service', () => {
    const path = (probe: string) =>
      (container[probe] as { httpGet: { path: string } }).httpGet.path;
    expect(path('livenessProbe')).toBe('/healthz');
    expect(path('readinessProbe')).toBe('/readyz/inbound');
  });

  it('probes paths the daemon serves on the port it listens on', () => {
    const port = container.ports[0];
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
      const { httpGet } = container[probe] as { httpGet: { path: string; port: string } };
      expect(['/healthz', '/readyz', '/readyz/inbound']).toContain(httpGet.path);
      expect(httpGet.port).toBe(port?.name);
    }
  });

  it('mounts the ConfigMap, Secret and PVC the other manifests define', () => {
    const byKind = (kind: string) => manifest(kind).metadata.name;
    const volumes = pod.volumes;
    expect(volumes.map((v) => v.configMap?.name).filter(Boolean)).toEqual([byKind('ConfigMap')]);
    expect(volumes.map((v) => v.secret?.secretName).filter(Boolean)).toEqual([byKind('Secret')]);
    const claims = manifests.filter((m) => m.kind === 'PersistentVolumeClaim');
    expect(volumes.map((v) => v.persistentVolumeClaim?.claimName).filter(Boolean)).toEqual(
      claims.map((claim) => claim.metadata.name),
    );
    const kustomization = parse(read('kubernetes/kustomization.yaml')) as { resources: string[] };
    const files = readdirSync(join(DEPLOY, 'kubernetes')).filter((n) => n !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it('keeps the database on a ReadWriteOnce volume and shares the drop folders on a ReadWriteMany one', () => {
    // An ERP on another host reaches the drop folders only on a volume many nodes mount; SQLite
    // must stay on one host's file system (docs/operations.md, Kubernetes).
    const data = (manifest('ConfigMap') as unknown as { data: Record<string, string> }).data;
    const config = loadYaml(Object.values(data)[0] ?? '', {});
    const accessModesAt = (path: string) => {
      const mount = container.volumeMounts.find((m) => path.startsWith(`${m.mountPath}/`));
      const claimName = pod.volumes.find((v) => v.name === mount?.name)?.persistentVolumeClaim
        ?.claimName;
      const claim = manifests.find(
        (m) => m.kind === 'PersistentVolumeClaim' && m.metadata.name === claimName,
      ) as unknown as { spec: { accessModes: string[] } } | undefined;
      return claim?.spec.accessModes;
    };
    expect(accessModesAt(config.storage.path)).toEqual(['ReadWriteOnce']);
    expect(config.erp.adapter).toBe('file');
    expect(accessModesAt(config.erp.file.outbox)).toEqual(['ReadWriteMany']);
    expect(accessModesAt(config.erp.file.inbox)).toEqual(['ReadWriteMany']);
  });

  it('its config is valid and finds the secret, the volume and the port where they are mounted', () => {
    const data = (manifest('ConfigMap') as unknown as { data: Record<string, string> }).data;
    const [file, text] = Object.entries(data)[0] ?? [];
    const mounts = new Map(container.volumeMounts.map((m) => [m.name, m.mountPath]));
    const configPath = container.env.find((e) => e.name === 'HOMECARE_SYNC_CONFIG')?.value;
    expect(configPath).toBe(`${mounts.get('config')}/${file}`);
    const raw = parse(text ?? '') as { platform: { apiKeyFile: string } };
    expect(raw.platform.apiKeyFile.startsWith(`${mounts.get('secrets')}/`)).toBe(true);
    const config = loadYaml(text ?? '', {});
    expect(config.storage.path.startsWith(`${mounts.get('data')}/`)).toBe(true);
    expect(config.http).toMatchObject({ enabled: true, host: '0.0.0.0' });
    expect(container.ports[0]?.containerPort).toBe(config.http.port);
  });
});

/** The config `text` as homecare-sync loads it (secrets not read: they are mounted at run time). */
function loadYaml(text: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'homecare-deploy-'));
  try {
    const path = join(dir, 'homecare-sync.yaml');
    writeFileSync(path, text);
    return loadConfig({ path, env, cwd: dir, secrets: 'skip' }).config;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Compose {
  services: Record<
    string,
    {
      stop_grace_period: string;
      environment: Record<string, string>;
      volumes: string[];
      secrets: { source: string; target: string }[];
    }
  >;
  secrets: Record<string, { file: string }>;
}

describe('deploy/docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml')) as Compose;
  const service = compose.services['homecare-sync'];
  if (!service) throw new Error('no homecare-sync service');

  it("gives a stop more time than the daemon's own stop limit", () => {
    const seconds = /^(\d+)s$/.exec(service.stop_grace_period)?.[1];
    expect(Number(seconds) * 1000).toBeGreaterThan(FORCE_EXIT_MS);
  });

  it('mounts deploy/homecare-sync.yaml where HOMECARE_SYNC_CONFIG points, a valid config using the secret it mounts', () => {
    const configPath = service.environment['HOMECARE_SYNC_CONFIG'];
    expect(service.volumes).toContain(`./homecare-sync.yaml:${configPath}:ro`);
    const text = read('homecare-sync.yaml');
    const config = loadYaml(text, { HOMECARE_PLATFORM_URL: 'https://platform.example/api' });
    expect(config.storage.path.startsWith('/data/')).toBe(true);
    expect(service.volumes).toContain('data:/data');
    expect(config.http.host).toBe('0.0.0.0');
    const raw = parse(text) as { platform: { apiKeyFile: string } };
    expect(service.secrets.map((s) => s.target)).toContain(raw.platform.apiKeyFile);
  });
});

describe('monitoring', () => {
  interface Rule {
    alert: string;
    expr: string;
    annotations: { runbook_url: string };
  }
  const rules = (
    parse(read('prometheus/homecare-sync-rules.yml')) as { groups: { rules: Rule[] }[] }
  ).groups.flatMap((g) => g.rules);
  const dashboard = JSON.parse(read('grafana/homecare-sync-dashboard.json')) as {
    panels: { title: string; targets: { expr: string }[] }[];
  };
  const runbook = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

  it('the alert rules read only metrics the daemon exposes', async () => {
    expect(rules.length).toBeGreaterThan(0);
    expect(
      unknownMetrics(
        rules.map((r) => r.expr),
        await exposedNames(),
      ),
    ).toEqual([]);
  });

  it('the dashboard reads only metrics the daemon exposes', async () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(0);
    expect(unknownMetrics(exprs, await exposedNames())).toEqual([]);
  });

  it('every alert links, by an absolute URL, to its own section of the runbook', () => {
    // Absolute: the link is followed from Alertmanager, a chat or a mail, not from the repository.
    for (const rule of rules) {
      expect(rule.annotations.runbook_url).toBe(
        `${RUNBOOK_BASE}operations.md#${rule.alert.toLowerCase()}`,
      );
      expect(runbook).toMatch(new RegExp(`^### ${rule.alert}$`, 'm'));
    }
    // The runbook tells the operator how to replace the placeholder base.
    expect(runbook).toContain(RUNBOOK_BASE);
  });

  it('matches the two sides of every and/or/unless on named labels', () => {
    // Without on(...)/ignoring(...), series that differ in any label (result="failed" against
    // result="ok") never match, and `unless` suppresses nothing. promtool's unit test
    // (homecare-sync-rules.test.yml) proves the behaviour; this catches a new rule early.
    expect(rules.flatMap((r) => unmatchedSetOperators(r.expr))).toEqual([]);
    expect(unmatchedSetOperators('a > 0 unless b > 0')).toEqual(['unless b > 0']);
    expect(unmatchedSetOperators('a > 0 unless on(resource) b > 0')).toEqual([]);
  });

  it('catches a metric the daemon does not expose', async () => {
    expect(
      unknownMetrics(['rate(homecare_sync_pulls_total[5m]) > 0'], await exposedNames()),
    ).toEqual(['homecare_sync_pulls_total']);
  });
});
