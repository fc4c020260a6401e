/**
 * Rewrites the outbox examples of the docs (docs/examples/outbox, linked from
 * docs/readme/file-drop.md, and docs/examples/mapping/outbox, linked from
 * docs/readme/connect-your-erp.md) with what the file adapter writes today:
 * `npx tsx test/support/docs/makeExamples.ts`.
 * The old files go first, since the adapter never overwrites a file whose content changed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inboxKinds } from '../../../src/erp/messages/index.js';
import { PUSH_BACK_KINDS } from '../../../src/pushback/index.js';
import { germanErpConfig, MAPPING_EXAMPLES, writeGermanErpOutbox } from './mappingExamples.js';
import { OUTBOX_EXAMPLES, writeOutboxExamples } from './outboxExamples.js';

await rm(OUTBOX_EXAMPLES, { recursive: true, force: true });
await writeOutboxExamples(OUTBOX_EXAMPLES);
console.log(`written: ${OUTBOX_EXAMPLES}`);

const mappedOutbox = join(MAPPING_EXAMPLES, 'outbox');
const folder = await mkdtemp(join(tmpdir(), 'homecare-examples-'));
await rm(mappedOutbox, { recursive: true, force: true });
await writeGermanErpOutbox(germanErpConfig(folder, inboxKinds(PUSH_BACK_KINDS)), mappedOutbox);
await rm(folder, { recursive: true, force: true });
console.log(`written: ${mappedOutbox}`);
