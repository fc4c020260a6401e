import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * Runs `work`, with a CPU profile of this process written to `folder/<name>.cpuprofile` when
 * `folder` is set (read it with `npx tsx bench/profileSummary.ts`). Unlike `node --cpu-prof`, it
 * covers only the part of a benchmark that is measured, not the set-up around it.
 */
export async function profiled<T>(
  folder: string | undefined,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  if (folder === undefined) return work();
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(folder, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    session.disconnect();
  }
}
