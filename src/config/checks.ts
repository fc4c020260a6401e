import type { z } from 'zod';
import { contractFor, listStatusFilters } from '../contract/index.js';
import type { ParsedConfig } from './baseSchema.js';

/** Rules that span sections: what the configured variant offers, what the REST adapter needs. */
export function crossSectionChecks(config: ParsedConfig, ctx: z.RefinementCtx): void {
  variantChecks(config, ctx);
  restAdapterChecks(config, ctx);
  consoleChecks(config, ctx);
}

/** The console is served on the HTTP endpoint. */
function consoleChecks(config: ParsedConfig, ctx: z.RefinementCtx): void {
  if (!config.console.enabled || config.http.enabled) return;
  ctx.addIssue({
    code: 'custom',
    path: ['console', 'enabled'],
    message: 'the console is served on the HTTP endpoint: set http.enabled: true as well',
  });
}

function variantChecks(config: ParsedConfig, ctx: z.RefinementCtx): void {
  const { variant } = config.platform;
  const contract = contractFor(variant);
  for (const [name, settings] of Object.entries(config.sync.resources)) {
    if (settings === undefined) continue;
    const resource = name as keyof typeof config.sync.resources;
    const list = contract.find(resource, 'list');
    if (list === undefined) {
      if (settings.enabled === false) continue;
      const offered = contract.variantsOffering(resource, 'list');
      const where = offered.length > 0 ? `only variant ${offered.join(', ')}` : 'no variant';
      ctx.addIssue({
        code: 'custom',
        path: ['sync', 'resources', name],
        message: `variant ${variant} offers no list of ${name} (${where} does); remove it or set enabled: false`,
      });
      continue;
    }
    if (settings.statuses !== undefined && listStatusFilters(list).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['sync', 'resources', name, 'statuses'],
        message: `variant ${variant} lists ${name} without a status filter; remove statuses`,
      });
    }
  }
}

function restAdapterChecks(config: ParsedConfig, ctx: z.RefinementCtx): void {
  if (config.erp.adapter !== 'rest') return;
  if (!config.http.enabled) {
    ctx.addIssue({
      code: 'custom',
      path: ['http', 'enabled'],
      message: 'must be true when erp.adapter is rest: the ERP reports back to POST /erp/<kind>',
    });
  } else if (config.http.token === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['http', 'token'],
      message:
        'required when erp.adapter is rest: the bearer token the ERP sends to POST /erp/<kind> (or set http.tokenFile)',
    });
  }
}
