import type { Config } from '../config/index.js';
import type { ErpAdapter } from '../erp/adapter.js';
import {
  createFileAdapter,
  fileModeOf,
  type FileAdapterOptions,
} from '../erp/outbound/file/index.js';
import type { RestAdapterOptions, RestAuth } from '../erp/outbound/rest/index.js';
import type { Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import { SetupError } from '../shared/errors.js';
import { raiseBatchNumbers, transaction, type Store } from '../store/index.js';
import { withoutUndefined } from '../shared/objects.js';

type RestConfig = NonNullable<Config['erp']['rest']>;

function restAuth(auth: RestConfig['auth']): RestAuth | undefined {
  if (auth === undefined) return undefined;
  // The config loader has read tokenFile/passwordFile into token/password already.
  if (auth.type === 'bearer') return { type: 'bearer', token: auth.token ?? '' };
  if (auth.type === 'basic')
    return { type: 'basic', username: auth.username ?? '', password: auth.password ?? '' };
  return { type: 'header', header: auth.header ?? '', value: auth.token ?? '' };
}

/** The file adapter's options as `erp.file` sets them. */
export function fileAdapterOptions(config: Config): FileAdapterOptions {
  const { outbox, format, openTrans, openTransParties, doneMarker, fileMode, csv } =
    config.erp.file;
  const { mapping, valueTables } = config.erp.file;
  const columns = withoutUndefined(csv.columns) as Record<string, readonly string[]>;
  return {
    outbox,
    format,
    openTrans,
    openTransParties,
    doneMarker,
    fileMode: fileModeOf(fileMode),
    csv: { ...csv, columns },
    mapping: withoutUndefined(mapping) as FileAdapterOptions['mapping'],
    valueTables,
  };
}

/** The REST adapter's options as `erp.rest` sets them. */
export function restAdapterOptions(config: Config): RestAdapterOptions {
  const rest = config.erp.rest;
  if (rest?.baseUrl === undefined) {
    throw new SetupError('erp.rest.baseUrl is required when erp.adapter is rest', [
      'erp.rest.baseUrl: required',
    ]);
  }
  const auth = restAuth(rest.auth);
  return {
    baseUrl: rest.baseUrl,
    timeoutMs: rest.timeoutMs,
    archivalEvents: rest.archivalEvents,
    resources: withoutUndefined(rest.resources),
    ...(auth ? { auth } : {}),
  };
}

/** The ERP adapter the config chooses; `beside` a running daemon (a reload), see prepare(). */
export async function createAdapter(
  config: Config,
  clock: Clock,
  logger: Logger,
  beside = false,
): Promise<ErpAdapter> {
  if (config.erp.adapter === 'file')
    return createFileAdapter(fileAdapterOptions(config), { clock, leaveTemps: beside });
  const options = restAdapterOptions(config);
  // Loaded only when the config chooses it, as the file adapter's XML and CSV writers are.
  const { createRestAdapter } = await import('../erp/outbound/rest/index.js');
  return createRestAdapter(options, { clock, logger });
}

/**
 * Numbers the next batches above every batch file the outbox holds: a database restored from a
 * backup would otherwise number them from where it stood then, and their names would sort before
 * (or meet) files already handed over. Run holding the writer lock, before the first hand-over.
 */
export function numberBatchesAboveOutbox(store: Store, adapter: ErpAdapter, logger: Logger): void {
  const highest = adapter.highestBatch;
  if (highest === undefined) return;
  const given = transaction(store, () => raiseBatchNumbers(store, highest));
  if (given === undefined) return;
  logger.warn(
    { highestInOutbox: highest, highestInDatabase: given },
    `the outbox holds batch files up to number ${highest}, the database gave out numbers up to ${given} only (restored from a backup?): new batches are numbered from ${highest + 1}, so their names sort after the files already there`,
  );
}
