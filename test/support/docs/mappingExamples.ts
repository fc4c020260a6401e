import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { fileAdapterOptions } from '../../../src/deliver/adapter.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { createFileAdapter } from '../../../src/erp/outbound/file/index.js';
import type { InboxKinds } from '../../../src/erp/messages/index.js';
import { FakeClock } from '../fakeClock.js';
import { exampleOrder, secondExampleOrder } from './exampleOrders.js';

/** The German ERP's layout both ways (docs/readme/connect-your-erp.md). */
export const MAPPING_EXAMPLES = fileURLToPath(
  new URL('../../../docs/examples/mapping', import.meta.url),
);
export const GERMAN_ERP_CONFIG = join(MAPPING_EXAMPLES, 'german-erp.yaml');
export const GERMAN_ERP_STATUS = join(
  MAPPING_EXAMPLES,
  'inbox/orderStatus/Rueckmeldung_2026-03-03.csv',
);
/** Its delivery export: one ERP order over two rows, a line and a parcel each. */
export const GERMAN_ERP_DELIVERIES = join(
  MAPPING_EXAMPLES,
  'inbox/erpOrder/Lieferungen_2026-03-03.csv',
);

/** The example's `erp.file` settings, as a test rig takes them (without its folders). */
export function germanErpFileSettings(): Record<string, unknown> {
  const example = parse(readFileSync(GERMAN_ERP_CONFIG, 'utf8')) as {
    erp: { file: Record<string, unknown> };
  };
  // The rig gives its own folders.
  return Object.fromEntries(
    Object.entries(example.erp.file).filter(([key]) => key !== 'outbox' && key !== 'inbox'),
  );
}

/**
 * The example as a whole config in `folder` (a platform beside it, its folders in `folder`),
 * loaded as `config check` loads it: the inbox's mapping checked against `kinds`.
 */
export function germanErpConfig(folder: string, kinds: InboxKinds): Config {
  const config = {
    platform: { baseUrl: 'https://platform.example/api', apiKey: 'key-123', variant: 'B' },
    storage: { path: join(folder, 'sync.db') },
    erp: {
      adapter: 'file',
      file: {
        outbox: join(folder, 'outbox'),
        inbox: join(folder, 'inbox'),
        ...germanErpFileSettings(),
      },
    },
  };
  writeFileSync(join(folder, 'homecare-sync.yaml'), stringify(config));
  return loadConfig({ path: 'homecare-sync.yaml', env: {}, cwd: folder, inboxKinds: kinds }).config;
}

/** Writes the example's outbox file (both example orders, batch 57) below `outbox`. */
export async function writeGermanErpOutbox(config: Config, outbox: string): Promise<void> {
  const adapter = await createFileAdapter(
    { ...fileAdapterOptions(config), outbox },
    { clock: new FakeClock() },
  );
  const outcomes = await adapter.deliver([exampleOrder(), secondExampleOrder()], 57);
  await adapter.close();
  const failed = outcomes.find((outcome) => outcome.status !== 'delivered');
  if (failed !== undefined) throw new Error(`not written: ${JSON.stringify(failed)}`);
}
