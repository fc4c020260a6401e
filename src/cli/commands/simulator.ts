import type { Command } from 'commander';
import { isVariant, type Variant } from '../../contract/index.js';
import type { ApiKeyEntry } from '../../simulator/index.js';
import {
  DEFAULT_LOOP_SUPPRESSION,
  isLoopSuppression,
  LOOP_SUPPRESSIONS,
  type LoopSuppression,
} from '../../simulator/loopSuppression.js';
import { importDevOnly } from '../devOnly.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig } from '../options.js';
import { signalled } from '../signals.js';

interface SimulatorFlags {
  port: string;
  host: string;
  variant: string;
  seed: string;
  keys?: string;
  controlToken: string;
  articles?: string;
  patients?: string;
  loopSuppression: string;
}

function wholeNumber(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) {
    throw new CliExit(EXIT.usage, `${flag} must be a whole number of 0 or more, got "${value}"`);
  }
  return number;
}

function variantOf(value: string): Variant {
  if (!isVariant(value))
    throw new CliExit(EXIT.usage, `--variant must be A, B or C, got "${value}"`);
  return value;
}

function loopSuppressionOf(value: string): LoopSuppression {
  if (isLoopSuppression(value)) return value;
  throw new CliExit(
    EXIT.usage,
    `--loop-suppression must be ${LOOP_SUPPRESSIONS.join(' or ')}, got "${value}"`,
  );
}

function sizesOf(flags: SimulatorFlags): { articles?: number; patients?: number } {
  return {
    ...(flags.articles === undefined
      ? {}
      : { articles: wholeNumber('--articles', flags.articles) }),
    ...(flags.patients === undefined
      ? {}
      : { patients: wholeNumber('--patients', flags.patients) }),
  };
}

async function runSimulator(flags: SimulatorFlags): Promise<void> {
  const { readKeysFile, startSimulator } = await importDevOnly(
    'simulator',
    () => import('../../simulator/index.js'),
  );
  const keys: ApiKeyEntry[] | undefined = flags.keys ? await readKeysFile(flags.keys) : undefined;
  const { signal, dispose } = signalled();
  const simulator = await startSimulator({
    variant: variantOf(flags.variant),
    loopSuppression: loopSuppressionOf(flags.loopSuppression),
    seed: wholeNumber('--seed', flags.seed),
    port: wholeNumber('--port', flags.port),
    host: flags.host,
    controlToken: flags.controlToken,
    sizes: sizesOf(flags),
    ...(keys ? { keys } : {}),
  });
  process.stdout.write(`listening on ${simulator.url}\n`);
  await signal;
  dispose();
  await simulator.close();
}

/** `simulator`: the platform simulator of every variant, for tests, the demo and acceptance. */
export function simulatorCommand(): Command {
  return commandWithConfig('simulator', 'run the platform simulator (every variant) locally')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8455')
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--variant <v>', 'A | B | C', 'B')
    .option('--seed <n>', 'seed of the generated data', '1')
    .option('--keys <file>', 'YAML list of API keys {key, tenant, client, attachments}')
    .option('--control-token <t>', 'token of the /__sim control API', 'demo-control')
    .option('--articles <n>', 'how many articles each tenant gets')
    .option('--patients <n>', 'how many patients each tenant gets')
    .option(
      '--loop-suppression <mode>',
      "next: a client's own change is left out of its next pull only; until-changed: until someone else changes the record",
      DEFAULT_LOOP_SUPPRESSION,
    )
    .action(runSimulator);
}
