/**
 * Rewrites the README's outbox examples (docs/examples/outbox) with what the file adapter writes
 * today: `npx tsx test/docs/makeExamples.ts`, then `python3 scripts/build-readme.py`.
 * The old files go first, since the adapter never overwrites a file whose content changed.
 */
import { rm } from 'node:fs/promises';
import { OUTBOX_EXAMPLES, writeOutboxExamples } from './outboxExamples.js';

await rm(OUTBOX_EXAMPLES, { recursive: true, force: true });
await writeOutboxExamples(OUTBOX_EXAMPLES);
console.log(`written: ${OUTBOX_EXAMPLES}`);
