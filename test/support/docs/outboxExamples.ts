import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
  type FileAdapterOptions,
} from '../../../src/erp/outbound/file/index.js';
import { DEFAULT_CSV_OPTIONS } from '../../../src/erp/formats/index.js';
import { FakeClock } from '../fakeClock.js';
import { exampleOrder, secondExampleOrder } from './exampleOrders.js';

/** Where the docs' outbox examples live, one folder per variant of the `erp.file` settings. */
export const OUTBOX_EXAMPLES = fileURLToPath(
  new URL('../../../docs/examples/outbox', import.meta.url),
);

/** The pull run the batch formats name their file after (the daemon numbers its runs). */
const BATCH = 57;

interface OutboxExample {
  folder: string;
  options: Omit<FileAdapterOptions, 'outbox'>;
  records: () => OutboundRecord[];
}

const GERMAN_CSV = {
  ...DEFAULT_CSV_OPTIONS,
  delimiter: ';',
  decimalComma: true,
  dateFormat: 'de' as const,
};

const EXAMPLES: readonly OutboxExample[] = [
  { folder: 'json', options: { ...DEFAULT_FILE_ADAPTER_OPTIONS, format: 'json' }, records: one },
  {
    folder: 'ndjson',
    options: { ...DEFAULT_FILE_ADAPTER_OPTIONS, format: 'ndjson' },
    records: () => [exampleOrder(), secondExampleOrder()],
  },
  {
    folder: 'csv',
    options: { ...DEFAULT_FILE_ADAPTER_OPTIONS, format: 'csv', csv: GERMAN_CSV },
    records: one,
  },
  { folder: 'xml', options: { ...DEFAULT_FILE_ADAPTER_OPTIONS, format: 'xml' }, records: one },
  {
    folder: 'opentrans',
    options: { ...DEFAULT_FILE_ADAPTER_OPTIONS, format: 'xml', openTrans: true },
    records: one,
  },
];

function one(): OutboundRecord[] {
  return [exampleOrder()];
}

/** Writes every outbox example under `root` with the real file adapter, as the daemon would. */
export async function writeOutboxExamples(root: string): Promise<void> {
  for (const example of EXAMPLES) {
    const outbox = join(root, example.folder);
    const adapter = await createFileAdapter(
      { ...example.options, outbox },
      { clock: new FakeClock() },
    );
    const outcomes = await adapter.deliver(example.records(), BATCH);
    await adapter.close();
    const failed = outcomes.find((outcome) => outcome.status !== 'delivered');
    if (failed !== undefined) {
      throw new Error(
        `the ${example.folder} outbox example was not written: ${JSON.stringify(failed)}`,
      );
    }
  }
}

/** Every file below `root`, by its path relative to `root` with `/` separators, and its bytes. */
export async function filesBelow(root: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = new Map<string, Buffer>();
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path).split(sep).join('/'), await readFile(path));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}
