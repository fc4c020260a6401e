/**
 * The file inbox's throughput: one status export of 10,000 rows in the German ERP's layout
 * (docs/examples/mapping: `;`, Windows-1252, each row an order of the mirror named by its `_id`)
 * read, checked, kept and queued by the daemon's own inbox and store (createApp, one scan), on
 * a fresh database each round. Printed as rows per second, the median of the rounds.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { transaction, upsertMirror } from '../src/store/index.js';
import { writeAppConfig } from '../test/support/appConfig.js';
import { germanErpFileSettings } from '../test/support/docs/mappingExamples.js';
import { openApp } from './support/appConfig.js';
import type { Benchmark } from './support/benchmark.js';
import { count, rate, seconds } from './support/format.js';
import { withTempFolder } from './support/tempFolder.js';

const ROWS = 10_000;
const ROUNDS = 5;
const HEADER = 'Shop-Auftrag;Belegnummer;Status;Sendungsnummer;Tracking-Link;Bemerkung';
const STATUS_WORDS = ['Uebermittelt', 'Versendet', 'Zugestellt'];

const orderId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function statusExport(): Buffer {
  const rows = [HEADER];
  for (let n = 0; n < ROWS; n++) {
    const word = STATUS_WORDS[n % STATUS_WORDS.length] ?? 'Versendet';
    const parcel =
      word === 'Uebermittelt'
        ? ';'
        : `0034043416${String(n).padStart(10, '0')};https://tracking.example.com/?nr=${n}`;
    rows.push(
      `${orderId(n)};VK-2026-${String(n).padStart(6, '0')};${word};${parcel};Übergabe an Nachbarn`,
    );
  }
  return iconv.encode(`${rows.join('\r\n')}\r\n`, 'windows-1252');
}

/** One round: a fresh database with the orders, the file dropped, one scan timed. */
async function round(folder: string, bytes: Buffer): Promise<number> {
  const { configPath, inbox } = writeAppConfig(
    folder,
    'http://127.0.0.1:9',
    'B',
    {},
    {},
    germanErpFileSettings(),
  );
  const app = await openApp(configPath, folder);
  try {
    transaction(app.store, () => {
      for (let n = 0; n < ROWS; n++) {
        const record = { _id: orderId(n), status: 1, timestamp: '2026-03-01T08:00:00.000Z' };
        upsertMirror(app.store, 'singleOrder', record, record.timestamp);
      }
    });
    mkdirSync(join(inbox, 'orderStatus'), { recursive: true });
    writeFileSync(join(inbox, 'orderStatus', 'Rueckmeldung.csv'), bytes);
    writeFileSync(join(inbox, 'orderStatus', 'Rueckmeldung.csv.done'), '');
    if (app.inbox === undefined) throw new Error('inbox: the config has no file inbox');
    const started = performance.now();
    const report = await app.inbox.scanOnce();
    const ms = performance.now() - started;
    const [file] = report.files;
    const accepted = file !== undefined && 'accepted' in file ? file.accepted : 0;
    if (accepted !== ROWS) {
      throw new Error(
        `inbox: ${accepted} of ${ROWS} rows accepted (${JSON.stringify(file).slice(0, 400)})`,
      );
    }
    return ms;
  } finally {
    await app.close();
  }
}

export const inboxBenchmark: Benchmark = {
  name: 'inbox',
  description: `a status export of ${count(ROWS)} rows in the German ERP's layout, read, kept and queued in one scan (${ROUNDS} rounds)`,
  run: async (print) => {
    const bytes = statusExport();
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const ms = await withTempFolder((folder) => round(folder, bytes));
      times.push(ms);
      print(`round ${r + 1}: ${seconds(ms)}, ${rate(ROWS, ms)}`);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
    return `${count(ROWS)}-row status file: ${rate(ROWS, median)} (median of ${ROUNDS}, ${seconds(median)})`;
  },
};
