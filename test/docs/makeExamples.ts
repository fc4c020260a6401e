/**
 * Rewrites the outbox examples of the docs (docs/examples/outbox, linked from
 * docs/readme/file-drop.md) with what the file adapter writes today: `npx tsx test/docs/makeExamples.ts`.
 * The old files go first, since the adapter never overwrites a file whose content changed.
 */
import { rm } from 'node:fs/promises';
import { OUTBOX_EXAMPLES, writeOutboxExamples } from './outboxExamples.js';

await rm(OUTBOX_EXAMPLES, { recursive: true, force: true });
await writeOutboxExamples(OUTBOX_EXAMPLES);
console.log(`written: ${OUTBOX_EXAMPLES}`);
