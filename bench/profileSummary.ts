/**
 * `npx tsx bench/profileSummary.ts <file.cpuprofile> [function]`: the self time of a CPU profile
 * (node --cpu-prof, or BENCH_CYCLE_PROFILE) by function and by file or package; with a function
 * name, also the time spent in it (with what it calls) by its three nearest callers; and the
 * time of each function of a script with everything it calls. Time the
 * main thread waits in a synchronous call (a SQLite commit and its fsync) counts to that call.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const TOP = 25;

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'npm:')
    .replace(new RegExp(`^${process.cwd()}/`), '');
}

function fileOf(url: string, functionName: string): string {
  if (url === '') return functionName;
  if (!url.startsWith('npm:')) return url;
  return url
    .split('/')
    .slice(0, url.startsWith('npm:@') ? 2 : 1)
    .join('/');
}

function top(totals: Map<string, number>, all: number): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(
      ([name, us]) =>
        `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / all).toFixed(1).padStart(5)} %  ${name}`,
    )
    .join('\n');
}

function add(totals: Map<string, number>, key: string, us: number): void {
  totals.set(key, (totals.get(key) ?? 0) + us);
}

function summarize(profile: Profile, focus: string | undefined): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const all = [...self.values()].reduce((sum, us) => sum + us, 0);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byCaller = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const nameOf = (frame: ProfileNode['callFrame']) =>
    `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    const url = shortUrl(frame.url);
    add(byFunction, nameOf(frame), us);
    // Every function on the stack once, however often it recurs: its time with its callees.
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const caller = byId.get(at)?.callFrame;
      if (caller !== undefined && caller.url !== '') onStack.add(nameOf(caller));
    }
    onStack.forEach((name) => add(inclusive, name, us));
    add(byFile, fileOf(url, frame.functionName), us);
    if (focus === undefined) continue;
    // The outermost frame of `focus` on this sample's stack, and the three frames above it.
    let outer: number | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (byId.get(at)?.callFrame.functionName === focus) outer = at;
    }
    if (outer === undefined) continue;
    const callers: string[] = [];
    for (let at = parent.get(outer); at !== undefined && callers.length < 3; at = parent.get(at)) {
      callers.push(byId.get(at)?.callFrame.functionName || '(anonymous)');
    }
    add(byCaller, `${focus} < ${callers.join(' < ')}`, us);
  }
  const idle = byFile.get('(idle)') ?? 0;
  const parts = [
    `total ${(all / 1e6).toFixed(2)} s, of which not idle ${((all - idle) / 1e6).toFixed(2)} s`,
    `-- self time by function\n${top(byFunction, all)}`,
    `-- self time by file or package\n${top(byFile, all)}`,
    `-- time with callees, by function of a script\n${top(inclusive, all)}`,
  ];
  if (focus !== undefined) parts.push(`-- time in ${focus} by caller\n${top(byCaller, all)}`);
  return parts.join('\n');
}

const [file, focus] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: npx tsx bench/profileSummary.ts <file.cpuprofile> [function]');
  process.exit(2);
}
console.log(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, focus));
