import type { z } from 'zod';
import { MAX_LISTED_PROBLEMS, MAX_NAME_CHARS } from './bounds.js';

/** One thing wrong with an inbox message: where (path, CSV row, XML line) and what. */
export interface Problem {
  path?: string;
  row?: number;
  /** Line of the file (XML; a mapped CSV file). */
  line?: number;
  /** The CSV column, by its header name or its number from 1 (a mapped CSV file). */
  column?: string;
  /** The element's path (a mapped XML file): `Auftraege/Auftrag[2]/Status`. */
  element?: string;
  message: string;
}

export function zodProblems(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** `erpOrderedArticleLines.0.quantity: expected number`, or the bare message at the top level. */
export function problemText(problem: Problem): string {
  const where = [
    problem.row === undefined ? undefined : `row ${problem.row}`,
    problem.line === undefined ? undefined : `line ${problem.line}`,
    problem.column === undefined ? undefined : `column ${problem.column}`,
    problem.element,
    problem.path === undefined || problem.path === '' ? undefined : problem.path,
  ].filter((part) => part !== undefined);
  return where.length === 0 ? problem.message : `${where.join(', ')}: ${problem.message}`;
}

export const uniqueProblems = (problems: readonly Problem[]): Problem[] => [
  ...new Map(problems.map((problem) => [problemText(problem), problem])).values(),
];

export type PathPart = string | number;

const shortName = (name: string) =>
  name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}…` : name;

/** `erpOrderedArticleLines.0.quantity`, each name cut to a readable length. */
export const pathText = (path: readonly PathPart[]) =>
  path.map((part) => (typeof part === 'number' ? String(part) : shortName(part))).join('.');

/** The path of a field whatever its list entry: `erpOrderedArticleLines.*.quantity`. */
export const fieldPathText = (path: readonly PathPart[]) =>
  path.map((part) => (typeof part === 'number' ? '*' : shortName(part))).join('.');

const closingLine = (more: number): Problem => ({ message: `… and ${more} more problems` });

/**
 * The first `MAX_LISTED_PROBLEMS` problems and the number of all. A problem is made only when
 * it is listed: naming the rest (paths, "did you mean") would cost as much as the message.
 */
export class ProblemList {
  private readonly kept: Problem[] = [];
  private count = 0;

  add(make: () => Problem): void {
    this.count += 1;
    if (!this.full) this.kept.push(make());
  }

  /** Whether a further problem is only counted: then it need not even be described. */
  get full(): boolean {
    return this.kept.length >= MAX_LISTED_PROBLEMS;
  }

  /** Counts a problem that is not listed. */
  countMore(): void {
    this.count += 1;
  }

  get size(): number {
    return this.count;
  }

  /** The listed problems, with `… and N more problems` when some were only counted. */
  listed(): Problem[] {
    const more = this.count - this.kept.length;
    return more > 0 ? [...this.kept, closingLine(more)] : [...this.kept];
  }
}

/** `problems` cut to the listed ones and the closing line. */
export function listedProblems(problems: readonly Problem[]): Problem[] {
  const list = new ProblemList();
  for (const problem of problems) list.add(() => problem);
  return list.listed();
}
