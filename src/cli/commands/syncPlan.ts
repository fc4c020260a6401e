import type { DryRunReport, PlannedHandOver, PlannedPlatformWrite } from '../../app/dryRun.js';
import { maskPersonal } from '../../log/index.js';

/** `sync --dry-run`'s report as text: per resource what goes to the ERP, then the writes. */

function handOverLine(handOver: PlannedHandOver): string {
  const what = handOver.archival ? 'archival event of version' : 'version';
  const refused = handOver.refused === undefined ? '' : `; refused: ${handOver.refused}`;
  return `    ${handOver.id} ${what} ${handOver.version} -> ${handOver.target}${refused}`;
}

/** Each resource pulled or handed over, with its new versions and what goes to the ERP. */
function resourceLines(report: DryRunReport): string[] {
  const fresh = new Map<string, number>();
  const failed = new Map<string, string>();
  for (const pull of report.pass.pulls) {
    fresh.set(pull.resource, (fresh.get(pull.resource) ?? 0) + pull.fresh);
    if (!pull.ok) failed.set(pull.resource, pull.error ?? 'failed');
  }
  const resources = new Set<string>([...fresh.keys(), ...report.handOvers.map((h) => h.resource)]);
  return [...resources].flatMap((resource) => {
    const handOvers = report.handOvers.filter((h) => h.resource === resource);
    const pull = failed.has(resource) ? `; pull failed: ${failed.get(resource)}` : '';
    return [
      `  ${resource}: ${fresh.get(resource) ?? 0} new record version(s) pulled, ${handOvers.length} to the ERP${pull}`,
      ...handOvers.map(handOverLine),
    ];
  });
}

/** The requests a write would make, bodies with personal fields masked as in the log. */
function writeLines(write: PlannedPlatformWrite): string[] {
  const head = `  ${write.kind} ${write.entityKey}`;
  const requests = write.requests.map((request) => {
    const body = JSON.stringify(maskPersonal(request.body));
    return 'refused' in request
      ? `    refused: ${request.refused}`
      : `    ${request.method} ${request.path} ${body}`;
  });
  const notes = write.notes.map((note) => `    (${note})`);
  return [
    head,
    ...requests,
    ...(requests.length === 0 && notes.length === 0 ? ['    nothing'] : []),
    ...notes,
  ];
}

function waitingLines(report: DryRunReport): string[] {
  const { undelivered, refused } = report.pass.delivery;
  const lines: string[] = [];
  if (undelivered > 0) {
    lines.push(
      `not handed over yet: ${undelivered} version(s) would wait (their next try or a missing reference)`,
    );
  }
  if (refused > 0) lines.push(`in the dead letters: ${refused} version(s) the ERP refused before`);
  return lines;
}

export function dryRunText(report: DryRunReport): string {
  const writes = report.platformWrites.flatMap(writeLines);
  return [
    'sync --dry-run: pulled and mapped on a copy of the database, since removed: nothing was handed to the ERP, nothing written to the platform, no checkpoint moved',
    'to the ERP, per resource:',
    ...resourceLines(report),
    `to the platform (${report.platformWrites.length} queued write(s), planned from the database as it stood before them):`,
    ...(writes.length === 0 ? ['  nothing'] : writes),
    ...waitingLines(report),
    'the inbox was not read (reading moves its files); `homecare-sync inbox check <file>` shows what a file would write',
  ]
    .join('\n')
    .concat('\n');
}
