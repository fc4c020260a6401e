import { readFile } from 'node:fs/promises';

/** What the kernel counted for one process: its CPU time and the highest resident memory. */
export interface ProcessStats {
  cpuSeconds: number;
  peakRssBytes: number;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ), 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;

/**
 * Reads /proc/<pid>: user plus system CPU seconds (fields 14 and 15 of stat, counted after the
 * command name, which may hold spaces) and VmHWM, the peak resident set. Call it while the
 * process still runs; undefined where there is no /proc.
 */
export async function processStats(pid: number): Promise<ProcessStats | undefined> {
  try {
    const [stat, status] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
    ]);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is stat's third field (state): utime and stime are the 14th and 15th.
    const ticks = Number(fields[11]) + Number(fields[12]);
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
    return { cpuSeconds: ticks / TICKS_PER_SECOND, peakRssBytes: Number(hwm ?? 0) * 1024 };
  } catch {
    return undefined;
  }
}
