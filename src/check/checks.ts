import type { CheckContext } from './context.js';
import { inboxCheck, outboxCheck, restCheck } from './erp.js';
import { keyCheck } from './key.js';
import { clockCheck } from './clock.js';
import { databaseCheck, diskCheck } from './local.js';
import { dnsCheck, proxyCheck, tcpCheck, tlsCheck } from './reach.js';
import { readChecks } from './reads.js';
import type { CheckDefinition } from './runner.js';
import { tenantCheck } from './tenant.js';
import { variantCheck } from './variant.js';

/**
 * Every check of a config, in the order they run and print: reaching the platform, the key,
 * its clock, variant and tenant, each resource the daemon pulls, the ERP, the local store.
 */
export function checksFor(context: CheckContext): CheckDefinition<CheckContext>[] {
  const erp = context.config.erp.adapter === 'file' ? [outboxCheck, inboxCheck] : [restCheck];
  return [
    proxyCheck,
    dnsCheck,
    tcpCheck,
    tlsCheck,
    keyCheck,
    clockCheck,
    variantCheck,
    tenantCheck,
    ...readChecks(context.targets),
    ...erp,
    databaseCheck,
    diskCheck,
  ];
}
