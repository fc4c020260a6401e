import { relative } from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { isVariant, type Variant } from '../../contract/index.js';
import type { RunningDemo } from '../../demo/index.js';
import { systemClock } from '../../shared/clock.js';
import { importDevOnly } from '../devOnly.js';
import { CliExit, EXIT } from '../exit.js';
import type { ConfigOption } from '../options.js';
import { signalled } from '../signals.js';
import { FORCE_EXIT_MS } from './run.js';

const DEMO_CONFIG = 'config/demo.yaml';

interface DemoCliFlags extends ConfigOption {
  variant?: string;
  port?: string;
}

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535) {
    throw new CliExit(EXIT.usage, `--port must be a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function variantOf(value: string | undefined): Variant | undefined {
  if (value === undefined || isVariant(value)) return value;
  throw new CliExit(EXIT.usage, `--variant must be A, B or C, got "${value}"`);
}

/** The few plain lines that tell a first-time user where everything is. */
function whereThingsAre(demo: RunningDemo, cwd: string): string {
  const shown = (path: string) => relative(cwd, path) || '.';
  const { config } = demo;
  // /healthz, /readyz and /metrics are public (a probe or Prometheus sends no token); only the
  // ERP's routes need it, so the banner names the token beside those.
  const token =
    config.http.token === undefined
      ? ''
      : `; POST /erp/<kind> with bearer token ${config.http.token}`;
  return [
    `homecare-sync demo, platform variant ${config.platform.variant}`,
    `  platform simulator  ${demo.simulator.url}  (API key ${config.platform.apiKey}; control API ${demo.simulator.url}/__sim, token ${demo.simulator.controlToken})`,
    `  daemon endpoint     ${demo.daemonUrl ?? 'off (http.enabled: false)'}${demo.daemonUrl ? `  /healthz /readyz /metrics (no token)${token}` : ''}`,
    `  ERP outbox          ${shown(config.erp.file.outbox)}  (orders the daemon hands to the ERP)`,
    `  ERP inbox           ${shown(config.erp.file.inbox)}  (the stand-in ERP's answers; handled ones move to .archive)`,
    `  database            ${shown(config.storage.path)}`,
    'A stand-in ERP answers each new order (Processed, ERP order with tracking, Sent, Delivered);',
    'a stand-in platform user places a new order every 20 s. The daemon logs JSON lines on stdout.',
    'Ctrl-C to stop.',
    '',
  ].join('\n');
}

async function runDemo(flags: DemoCliFlags): Promise<void> {
  const variant = variantOf(flags.variant);
  const port = portOf(flags.port);
  const cwd = process.cwd();
  const path = flags.config ?? DEMO_CONFIG;
  const { config } = loadConfig({ path, env: process.env, cwd });
  const say = (line: string) => void process.stderr.write(`${line}\n`);
  const { startDemo } = await importDevOnly('demo', () => import('../../demo/index.js'));
  const demo = await startDemo({
    config,
    source: path,
    cwd,
    clock: systemClock,
    env: process.env,
    say,
    ...(variant === undefined ? {} : { variant }),
    ...(port === undefined ? {} : { port }),
  });
  if (demo.cleared.length > 0) say(`started fresh: removed the data of the last demo run`);
  process.stderr.write(whereThingsAre(demo, cwd));
  const { signal, dispose } = signalled();
  const reason = await Promise.race([
    signal,
    demo.stopped.then(() => 'database deleted or replaced'),
  ]);
  dispose();
  say(`stopping (${reason})`);
  const force = setTimeout(() => {
    say('the demo did not stop within 30 s; exiting');
    process.exit(EXIT.failure);
  }, FORCE_EXIT_MS);
  force.unref();
  await demo.stop();
  say('demo stopped');
}

/** `demo`: everything local, for a first look (`npm start`). */
export function demoCommand(): Command {
  // Not commandWithConfig: the demo has a config of its own and ignores $HOMECARE_SYNC_CONFIG,
  // which on an installed system names the real configuration.
  return new Command('demo')
    .description(
      'run the platform simulator, the daemon, a file-drop ERP and a stand-in ERP that answers, all locally',
    )
    .option('-c, --config <file>', `the demo's YAML config file (default: ${DEMO_CONFIG})`)
    .option('--variant <v>', "A | B | C (default: the config's platform.variant)")
    .option('--port <n>', 'port of the simulator (default: the port of platform.baseUrl, 8455)')
    .action(runDemo);
}
