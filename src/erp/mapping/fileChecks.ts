import type { z } from 'zod';
import { RESOURCE_NAMES, type ResourceName } from '../../contract/index.js';
import type { OutboxFormat } from '../outbound/file/options.js';
import { outboundProblems, type OutboundMappingSpec, type ValueTables } from './index.js';

/** What `erp.file` says that its outbound mappings are checked against. */
interface FileMappings {
  format: OutboxFormat;
  openTrans: boolean;
  mapping: Partial<Record<ResourceName, OutboundMappingSpec | undefined>>;
  valueTables: ValueTables;
  csv: { columns: Partial<Record<ResourceName, readonly string[] | undefined>> };
}

/** Orders openTRANS writes in its own layout (erp/file/formats.ts). */
const OPENTRANS_ORDERS: ReadonlySet<ResourceName> = new Set(['singleOrder', 'directOrder']);

/**
 * `erp.file.mapping.<resource>` against the resource's schema, the value tables and the format;
 * a mapping beside another layout for the same resource (openTRANS, `csv.columns`) is refused,
 * so one config never says two things of one file.
 */
export function fileMappingChecks(file: FileMappings, ctx: z.RefinementCtx): void {
  for (const resource of RESOURCE_NAMES) {
    const spec = file.mapping[resource];
    if (spec === undefined) continue;
    const at = ['mapping', resource];
    if (file.format === 'xml' && file.openTrans && OPENTRANS_ORDERS.has(resource)) {
      ctx.addIssue({
        code: 'custom',
        path: at,
        message: `openTrans writes ${resource} as openTRANS ORDER documents; remove this mapping or set openTrans: false`,
      });
    }
    if (file.csv.columns[resource] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: at,
        message: `csv.columns.${resource} chooses the columns too; keep one of them (a mapping can name the same columns)`,
      });
    }
    for (const problem of outboundProblems(resource, spec, file.format, file.valueTables)) {
      ctx.addIssue({ code: 'custom', path: [...at, ...problem.path], message: problem.message });
    }
  }
}
