import type { OutboxFormat } from '../erp/mapping/spec.js';
import { archivalFolderOf } from '../erp/outbound/file/archivalEvents.js';
import { isBatchFormat } from '../erp/outbound/file/index.js';
import { batchBaseName, recordBaseName, safeSegment } from '../erp/outbound/file/names.js';

/** One hand-over of a record version (or of its archival event) to the ERP. */
export interface HandedVersion {
  resource: string;
  id: string;
  version: string;
  archival: boolean;
  /** The batch its job was handed over in (a batch file's number), when the queue still knows. */
  batch: number | undefined;
}

/**
 * What the ERP got at a hand-over, as the words that follow "handed … to the ERP": the outbox
 * file (` as singleOrder/<file>.json`, ` in singleOrder/singleOrder_0000000042.csv`) or the
 * REST request (restHandOvers.ts). Named as the config names them now: the adapter's names are
 * fixed by the record's `_id`, its version and the batch (erp/outbound/file/names.ts).
 */
export type HandOverNaming = (handed: HandedVersion) => string;

/** Say nothing of where a version went (a timeline read without the config). */
export const UNNAMED: HandOverNaming = () => '';

/** The file drop's names, for `erp.file.format` (erp/outbound/file/). */
export function fileHandOvers(format: OutboxFormat): HandOverNaming {
  return (handed) => {
    const folder = safeSegment(handed.resource);
    const base = recordBaseName(handed.id, handed.version);
    // archivalFileName's name, in the archival events' folder below the outbox.
    if (handed.archival)
      return ` as ${archivalFolderOf('', handed.resource)}/${base}.archived.json`;
    if (!isBatchFormat(format)) return ` as ${folder}/${base}.${format}`;
    if (handed.batch === undefined) {
      return ` in a batch file of ${folder} (its job, which kept the number, is past retention)`;
    }
    return ` in ${folder}/${batchBaseName(handed.resource, handed.batch)}.${format}`;
  };
}
