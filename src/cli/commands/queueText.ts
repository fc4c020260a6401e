import type { PersonalValues } from '../../log/index.js';
import type { DeadLetter } from '../../store/index.js';
import type { JobDetails, JobListing } from '../../queue/index.js';

const ERROR_CHARS = 100;

/** One line per job, columns aligned; the last error cut to fit a terminal line. */
export function jobTable(jobs: readonly JobListing[]): string {
  const header = ['ID', 'KIND', 'ENTITY KEY', 'STATE', 'TRIES', 'NEXT ATTEMPT', 'LAST ERROR'];
  const rows = jobs.map((job) => [
    String(job.id),
    job.kind,
    job.entityKey,
    job.status,
    String(job.attempts),
    job.status === 'pending' ? job.nextAttemptAt : '-',
    shorten(oneLine(job.lastError ?? '-'), ERROR_CHARS),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}

/** When a pending job runs next, saying so when the other side's Retry-After set the time. */
function nextAttempt(job: JobDetails): string {
  const asked = job.retryAfterUntil !== undefined && job.retryAfterUntil >= job.nextAttemptAt;
  return asked
    ? `${job.nextAttemptAt} (its Retry-After; sync --once waits too)`
    : job.nextAttemptAt;
}

/** `queue show`: the job, its payload as JSON and every dead letter it had. */
export function jobDetailsText(job: JobDetails, personal: PersonalValues = 'masked'): string {
  const fields: [string, string | number | undefined][] = [
    ['kind', job.kind],
    ['entity key', job.entityKey],
    ['state', job.status],
    ['tries failed', job.attempts],
    ['next attempt', job.status === 'pending' ? nextAttempt(job) : undefined],
    ['running until', job.status === 'running' ? job.leaseUntil : undefined],
    ['superseded by', job.supersededBy === undefined ? undefined : `job ${job.supersededBy}`],
    ['idempotency key', job.idempotencyKey],
    ['created', job.createdAt],
    ['updated', job.updatedAt],
    ['last status', job.lastStatus === undefined ? undefined : `HTTP ${job.lastStatus}`],
    ['last error', job.lastError === undefined ? undefined : oneLine(job.lastError)],
  ];
  const lines = [`job ${job.id}`];
  for (const [label, value] of fields) {
    if (value !== undefined) lines.push(`  ${`${label}:`.padEnd(17)}${value}`);
  }
  const how = personal === 'masked' ? 'personal values masked' : 'personal values shown';
  lines.push(`  payload (${how}):`, indent(JSON.stringify(job.payload, null, 2), 4));
  lines.push(job.deadLetters.length === 0 ? '  dead letters: none' : '  dead letters:');
  for (const letter of job.deadLetters) lines.push(...deadLetterLines(letter));
  if (job.operatorActions.length > 0) lines.push('  operator actions:');
  for (const done of job.operatorActions) {
    const of = done.subject === `job:${job.id}` ? '' : ` of ${done.subject}`;
    lines.push(`    ${done.at}  ${done.action}${of} by ${done.osUser} on ${done.host}`);
  }
  return lines.join('\n');
}

function deadLetterLines(letter: DeadLetter): string[] {
  const resolved =
    letter.resolvedAt === undefined ? 'open' : `${letter.resolution} at ${letter.resolvedAt}`;
  const status = letter.httpStatus === undefined ? '' : `, HTTP ${letter.httpStatus}`;
  const lines = [
    `    - ${letter.deadAt}${status} (${resolved})`,
    `      reason: ${oneLine(letter.reason)}`,
  ];
  if (letter.bodyExcerpt !== undefined) lines.push(`      answer: ${oneLine(letter.bodyExcerpt)}`);
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function shorten(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}
