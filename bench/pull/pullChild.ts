// The pull benchmark's child: one pullOnce, its figures sent to the parent (see pullProcess.ts).
import { isVariant } from '../../src/contract/index.js';
import { pullOnce } from './pullOnce.js';

const [url = '', variant = '', count = ''] = process.argv.slice(2);
const send = (message: unknown) =>
  new Promise<void>((resolve) => process.send?.(message, () => resolve()));
try {
  if (!isVariant(variant)) throw new Error(`not a variant: ${variant}`);
  await send({ figures: await pullOnce({ url }, variant, Number(count)) });
} catch (error) {
  await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
process.disconnect?.();
